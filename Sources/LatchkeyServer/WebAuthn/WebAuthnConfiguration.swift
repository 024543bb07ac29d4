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
    /// checked for internal consistency but not to a root, and the result says `.uncertain`. Roots need attestation
    /// to be asked for (`attestation` other than `.none`) or `requireTrustedAttestation`: the relying party refuses a
    /// configuration where they could never be used (`WebAuthnConfigurationError.trustAnchorsWithoutAttestation`).
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
    /// With `attestation` `.none` its roots go unused (its status check and names still apply): the relying party
    /// says so once, as a warning through `LatchkeyLog` (`configurationWarnings`).
    public var attestationRootProvider: (any AttestationRootProvider)? = nil
    /// Accept credential keys of RS1 (COSE -65535: RSASSA-PKCS1-v1_5 over SHA-1), which some older Windows Hello TPMs
    /// make. Off by default, as java-webauthn-server has it: SHA-1 signatures are forgeable with chosen prefixes.
    /// When on, the registration options offer RS1 last in `pubKeyCredParams`, and such keys register and sign in;
    /// turned off again, passkeys with RS1 keys stop signing in (`WebAuthnError.unsupportedAlgorithm(-65535)`).
    /// (An RS1 *attestation statement* — a TPM's AIK signing its `certInfo` — is a separate matter and always
    /// verified; see `AttestationVerifier`.)
    public var allowRS1CredentialKeys = false
    /// android-key TEE requirement and the SafetyNet timestamp window.
    public var attestationOptions = AttestationOptions()
    /// How many credentials' verification keys the relying party keeps ready (`CredentialKeyCache`): a sign-in with
    /// one of them skips decoding the stored COSE key and building the key — about a fifth of an ES256 assertion's
    /// cost. Entries are found by credential ID and used only with the same stored key bytes, so a changed record is
    /// never verified with an old key. A few kilobytes per entry at most (an RSA-8192 key); 0 keeps none.
    public var credentialKeyCacheCapacity = 1024

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

    /// Refuses a configuration that cannot do what it says: trust anchors that would never be consulted.
    public func validate() throws(WebAuthnConfigurationError) {
        let formats = attestationTrustAnchors.filter { !$0.value.isEmpty }.keys.sorted()
        if attestation == .none, !requireTrustedAttestation, !formats.isEmpty {
            throw .trustAnchorsWithoutAttestation(formats: formats)
        }
    }

    /// What is valid but probably not what was meant (English; the relying party logs each once when it is made).
    /// An attestation root provider with conveyance `none` stays valid — its status check refuses revoked models and
    /// its names label passkeys whatever the conveyance — but its roots are never used.
    public var configurationWarnings: [String] {
        guard attestationRootProvider != nil, attestation == .none, !requireTrustedAttestation else { return [] }
        return ["attestationRootProvider (latchkey serve --metadata) is set but attestation (--attestation) is none: "
                + "its attestation roots are not used (no statement is verified; passkeys register with trust none); "
                + "its status check and authenticator names still apply. Ask for attestation (.direct, --attestation "
                + "direct) to use its roots."]
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
