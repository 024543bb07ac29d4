import Foundation

/// The SubjectPublicKeyInfo DER of an Ed25519 public key (RFC 8410 §4): CryptoKit's `Curve25519.Signing.PublicKey`
/// has a raw representation only, and certificates and COSE comparisons need the DER one.
public enum Ed25519SubjectPublicKeyInfo {
    /// `SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING (0 unused bits) }` before the 32 key bytes.
    static let prefix: [UInt8] = [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]

    /// The DER of the 32-byte key `rawKey`.
    public static func der(rawKey: Data) throws(CryptoError) -> Data {
        guard rawKey.count == 32 else { throw .invalidKeySize(expected: 32, actual: rawKey.count) }
        return Data(prefix) + rawKey
    }

    /// The public key of an Ed25519 SubjectPublicKeyInfo (the exact DER form above, nothing else).
    public static func publicKey(der: Data) throws(CryptoError) -> Curve25519.Signing.PublicKey {
        guard der.count == prefix.count + 32, der.prefix(prefix.count).elementsEqual(prefix) else {
            throw .malformedInput("Ed25519 SubjectPublicKeyInfo")
        }
        let raw = Data(der.suffix(32))
        return try checked("Ed25519 public key") { try Curve25519.Signing.PublicKey(rawRepresentation: raw) }
    }
}
