import Foundation
import LatchkeySupport

/// Where a context reads the current time; injected so tests of the reuse window need no sleeps.
public struct AuthenticationClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that reads `now`.
    public init(_ now: @escaping @Sendable () -> Date) { self.read = now }

    /// The current time.
    public var now: Date { read() }

    /// The system's wall clock.
    public static let system = AuthenticationClock { Date() }
}

/// A clock that only moves when told to: for tests and scripted demos.
public final class ManualClock: Sendable {
    private let current: Locked<Date>

    /// Starts at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Locked(start) }

    /// The current (manual) time.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    /// This clock as an `AuthenticationClock`.
    public var clock: AuthenticationClock { AuthenticationClock { [self] in self.now } }
}
