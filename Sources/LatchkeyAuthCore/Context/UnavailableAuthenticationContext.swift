import Foundation
import LatchkeySupport

/// A context on a device that cannot authenticate: every evaluation fails with one reason. Credentials
/// (`setCredential`) are kept, so an item protected only by an application password still opens.
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
    private let credentials = CredentialStore()

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
    /// Throws the reason when the requirement needs device authentication; `.notInteractive` when it needs an
    /// application password that was not set (nobody can be asked).
    public func evaluate(_ requirement: AccessRequirement, reason: String) async throws(AuthenticationError) {
        if !requirement.alternatives.isEmpty { throw currentReason }
        if requirement.applicationPassword && !credentials.contains(.applicationPassword) { throw .notInteractive }
    }
    /// Keeps the credential until `invalidate()`.
    public func setCredential(_ credential: Passcode?, type: CredentialType) -> Bool {
        credentials.set(credential, for: type)
        return true
    }
    public func isCredentialSet(_ type: CredentialType) -> Bool { credentials.contains(type) }
    public func credential(_ type: CredentialType) throws(AuthenticationError) -> Passcode {
        if titles.withLock({ $0.invalidated }) { throw .invalidContext }
        return try credentials.get(type)
    }
    /// Marks the context invalid and drops its credentials.
    public func invalidate() {
        credentials.removeAll()
        titles.withLock { $0.invalidated = true }
    }
    /// Throws the reason (or `.invalidContext`).
    public func releaseSecret(for domain: ProtectionDomain) throws(AuthenticationError) -> Data { throw currentReason }

    private var currentReason: AuthenticationError { titles.withLock { $0.invalidated } ? .invalidContext : reason }
}
