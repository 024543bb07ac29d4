import Foundation

/// Growing delays after failed logins, per user name and per client IP, and a lockout by time.
///
/// After `freeFailures` failures the key is blocked for `baseDelay`, then twice that, four times...
/// up to `maximumDelay`; at `lockoutThreshold` failures it is locked for `lockoutDuration`. A failure
/// older than `resetAfter` starts the count again; a successful login clears the user name's count
/// (never the IP's). Unknown user names are throttled exactly like existing ones, so throttling
/// reveals nothing about which accounts exist.
public struct LoginThrottlePolicy: Sendable, Equatable {
    public var freeFailures: Int
    public var baseDelay: Int64
    public var maximumDelay: Int64
    /// 0 disables lockout.
    public var lockoutThreshold: Int
    public var lockoutDuration: Int64
    public var resetAfter: Int64

    public init(freeFailures: Int, baseDelay: Int64 = 1, maximumDelay: Int64 = 300,
                lockoutThreshold: Int, lockoutDuration: Int64 = 900, resetAfter: Int64 = 3600) {
        self.freeFailures = freeFailures; self.baseDelay = baseDelay; self.maximumDelay = maximumDelay
        self.lockoutThreshold = lockoutThreshold; self.lockoutDuration = lockoutDuration; self.resetAfter = resetAfter
    }

    /// Per account (user name): 5 free failures, then 1 s, 2 s, 4 s… (≤ 5 min); locked 15 min after 10.
    public static let perAccount = LoginThrottlePolicy(freeFailures: 5, lockoutThreshold: 10)
    /// Per IP (many users may share one address): 20 free failures, then 1 s, 2 s… (≤ 5 min); no lockout.
    public static let perIP = LoginThrottlePolicy(freeFailures: 20, lockoutThreshold: 0)

    /// When a key with `failures` failures, the last at `now`, may try again.
    public func blockedUntil(failures: Int, now: Int64) -> Int64 {
        if lockoutThreshold > 0, failures >= lockoutThreshold { return now + lockoutDuration }
        guard failures > freeFailures else { return 0 }
        let doublings = min(failures - freeFailures - 1, 40)
        let delay = min(baseDelay.multipliedReportingOverflow(by: Int64(1) << doublings).partialValue, maximumDelay)
        return now + max(delay, 0)
    }

    /// True when `failures` is at or above the lockout threshold.
    public func isLockedOut(failures: Int) -> Bool { lockoutThreshold > 0 && failures >= lockoutThreshold }
}
