import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// What a relying party accepts. Defaults are the safe ones: user verification required,
/// same-origin only, challenges single-use with a five-minute life.
public struct WebAuthnConfiguration: Sendable {
    /// The RP ID (a registrable domain, `localhost` in development; never an IP literal).
    public var relyingPartyID: String
    public var relyingPartyName: String
    /// Exact origins allowed in clientDataJSON (`https://example.com`, `http://localhost:8080`).
    public var allowedOrigins: Set<String>
    /// Accept ceremonies run inside a cross-origin iframe (then `topOrigin` must be in `allowedTopOrigins`).
    public var allowCrossOrigin: Bool
    public var allowedTopOrigins: Set<String>
    /// `.required` rejects assertions and registrations without the UV flag.
    public var userVerification: UserVerificationRequirement
    public var residentKey: ResidentKeyRequirement
    public var attestation: AttestationConveyancePreference
    public var supportedAlgorithms: [COSEAlgorithm]
    /// Milliseconds the browser is given (`timeout` in the options).
    public var timeoutMilliseconds: Int
    /// How long an issued challenge stays valid.
    public var challengeLifetime: TimeInterval
    /// Root certificates per attestation format (`packed`, `fido-u2f`, `apple`, `tpm`, `android-key`,
    /// `android-safetynet`). Empty: chains are
    /// checked for internal consistency but not to a root, and the result says `.uncertain`.
    public var attestationTrustAnchors: [String: [Certificate]]
    /// Refuse registrations whose attestation is not verified to a trust anchor.
    public var requireTrustedAttestation: Bool
    /// Registration without the UP flag (WebAuthn L3 conditional create) is accepted when true.
    public var allowConditionalRegistration: Bool
    /// Per-authenticator attestation roots and status (e.g. `MetadataService` from a FIDO MDS3 BLOB): its roots
    /// for the registration's AAGUID join `attestationTrustAnchors`, and a revoked or compromised model is refused.
    public var attestationRootProvider: (any AttestationRootProvider)? = nil
    /// android-key TEE requirement and the SafetyNet timestamp window.
    public var attestationOptions = AttestationOptions()

    public init(relyingPartyID: String, relyingPartyName: String, allowedOrigins: Set<String>,
                allowCrossOrigin: Bool = false, allowedTopOrigins: Set<String> = [],
                userVerification: UserVerificationRequirement = .required,
                residentKey: ResidentKeyRequirement = .required,
                attestation: AttestationConveyancePreference = .none,
                supportedAlgorithms: [COSEAlgorithm] = [.es256, .edDSA, .es384, .ps256, .rs256],
                timeoutMilliseconds: Int = 300_000, challengeLifetime: TimeInterval = 300,
                attestationTrustAnchors: [String: [Certificate]] = [:], requireTrustedAttestation: Bool = false,
                allowConditionalRegistration: Bool = false) {
        self.relyingPartyID = relyingPartyID
        self.relyingPartyName = relyingPartyName
        self.allowedOrigins = allowedOrigins
        self.allowCrossOrigin = allowCrossOrigin
        self.allowedTopOrigins = allowedTopOrigins
        self.userVerification = userVerification
        self.residentKey = residentKey
        self.attestation = attestation
        self.supportedAlgorithms = supportedAlgorithms
        self.timeoutMilliseconds = timeoutMilliseconds
        self.challengeLifetime = challengeLifetime
        self.attestationTrustAnchors = attestationTrustAnchors
        self.requireTrustedAttestation = requireTrustedAttestation
        self.allowConditionalRegistration = allowConditionalRegistration
    }
}
