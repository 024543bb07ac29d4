import Foundation
import LatchkeyCrypto

/// What the relying party keeps about a registered passkey (WebAuthn §7.1 step 27 "credential record"), as
/// `verifyRegistration` returns it. `Codable`: JSON-encode it to keep it in any store (binary fields are base64,
/// dates seconds since 2001 with the default `JSONEncoder`; decode with the same strategies), and pass it back to
/// the authentication methods as it was.
public struct StoredCredential: Sendable, Hashable, Codable {
    public var id: Data
    public var userHandle: Data
    /// The COSE_Key bytes as the authenticator sent them.
    public var publicKey: Data
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

    public init(id: Data, userHandle: Data, publicKey: Data, algorithm: Int, signCount: UInt32, transports: [String],
                backupEligible: Bool, backupState: Bool, userVerifiedAtRegistration: Bool, aaguid: Data,
                attestationFormat: String, attestationTrust: AttestationTrust, createdAt: Date, lastUsedAt: Date? = nil,
                relyingPartyID: String? = nil) {
        self.id = id
        self.userHandle = userHandle
        self.publicKey = publicKey
        self.algorithm = algorithm
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
