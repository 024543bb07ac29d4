import Foundation

/// A passcode or password typed by the user, held in memory that is zeroed when the value is released.
///
/// Prefer `init(bytes:)` (e.g. from a terminal read): a Swift `String` cannot be wiped, so
/// `init(_:)` leaves the caller's string in memory until it is freed.
public final class Passcode: @unchecked Sendable {
    // @unchecked: `storage` is written only in init and deinit; every other access reads it.
    private let storage: UnsafeMutableBufferPointer<UInt8>

    /// Copies `bytes`; the caller should zero its own copy.
    public init(bytes: some Collection<UInt8>) {
        storage = .allocate(capacity: max(bytes.count, 1))
        storage.initialize(repeating: 0)
        _ = storage.initialize(from: bytes)
        count = bytes.count
    }

    /// Copies the UTF-8 bytes of `string`.
    public convenience init(_ string: String) { self.init(bytes: Array(string.utf8)) }

    /// Number of bytes.
    public let count: Int

    /// Calls `body` with the bytes (without a terminating NUL). Do not let them escape.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(rebasing: storage[0..<count]))
    }

    deinit {
        for index in storage.indices { storage[index] = 0 }
        storage.deallocate()
    }
}

extension Passcode: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never shows the secret.
    public var description: String { "Passcode(<redacted>)" }
    /// Never shows the secret.
    public var debugDescription: String { description }
}
