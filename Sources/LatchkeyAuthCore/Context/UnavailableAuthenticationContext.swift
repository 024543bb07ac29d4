import Foundation
import LatchkeySupport

/// A context on a device that cannot authenticate: every evaluation fails with one reason.
public final class UnavailableAuthenticationContext: AuthenticationContext {
    private struct Titles {
        var fallback: String?
        var cancel: String?
        var reuse: Double = 0
        var interactionNotAllowed = false
        var invalidated = false
    }

    private let reason: AuthenticationError
    private let titles = Locked(Titles())

    /// A context whose `canEvaluate`/`evaluate` throw `reason`.
    public init(reason: AuthenticationError) { self.reason = reason }

    /// Always `.none`.
    public var biometryType: BiometryType { .none }
    /// Always nil.
    public var domainState: Data? { nil }
    /// Stored, unused.
    public var localizedFallbackTitle: String? {
        get { titles.withLock { $0.fallback } }
        set { titles.withLock { $0.fallback = newValue } }
    }
    /// Stored, unused.
    public var localizedCancelTitle: String? {
        get { titles.withLock { $0.cancel } }
        set { titles.withLock { $0.cancel = newValue } }
    }
    /// Stored (clamped), unused.
    public var reuseDuration: Double {
        get { titles.withLock { $0.reuse } }
        set { titles.withLock { $0.reuse = LocalAuthenticationRules.clampedReuseDuration(newValue) } }
    }
    /// Stored, unused.
    public var interactionNotAllowed: Bool {
        get { titles.withLock { $0.interactionNotAllowed } }
        set { titles.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// Throws the reason (or `.invalidContext`).
    public func canEvaluate(_ policy: Policy) throws(AuthenticationError) { throw currentReason }
    /// Throws the reason (or `.invalidContext`).
    public func evaluate(_ policy: Policy, reason: String) async throws(AuthenticationError) { throw currentReason }
    /// Marks the context invalid.
    public func invalidate() { titles.withLock { $0.invalidated = true } }
    /// Throws the reason (or `.invalidContext`).
    public func releaseSecret(for domain: ProtectionDomain) throws(AuthenticationError) -> Data { throw currentReason }

    private var currentReason: AuthenticationError { titles.withLock { $0.invalidated } ? .invalidContext : reason }
}
