import Foundation

/// A value guarded by a lock (NSLock works on every platform the package supports; `Mutex` needs macOS 15).
///
/// The value lives in memory of its own rather than in a stored property: a class's stored property passed
/// `inout` gets a dynamic exclusivity check on every access, which the lock already makes unnecessary (a few
/// hundred instructions on each keychain read, measured with callgrind).
final class Locked<Value>: @unchecked Sendable { // safe: every access to the value goes through `lock`
    private let lock = NSLock()
    private let storage: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage.pointee)
    }
}
