import Foundation

/// A value guarded by a lock (NSLock works on every platform the package supports; `Mutex` needs macOS 15).
final class Locked<Value>: @unchecked Sendable { // safe: every access to `value` goes through `lock`
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
