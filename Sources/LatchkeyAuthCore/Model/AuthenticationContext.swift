import Foundation

/// Device-owner authentication with LocalAuthentication's semantics (`LAContext`).
///
/// Implemented by `SimulatedAuthenticator`, `PAMAuthenticator` and, on Apple platforms,
/// `AppleAuthenticationContext`. A context is a reference: an evaluation's success (and the reuse
/// window) belong to the context instance, as with `LAContext`.
public protocol AuthenticationContext: AnyObject, Sendable {
    /// The sensor this context would use; `.none` before `canEvaluate` has been called on Apple platforms.
    var biometryType: BiometryType { get }
    /// Opaque value that changes whenever biometric enrolment changes (`evaluatedPolicyDomainState`).
    var domainState: Data? { get }
    /// Title of the fallback button; an empty string hides it. `nil` means the system default.
    var localizedFallbackTitle: String? { get set }
    /// Title of the cancel button; `nil` means the system default.
    var localizedCancelTitle: String? { get set }
    /// A successful device unlock this recent is accepted without a prompt (capped at 300 s).
    var reuseDuration: Double { get set }
    /// When true, an evaluation that would need to prompt fails with `.notInteractive`.
    var interactionNotAllowed: Bool { get set }

    /// Throws the reason the policy cannot be evaluated (not enrolled, locked out, no passcode...).
    func canEvaluate(_ policy: Policy) throws(AuthenticationError)
    /// Prompts (or consults the sensor) and returns on success; throws the LAError-style reason otherwise.
    func evaluate(_ policy: Policy, reason: String) async throws(AuthenticationError)
    /// Ends the context: running and later evaluations fail with `.invalidContext`.
    func invalidate()

    /// The secret of a protection domain, available only after this context evaluated a policy that
    /// covers that domain (biometric success covers biometry*/userPresence; passcode success covers
    /// devicePasscode/userPresence). Throws `.notInteractive` / `.authenticationFailed` otherwise.
    func releaseSecret(for domain: ProtectionDomain) throws(AuthenticationError) -> Data
}
