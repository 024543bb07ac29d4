import Foundation

extension COSEKey {
    /// Verifies a WebAuthn signature: ECDSA signatures are ASN.1 DER (WebAuthn §6.5.6), EdDSA raw,
    /// RSA PKCS#1 v1.5 (RS256) or PSS (PS256) over SHA-256. A key that does not hold together verifies nothing. To
    /// verify more than one signature by the same key, build a `COSEVerificationKey` once and keep it.
    public func isValidSignature(_ signature: Data, for data: Data) -> Bool {
        guard let key = try? COSEVerificationKey(self) else { return false }
        return key.isValidSignature(signature, for: data)
    }

    /// The SubjectPublicKeyInfo DER of this key (to compare with a certificate's key).
    public func subjectPublicKeyInfo() throws(CryptoError) -> Data {
        switch self {
        case let .ec2(_, .p256, x, y): return try checked("COSE P-256 key") { try P256.Signing.PublicKey(rawRepresentation: x + y).derRepresentation }
        case let .ec2(_, .p384, x, y): return try checked("COSE P-384 key") { try P384.Signing.PublicKey(rawRepresentation: x + y).derRepresentation }
        case let .okp(_, _, x): return try Ed25519SubjectPublicKeyInfo.der(rawKey: x)
        case let .rsa(_, n, e): return try RSA.Signing.PublicKey(modulus: n, exponent: e).derRepresentation
        default: throw .unsupportedAlgorithm("COSE key")
        }
    }
}
