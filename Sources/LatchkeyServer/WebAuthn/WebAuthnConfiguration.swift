import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// What a relying party accepts. Defaults are the safe ones: same-origin only, challenges single-use with a
/// five-minute life, ambiguous CBOR refused. User verification defaults to `.preferred` (the WebAuthn and browser
/// default): set `.required` where a passkey is the only factor (the server's passkey endpoints do).
public struct WebAuthnConfiguration: Sendable {
    /// The RP ID (a registrable domain, `localhost` in development; never an IP literal).
    public var relyingPartyID: String
    public var relyingPartyName: String
    /// Exact origins allowed in clientDataJSON (`https://example.com`, `http://localhost:8080`).
    public var allowedOrigins: Set<String>
    /// Further RP IDs of the same relying party, each with its own origins (e.g. `example.co.uk` beside
    /// `example.com`). A response from one of their origins may carry the rpIdHash of that RP ID or of
    /// `relyingPartyID` (WebAuthn L3 §5.11 related origin requests); a response from `allowedOrigins` only the
    /// latter's.
    public var relatedRelyingParties: [RelatedRelyingParty]
    /// Accept ceremonies run inside a cross-origin iframe (a `topOrigin`, when sent, must be in `allowedTopOrigins`).
    public var allowCrossOrigin: Bool
    public var allowedTopOrigins: Set<String>
    /// Refuse a cross-origin ceremony whose client data has no `topOrigin`. WebAuthn L3 §7.1 step 10 checks
    /// `topOrigin` only when present (older browsers do not send it), so the default is `false`.
    public var requireTopOrigin: Bool
    /// `.required` rejects assertions and registrations without the UV flag; `.preferred` and `.discouraged`
    /// accept them and report the flag (`StoredCredential.userVerifiedAtRegistration`, `AuthenticationResult.userVerified`).
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
    /// How strictly the attestation object's and the authenticator data's CBOR is read (see `CBORStrictness`):
    /// `.compatible` by default, which refuses duplicate keys and indefinite lengths but accepts the
    /// non-canonical key order and length heads deployed authenticators emit.
    public var cborStrictness: CBORStrictness
    /// Per-authenticator attestation roots and status (e.g. `MetadataService` from a FIDO MDS3 BLOB): its roots
    /// for the registration's AAGUID join `attestationTrustAnchors`, and a revoked or compromised model is refused.
    public var attestationRootProvider: (any AttestationRootProvider)? = nil
    /// android-key TEE requirement and the SafetyNet timestamp window.
    public var attestationOptions = AttestationOptions()

    public init(relyingPartyID: String, relyingPartyName: String, allowedOrigins: Set<String>,
                relatedRelyingParties: [RelatedRelyingParty] = [],
                allowCrossOrigin: Bool = false, allowedTopOrigins: Set<String> = [], requireTopOrigin: Bool = false,
                userVerification: UserVerificationRequirement = .preferred,
                residentKey: ResidentKeyRequirement = .required,
                attestation: AttestationConveyancePreference = .none,
                supportedAlgorithms: [COSEAlgorithm] = [.es256, .edDSA, .es384, .ps256, .rs256],
                timeoutMilliseconds: Int = 300_000, challengeLifetime: TimeInterval = 300,
                attestationTrustAnchors: [String: [Certificate]] = [:], requireTrustedAttestation: Bool = false,
                allowConditionalRegistration: Bool = false, cborStrictness: CBORStrictness = .compatible) {
        self.relyingPartyID = relyingPartyID
        self.relyingPartyName = relyingPartyName
        self.allowedOrigins = allowedOrigins
        self.relatedRelyingParties = relatedRelyingParties
        self.allowCrossOrigin = allowCrossOrigin
        self.allowedTopOrigins = allowedTopOrigins
        self.requireTopOrigin = requireTopOrigin
        self.userVerification = userVerification
        self.residentKey = residentKey
        self.attestation = attestation
        self.supportedAlgorithms = supportedAlgorithms
        self.timeoutMilliseconds = timeoutMilliseconds
        self.challengeLifetime = challengeLifetime
        self.attestationTrustAnchors = attestationTrustAnchors
        self.requireTrustedAttestation = requireTrustedAttestation
        self.allowConditionalRegistration = allowConditionalRegistration
        self.cborStrictness = cborStrictness
    }

    /// The RP IDs whose rpIdHash a response from `origin` may carry (empty: the origin is not allowed).
    public func relyingPartyIDs(acceptedFrom origin: String) -> [String] {
        var ids: [String] = []
        if allowedOrigins.contains(origin) { ids.append(relyingPartyID) }
        for related in relatedRelyingParties where related.origins.contains(origin) {
            if !ids.contains(related.id) { ids.append(related.id) }
            if !ids.contains(relyingPartyID) { ids.append(relyingPartyID) }
        }
        return ids
    }
}

/// Another RP ID of the same relying party and the origins that use it.
public struct RelatedRelyingParty: Sendable, Hashable, Codable {
    /// The RP ID (a registrable domain such as `example.co.uk`).
    public var id: String
    /// Exact origins (`https://example.co.uk`) whose responses may carry this RP ID's hash.
    public var origins: Set<String>

    public init(id: String, origins: Set<String>) {
        self.id = id
        self.origins = origins
    }
}
