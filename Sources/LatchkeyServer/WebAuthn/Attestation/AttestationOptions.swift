import Foundation

/// Tunables of the attestation formats whose checks have a choice (WebAuthn §8.4, §8.5).
/// `WebAuthnConfiguration.attestationOptions`.
public struct AttestationOptions: Sendable, Hashable {
    /// android-key: judge `origin` and `purpose` by the TEE-enforced authorization list only
    /// (when false, by the union of the TEE and software lists).
    public var androidKeyRequiresTrustedExecutionEnvironment: Bool
    /// android-key: accept a KeyDescription whose authorization lists hold no `origin` and no `purpose` at all
    /// (§8.4 requires origin GENERATED and purpose SIGN; a keystore always writes both, but generated
    /// statements — the W3C §16 vector among them — may leave both lists empty). Present values are still
    /// checked: an imported key or a key without SIGN is refused either way. Off by default.
    public var androidKeyAcceptsEmptyAuthorizationLists: Bool
    /// android-safetynet: how far in the future `timestampMs` may be (clock skew), in seconds.
    public var safetyNetMaximumFutureSkew: TimeInterval
    /// android-safetynet: how old `timestampMs` may be, in seconds.
    public var safetyNetMaximumAge: TimeInterval

    public init(androidKeyRequiresTrustedExecutionEnvironment: Bool = false, androidKeyAcceptsEmptyAuthorizationLists: Bool = false,
                safetyNetMaximumFutureSkew: TimeInterval = 60, safetyNetMaximumAge: TimeInterval = 300) {
        self.androidKeyRequiresTrustedExecutionEnvironment = androidKeyRequiresTrustedExecutionEnvironment
        self.androidKeyAcceptsEmptyAuthorizationLists = androidKeyAcceptsEmptyAuthorizationLists
        self.safetyNetMaximumFutureSkew = safetyNetMaximumFutureSkew
        self.safetyNetMaximumAge = safetyNetMaximumAge
    }
}
