import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// What the relying party keeps about a registered passkey (WebAuthn §7.1 step 27 "credential record"), as
/// `verifyRegistration` returns it. `Codable`: JSON-encode it to keep it in any store (binary fields are base64,
/// dates seconds since 2001 with the default `JSONEncoder`; decode with the same strategies), and pass it back to
/// the authentication methods as it was.
public struct StoredCredential: Sendable, Hashable, Codable {
    public var id: Data
    public var userHandle: Data
    /// The COSE_Key bytes as the authenticator sent them.
    public var publicKey: Data
    /// The key's COSE algorithm (-7 ES256, -257 RS256, -65535 RS1...), as read from `publicKey`; kept for listings
    /// and storage. Verification reads the key's own algorithm, never this field.
    public var algorithm: Int
    public var signCount: UInt32
    public var transports: [String]
    public var backupEligible: Bool
    public var backupState: Bool
    public var userVerifiedAtRegistration: Bool
    public var aaguid: Data
    public var attestationFormat: String
    public var attestationTrust: AttestationTrust
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// The RP ID the credential was made for (one of the related RP IDs, or the main one). An assertion must
    /// carry its hash; nil (records made before it was kept) accepts any RP ID allowed for the origin.
    public var relyingPartyID: String?

    /// A credential record made by hand (imported from another system, or rebuilt from your own columns). The
    /// algorithm is read from `publicKey` (the COSE_Key bytes), so it cannot disagree with the key; a key the relying
    /// party cannot verify — one that does not parse, or whose point is off its curve — is refused here
    /// (`invalidPublicKey`, `unsupportedAlgorithm`) rather than at sign-in.
    /// `backupEligible` must be what the authenticator reports (an assertion with another BE flag is refused), and
    /// `signCount` the last counter seen (0 when unknown: the next assertion's counter is then accepted as it is).
    public init(id: Data, userHandle: Data, publicKey: Data, signCount: UInt32 = 0, backupEligible: Bool,
                backupState: Bool = false, transports: [String] = [], userVerifiedAtRegistration: Bool = false,
                aaguid: Data = Data(count: 16), attestationFormat: String = "none", attestationTrust: AttestationTrust = .none,
                createdAt: Date = Date(), lastUsedAt: Date? = nil, relyingPartyID: String? = nil) throws(WebAuthnError) {
        self.init(id: id, userHandle: userHandle, publicKey: publicKey,
                  keyAlgorithm: try CredentialVerificationKey(CredentialPublicKey(encoded: publicKey)).algorithm,
                  signCount: signCount,
                  transports: transports, backupEligible: backupEligible, backupState: backupState,
                  userVerifiedAtRegistration: userVerifiedAtRegistration, aaguid: aaguid, attestationFormat: attestationFormat,
                  attestationTrust: attestationTrust, createdAt: createdAt, lastUsedAt: lastUsedAt, relyingPartyID: relyingPartyID)
    }

    /// Every field given, the algorithm too — which no check reads: an assertion is verified with the algorithm of
    /// the key itself.
    @available(*, deprecated, message: "The algorithm is read from the key: use init(id:userHandle:publicKey:signCount:backupEligible:...).")
    public init(id: Data, userHandle: Data, publicKey: Data, algorithm: Int, signCount: UInt32, transports: [String],
                backupEligible: Bool, backupState: Bool, userVerifiedAtRegistration: Bool, aaguid: Data,
                attestationFormat: String, attestationTrust: AttestationTrust, createdAt: Date, lastUsedAt: Date? = nil,
                relyingPartyID: String? = nil) {
        self.init(id: id, userHandle: userHandle, publicKey: publicKey, keyAlgorithm: algorithm, signCount: signCount,
                  transports: transports, backupEligible: backupEligible, backupState: backupState,
                  userVerifiedAtRegistration: userVerifiedAtRegistration, aaguid: aaguid, attestationFormat: attestationFormat,
                  attestationTrust: attestationTrust, createdAt: createdAt, lastUsedAt: lastUsedAt, relyingPartyID: relyingPartyID)
    }

    /// The record as the relying party made it, or as stored (the algorithm taken from a key already parsed).
    init(id: Data, userHandle: Data, publicKey: Data, keyAlgorithm: Int, signCount: UInt32, transports: [String],
         backupEligible: Bool, backupState: Bool, userVerifiedAtRegistration: Bool, aaguid: Data,
         attestationFormat: String, attestationTrust: AttestationTrust, createdAt: Date, lastUsedAt: Date? = nil,
         relyingPartyID: String? = nil) {
        self.id = id
        self.userHandle = userHandle
        self.publicKey = publicKey
        self.algorithm = keyAlgorithm
        self.signCount = signCount
        self.transports = transports
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.userVerifiedAtRegistration = userVerifiedAtRegistration
        self.aaguid = aaguid
        self.attestationFormat = attestationFormat
        self.attestationTrust = attestationTrust
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.relyingPartyID = relyingPartyID
    }
}

/// How far an attestation was verified.
public enum AttestationTrust: String, Sendable, Hashable, Codable {
    /// `none` attestation: nothing about the authenticator's make is known.
    case none
    /// Self attestation: signed by the credential key itself.
    case selfAttested
    /// A certificate chain that verified as a structure but not to a configured root.
    case uncertain
    /// A certificate chain verified to a configured trust anchor.
    case trusted
}
