import Foundation

extension COSEKey {
    /// Verifies a WebAuthn signature: ECDSA signatures are ASN.1 DER (WebAuthn §6.5.6), EdDSA raw,
    /// RSA PKCS#1 v1.5 (RS256) or PSS (PS256) over SHA-256.
    public func isValidSignature(_ signature: Data, for data: Data) -> Bool {
        switch self {
        case let .ec2(.es256, .p256, x, y):
            guard let key = try? P256.Signing.PublicKey(rawRepresentation: x + y),
                  let sig = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(sig, for: data)
        case let .ec2(.es384, .p384, x, y):
            guard let key = try? P384.Signing.PublicKey(rawRepresentation: x + y),
                  let sig = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(sig, for: data)
        case let .okp(.edDSA, .ed25519, x):
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else { return false }
            return key.isValidSignature(signature, for: data)
        case let .rsa(alg, n, e) where alg == .rs256 || alg == .ps256:
            guard let key = try? RSA.Signing.PublicKey(modulus: n, exponent: e) else { return false }
            return key.isValidSignature(signature, for: data, padding: alg == .rs256 ? .pkcs1v15 : .pss, hash: .sha256)
        default:
            return false
        }
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
