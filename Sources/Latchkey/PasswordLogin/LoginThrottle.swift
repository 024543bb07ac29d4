import Foundation

/// How failed logins slow down further attempts: the first `freeAttempts` failures cost nothing; from
/// then on each failure locks login for `baseDelay` seconds, doubling per further failure up to `maximumDelay`.
public struct LoginThrottlePolicy: Sendable, Hashable {
    /// Failures allowed before the first delay (default 5).
    public var freeAttempts: Int
    /// The first delay in seconds (default 30).
    public var baseDelay: TimeInterval
    /// The longest delay in seconds (default one hour).
    public var maximumDelay: TimeInterval

    /// Creates a policy.
    public init(freeAttempts: Int = 5, baseDelay: TimeInterval = 30, maximumDelay: TimeInterval = 3600) {
        self.freeAttempts = max(1, freeAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(self.baseDelay, maximumDelay)
    }

    /// The lock after `failures` consecutive failures (0 while under `freeAttempts`).
    public func delay(afterFailures failures: Int) -> TimeInterval {
        guard failures >= freeAttempts else { return 0 }
        let exponent = min(failures - freeAttempts, 30)
        return min(maximumDelay, baseDelay * pow(2, Double(exponent)))
    }
}

/// The persisted throttle: consecutive failures and until when login is locked.
public struct LoginThrottleState: Sendable, Hashable, Codable {
    /// Consecutive failed attempts since the last success.
    public var failures: Int
    /// Login is refused until this moment, if set.
    public var lockedUntil: Date?

    /// Creates a state.
    public init(failures: Int = 0, lockedUntil: Date? = nil) {
        self.failures = failures
        self.lockedUntil = lockedUntil
    }

    /// Seconds left before the next attempt is allowed at `now` (0 when allowed).
    public func secondsRemaining(at now: Date) -> Int {
        guard let lockedUntil, lockedUntil > now else { return 0 }
        return Int(lockedUntil.timeIntervalSince(now).rounded(.up))
    }
}
