import Foundation
import LatchkeySupport

/// The time source of the auth service. Injected everywhere so tests (throttling, lockout, token
/// expiry, key rotation) never sleep.
public protocol ServerClock: Sendable {
    /// The current time.
    func now() -> Date
}

extension ServerClock {
    /// Whole Unix seconds, as the storage layer keeps times.
    public var seconds: Int64 { Int64(now().timeIntervalSince1970.rounded(.down)) }
}

/// The system's wall clock.
public struct SystemClock: ServerClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to (tests, simulations).
public final class ManualClock: ServerClock {
    private let current: Locked<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Locked(start) }

    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }

    /// Sets the clock.
    public func set(_ date: Date) { current.withLock { $0 = date } }
}
