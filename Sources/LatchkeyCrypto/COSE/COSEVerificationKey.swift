import Foundation

/// A COSE key made ready to verify WebAuthn signatures: the platform's key object built once, straight from the COSE
/// coordinates — EC2 x‖y as CryptoKit's raw representation, OKP x as the Ed25519 key's 32 bytes, RSA n and e as the
/// key's modulus and exponent — with no DER on the way, on OpenSSL and on Apple's frameworks alike.
///
/// Building it checks what the key must be: kty, alg and crv agree (ES256 on P-256, ES384 on P-384, EdDSA on
/// Ed25519, RS256 or PS256 on RSA), coordinates have the curve's size, an EC point lies on its curve, an RSA
/// modulus has 2048–8192 bits and the exponent is odd and greater than 1. Keep one to verify many signatures by the
/// same key: the key object (and on OpenSSL its prepared verification context) is reused.
public struct COSEVerificationKey: Sendable {
    /// The COSE key this was built from.
    public let coseKey: COSEKey
    private let key: Storage

    fileprivate enum Storage {
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(RSA.Signing.PublicKey, RSA.Signing.Padding)
    }

    /// Builds the key: `unsupportedAlgorithm` for an algorithm, curve or key type that do not go together,
    /// `malformedInput` / `invalidParameter` / `invalidKeySize` for coordinates that do not make a key.
    public init(_ coseKey: COSEKey) throws(CryptoError) {
        self.coseKey = coseKey
        switch coseKey {
        case let .ec2(.es256, .p256, x, y):
            try Self.checkCoordinates(x, y, size: 32)
            key = .p256(try checked("COSE P-256 point") { try P256.Signing.PublicKey(rawRepresentation: x + y) })
        case let .ec2(.es384, .p384, x, y):
            try Self.checkCoordinates(x, y, size: 48)
            key = .p384(try checked("COSE P-384 point") { try P384.Signing.PublicKey(rawRepresentation: x + y) })
        case let .ec2(alg, crv, _, _):
            throw .unsupportedAlgorithm("COSE alg \(alg.rawValue) with curve \(crv.rawValue)")
        case let .okp(.edDSA, .ed25519, x):
            guard x.count == 32 else { throw .invalidKeySize(expected: 32, actual: x.count) }
            key = .ed25519(try checked("COSE Ed25519 key") { try Curve25519.Signing.PublicKey(rawRepresentation: x) })
        case let .okp(alg, crv, _):
            throw .unsupportedAlgorithm("COSE OKP alg \(alg.rawValue) with curve \(crv.rawValue)")
        case let .rsa(alg, n, e):
            let padding: RSA.Signing.Padding
            switch alg {
            case .rs256: padding = .pkcs1v15
            case .ps256: padding = .pss
            default: throw .unsupportedAlgorithm("COSE RSA alg \(alg.rawValue)")
            }
            key = .rsa(try RSA.Signing.PublicKey(modulus: n, exponent: e), padding)
        }
    }

    /// EC2 coordinates each exactly `size` bytes: x‖y alone has the right length for 31 + 33 bytes too.
    private static func checkCoordinates(_ x: Data, _ y: Data, size: Int) throws(CryptoError) {
        guard x.count == size else { throw .invalidKeySize(expected: size, actual: x.count) }
        guard y.count == size else { throw .invalidKeySize(expected: size, actual: y.count) }
    }

    /// The COSE algorithm the key verifies.
    public var algorithm: COSEAlgorithm { coseKey.algorithm }

    /// Verifies a WebAuthn signature: ECDSA signatures are ASN.1 DER (WebAuthn §6.5.6), EdDSA raw, RSA PKCS#1 v1.5
    /// (RS256) or PSS (PS256) over SHA-256.
    public func isValidSignature(_ signature: Data, for data: Data) -> Bool {
        switch key {
        case .p256(let key):
            guard let sig = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(sig, for: data)
        case .p384(let key):
            guard let sig = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(sig, for: data)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        case let .rsa(key, padding):
            return key.isValidSignature(signature, for: data, padding: padding, hash: .sha256)
        }
    }
}

// Sendable: as JWSVerificationKey's (JWSKeys.swift) — CryptoKit's keys are Sendable in Apple's SDK only from
// iOS 18.4 / macOS 15.4; the Linux build checks the conformance.
#if LATCHKEY_APPLE_FRAMEWORKS
extension COSEVerificationKey.Storage: @unchecked Sendable {}
#else
extension COSEVerificationKey.Storage: Sendable {}
#endif
