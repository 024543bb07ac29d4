import Foundation

/// A value guarded by a lock: the one lock type of the whole package.
///
/// `Mutex` (Synchronization) needs macOS 15 / iOS 18, above the package's floor (macOS 14 / iOS 17), and `os`'s
/// `OSAllocatedUnfairLock` does not exist on Linux; `NSLock` works on every platform the package supports.
/// The value lives in memory of its own rather than in a stored property: a class's stored property passed
/// `inout` gets a dynamic exclusivity check on every access, which the lock already makes unnecessary (a few
/// hundred instructions on each keychain read, measured with callgrind). The methods are inlinable: every module
/// uses its own specialization (a generic call across modules costs a metadata lookup for `R?` on each use).
package final class Locked<Value: ~Copyable>: @unchecked Sendable { // safe: every access to the value goes through `lock`
    @usableFromInline let lock = NSLock()
    @usableFromInline let storage: UnsafeMutablePointer<Value>

    package init(_ value: consuming Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable
    package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage.pointee)
    }

    /// Runs `body` with the value when the lock is free right now; nil (without waiting) when it is held.
    @inlinable
    package func withLockIfAvailable<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R? {
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        return try body(&storage.pointee)
    }
}
