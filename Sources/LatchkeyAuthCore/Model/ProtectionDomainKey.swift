import CryptoKit
import Foundation

/// The key pair a protection domain seals with: an X25519 private key derived (HKDF-SHA256) from the domain's secret,
/// and its public key. Whoever holds the public key can seal an item to the domain without any authentication, as
/// Apple adds access-controlled items without asking; only the secret — released by an evaluation covering the
/// domain — gives the private key that opens it.
public enum ProtectionDomainKey {
    private static let label = Data("latchkey protection-domain X25519 v1".utf8)

    /// The private key of the domain whose secret is `secret`.
    public static func privateKey(secret: Data) throws -> Curve25519.KeyAgreement.PrivateKey {
        let seed = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: secret), salt: Data(), info: label,
                                          outputByteCount: 32)
        return try seed.withUnsafeBytes { try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: $0) }
    }

    /// The public key (32 bytes) of the domain whose secret is `secret`.
    public static func publicKey(secret: Data) throws -> Data {
        try privateKey(secret: secret).publicKey.rawRepresentation
    }
}
