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

    /// Proves what an access control needs (`LAContext.evaluateAccessControl`): the prompts follow the
    /// requirement's domains (a passcode-only item never takes a biometric match), and the application
    /// password is asked for when the requirement has one and none was set. Returns at once when this context
    /// already proved an alternative.
    func evaluate(_ requirement: AccessRequirement, reason: String) async throws(AuthenticationError)

    /// `LAContext.setCredential(_:type:)`: gives the context a credential (nil removes it). False when the
    /// context keeps no credentials.
    func setCredential(_ credential: Passcode?, type: CredentialType) -> Bool
    /// `LAContext.isCredentialSet(_:)`.
    func isCredentialSet(_ type: CredentialType) -> Bool
    /// The credential of `type` set on this context (or entered at its prompt); `.notInteractive` when none.
    func credential(_ type: CredentialType) throws(AuthenticationError) -> Passcode
}

extension AuthenticationContext {
    /// For contexts that evaluate only policies: the requirement's nearest policy (`AccessRequirement.policy`).
    /// The application password cannot be asked for: without one set, `.notInteractive`.
    public func evaluate(_ requirement: AccessRequirement, reason: String) async throws(AuthenticationError) {
        if requirement.applicationPassword && !isCredentialSet(.applicationPassword) { throw .notInteractive }
        guard !requirement.alternatives.isEmpty else { return }
        try await evaluate(requirement.policy, reason: reason)
    }

    /// The public key new items of `domain` are sealed to (`ProtectionDomainKey`): from a `SealingKeyProviding` context
    /// (one over a device) without an evaluation, so adding an access-controlled item asks nothing, as on Apple
    /// platforms; from any other context, the public key of the secret it releases (after evaluating the domain).
    public func sealingKey(for domain: ProtectionDomain) throws(AuthenticationError) -> Data {
        if let provider = self as? any SealingKeyProviding { return try provider.sealingKey(for: domain) }
        let secret = try releaseSecret(for: domain)
        do { return try ProtectionDomainKey.publicKey(secret: secret) } catch { throw .authenticationFailed }
    }

    /// Keeps nothing: false.
    public func setCredential(_ credential: Passcode?, type: CredentialType) -> Bool { false }
    /// False: nothing is kept.
    public func isCredentialSet(_ type: CredentialType) -> Bool { false }
    /// `.notInteractive`: nothing is kept.
    public func credential(_ type: CredentialType) throws(AuthenticationError) -> Passcode { throw .notInteractive }
}

/// A context that hands out the public sealing key of a protection domain without an evaluation (`DeviceOwnerContext`:
/// its device keeps the domains' secrets), so items are sealed to the domain at any time and only opening asks.
public protocol SealingKeyProviding: AnyObject, Sendable {
    /// The public key (32 bytes, `ProtectionDomainKey`) new items of `domain` are sealed to.
    func sealingKey(for domain: ProtectionDomain) throws(AuthenticationError) -> Data
}
