import Foundation

/// Tunables of the attestation formats whose checks have a choice (WebAuthn §8.4, §8.5).
/// `WebAuthnConfiguration.attestationOptions`.
public struct AttestationOptions: Sendable, Hashable {
    /// android-key: judge `origin` and `purpose` by the TEE-enforced authorization list only
    /// (when false, by the union of the TEE and software lists).
    public var androidKeyRequiresTrustedExecutionEnvironment: Bool
    /// android-safetynet: how far in the future `timestampMs` may be (clock skew), in seconds.
    public var safetyNetMaximumFutureSkew: TimeInterval
    /// android-safetynet: how old `timestampMs` may be, in seconds.
    public var safetyNetMaximumAge: TimeInterval

    public init(androidKeyRequiresTrustedExecutionEnvironment: Bool = false, safetyNetMaximumFutureSkew: TimeInterval = 60,
                safetyNetMaximumAge: TimeInterval = 300) {
        self.androidKeyRequiresTrustedExecutionEnvironment = androidKeyRequiresTrustedExecutionEnvironment
        self.safetyNetMaximumFutureSkew = safetyNetMaximumFutureSkew
        self.safetyNetMaximumAge = safetyNetMaximumAge
    }
}
