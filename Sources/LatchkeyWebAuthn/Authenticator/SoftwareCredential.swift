import Foundation
import LatchkeyCrypto

/// A passkey held by the software authenticator: a P-256 key pair bound to one RP ID and user.
public struct SoftwareCredential: Sendable, Hashable, Codable, CustomStringConvertible {
    public var id: Data
    public var relyingPartyID: String
    public var userHandle: Data
    public var userName: String
    /// PKCS#8 DER of the private key. A secret: never printed.
    public var privateKey: Data
    public var signCount: UInt32
    public var createdAt: Date

    public init(id: Data, relyingPartyID: String, userHandle: Data, userName: String, privateKey: Data,
                signCount: UInt32, createdAt: Date) {
        self.id = id
        self.relyingPartyID = relyingPartyID
        self.userHandle = userHandle
        self.userName = userName
        self.privateKey = privateKey
        self.signCount = signCount
        self.createdAt = createdAt
    }

    public var description: String {
        "SoftwareCredential(rp: \(relyingPartyID), user: \(userName), id: \(id.base64URLEncodedString()))"
    }
}

/// Where the software authenticator keeps its passkeys (the keychain in the app kit, memory in tests).
public protocol SoftwareCredentialStore: Sendable {
    func save(_ credential: SoftwareCredential) throws
    func credentials(forRelyingParty rpID: String) throws -> [SoftwareCredential]
}
