import Foundation

/// A public key a JWS can be verified with. Two keys are equal when they are the same type and encoding.
public enum JWSVerificationKey: Hashable {
    case p256(P256.Signing.PublicKey)
    case p384(P384.Signing.PublicKey)
    case rsa(RSA.Signing.PublicKey)
    case ed25519(Curve25519.Signing.PublicKey)

    /// The key's type and bytes (CryptoKit's keys are not `Hashable` themselves).
    private var identity: (String, Data) {
        switch self {
        case let .p256(key): ("P-256", key.x963Representation)
        case let .p384(key): ("P-384", key.x963Representation)
        case let .rsa(key): ("RSA", key.derRepresentation)
        case let .ed25519(key): ("Ed25519", key.rawRepresentation)
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.identity == rhs.identity }

    public func hash(into hasher: inout Hasher) {
        let (type, bytes) = identity
        hasher.combine(type)
        hasher.combine(bytes)
    }

    /// True when `algorithm` is one this key's type can verify (no algorithm confusion).
    public func supports(_ algorithm: JWSAlgorithm) -> Bool {
        switch (self, algorithm) {
        case (.p256, .ES256), (.p384, .ES384), (.rsa, .RS256), (.rsa, .PS256), (.ed25519, .EdDSA): true
        default: false
        }
    }

    /// True when `signature` over `signingInput` is valid for `algorithm` under this key.
    func isValid(signature: Data, signingInput: Data, algorithm: JWSAlgorithm) -> Bool {
        switch (self, algorithm) {
        // ECDSA: JOSE signatures are the raw r||s (RFC 7518 §3.4).
        case let (.p256(key), .ES256):
            guard let sig = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(sig, for: signingInput)
        case let (.p384(key), .ES384):
            guard let sig = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(sig, for: signingInput)
        case let (.rsa(key), .RS256):
            return key.isValidSignature(signature, for: signingInput, padding: .pkcs1v15, hash: .sha256)
        case let (.rsa(key), .PS256):
            return key.isValidSignature(signature, for: signingInput, padding: .pss, hash: .sha256)
        case let (.ed25519(key), .EdDSA):
            return key.isValidSignature(signature, for: signingInput)
        default:
            return false
        }
    }

    var typeName: String {
        switch self {
        case .p256: "P-256"
        case .p384: "P-384"
        case .rsa: "RSA"
        case .ed25519: "Ed25519"
        }
    }
}

/// A private key a JWS can be signed with.
public enum JWSSigningKey {
    case p256(P256.Signing.PrivateKey)
    case p384(P384.Signing.PrivateKey)
    case ed25519(Curve25519.Signing.PrivateKey)
    case rsa(RSA.Signing.PrivateKey)

    /// The algorithm this key signs with by default (RS256 for RSA).
    public var defaultAlgorithm: JWSAlgorithm {
        switch self {
        case .p256: .ES256
        case .p384: .ES384
        case .ed25519: .EdDSA
        case .rsa: .RS256
        }
    }

    /// The matching verification key.
    public var verificationKey: JWSVerificationKey {
        switch self {
        case let .p256(key): .p256(key.publicKey)
        case let .p384(key): .p384(key.publicKey)
        case let .ed25519(key): .ed25519(key.publicKey)
        case let .rsa(key): .rsa(key.publicKey)
        }
    }

    /// The JWS signature (raw r||s for ECDSA) of `signingInput`.
    func sign(_ signingInput: Data, algorithm: JWSAlgorithm) throws(CryptoError) -> Data {
        switch (self, algorithm) {
        case let (.p256(key), .ES256): try checked("ES256 signature") { try key.signature(for: signingInput).rawRepresentation }
        case let (.p384(key), .ES384): try checked("ES384 signature") { try key.signature(for: signingInput).rawRepresentation }
        case let (.ed25519(key), .EdDSA): try checked("EdDSA signature") { try key.signature(for: signingInput) }
        case let (.rsa(key), .RS256): try key.signature(for: signingInput, padding: .pkcs1v15, hash: .sha256)
        case let (.rsa(key), .PS256): try key.signature(for: signingInput, padding: .pss, hash: .sha256)
        default: throw .unsupportedAlgorithm("\(algorithm.rawValue) with a \(verificationKey.typeName) key")
        }
    }
}

// Sendable: CryptoKit's keys are Sendable in Apple's SDK only from iOS 18.4 / macOS 15.4 (Xcode 16.3); the oldest SDK
// the package admits (Xcode 16.0) declares them without it. They are immutable values (the later SDKs added the
// annotation, not a change), so with Apple's frameworks the conformance is unchecked; the Linux build, whose CryptoKit
// declares the keys Sendable, checks it.
#if LATCHKEY_APPLE_FRAMEWORKS
extension JWSVerificationKey: @unchecked Sendable {}
extension JWSSigningKey: @unchecked Sendable {}
#else
extension JWSVerificationKey: Sendable {}
extension JWSSigningKey: Sendable {}
#endif
