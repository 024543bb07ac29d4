import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// An attested App Attest key as the server keeps it.
public struct AppAttestKeyRecord: Sendable, Hashable {
    /// The key identifier: SHA-256 of the key's uncompressed point (32 bytes).
    public var keyID: Data
    /// The app the attestation was made for.
    public var appID: String
    /// The environment the attestation's AAGUID named.
    public var environment: AppAttestEnvironment
    /// The attested public key as a COSE_Key (ES256, P-256), taken from the credential certificate.
    public var publicKey: Data
    /// The highest assertion counter accepted so far (0 after the attestation).
    public var counter: UInt32
    /// Apple's receipt from the attestation statement, kept for a later fraud-metric exchange with Apple.
    public var receipt: Data
    public var createdAt: Int64
    public var lastUsedAt: Int64?

    public init(keyID: Data, appID: String, environment: AppAttestEnvironment, publicKey: Data, counter: UInt32,
                receipt: Data, createdAt: Int64, lastUsedAt: Int64? = nil) {
        self.keyID = keyID
        self.appID = appID
        self.environment = environment
        self.publicKey = publicKey
        self.counter = counter
        self.receipt = receipt
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
