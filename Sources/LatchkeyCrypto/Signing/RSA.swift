import Foundation

/// RSA signatures (PKCS#1 v1.5 and PSS): Security's `SecKey` where Apple's frameworks are used, OpenSSL on Linux.
/// Verification accepts 2048–8192-bit keys; smaller keys are rejected.
public enum RSA {
    /// RSA signing and verification keys.
    public enum Signing {}
}

/// The hash of an RSA signature: SHA-2, or SHA-1 for legacy formats only (TPM `RS1` attestations, reached through
/// `isValidLegacySHA1Signature`).
enum RSASignatureHash: Sendable {
    case sha1, sha256, sha384, sha512

    init(_ algorithm: HashAlgorithm) {
        switch algorithm {
        case .sha256: self = .sha256
        case .sha384: self = .sha384
        case .sha512: self = .sha512
        }
    }
}

extension RSA.Signing {
    /// The smallest modulus accepted, in bits.
    public static let minimumKeySize = 2048
    /// The largest modulus accepted, in bits.
    public static let maximumKeySize = 8192

    /// The signature padding scheme.
    public enum Padding: Sendable, Hashable {
        /// RSASSA-PKCS1-v1_5 (JOSE RS256).
        case pkcs1v15
        /// RSASSA-PSS with MGF1 over the same hash and a salt as long as the hash (JOSE PS256).
        case pss
    }

    static func checkSize(bits: Int) throws(CryptoError) {
        guard bits >= minimumKeySize else { throw .invalidKeySize(expected: minimumKeySize / 8, actual: (bits + 7) / 8) }
        guard bits <= maximumKeySize else { throw .invalidKeySize(expected: maximumKeySize / 8, actual: (bits + 7) / 8) }
    }

    /// An RSA public key for signature verification.
    public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
        let key: RSABackendKey
        /// The modulus n, big-endian without leading zeros.
        public let modulus: Data
        /// The public exponent e, big-endian without leading zeros.
        public let exponent: Data
        /// SubjectPublicKeyInfo DER (rsaEncryption), written from the modulus and exponent.
        public var derRepresentation: Data {
            RSAKeyDER.spki(pkcs1: RSAKeyDER.pkcs1PublicKey(modulus: modulus, exponent: exponent))
        }

        init(key: RSABackendKey) throws(CryptoError) {
            try RSA.Signing.checkSize(bits: key.bits)
            self.key = key
            modulus = try key.modulus()
            exponent = try key.exponent()
        }

        /// A key from its modulus and exponent (big-endian, as in JWK `n` and `e`, COSE `n` and `e`), handed to the
        /// backend as they are: nothing is encoded as DER or read back from the key it makes (on Apple's frameworks
        /// `SecKeyCreateWithData` takes only the PKCS#1 form, so that is written).
        public init(modulus: Data, exponent: Data) throws(CryptoError) {
            let n = Data(modulus.drop { $0 == 0 })
            let e = Data(exponent.drop { $0 == 0 })
            guard let first = n.first else { throw .invalidKeySize(expected: RSA.Signing.minimumKeySize / 8, actual: 0) }
            try RSA.Signing.checkSize(bits: n.count * 8 - first.leadingZeroBitCount)
            guard (1...8).contains(e.count), let last = e.last, last & 1 == 1, e != Data([1]), n.last.map({ $0 & 1 == 1 }) == true
            else { throw .invalidParameter("RSA exponent or modulus") }
            key = try RSABackendKey(modulus: n, exponent: e)
            self.modulus = n
            self.exponent = e
        }

        /// A key from SubjectPublicKeyInfo or PKCS#1 `RSAPublicKey` DER.
        public init(derRepresentation: Data) throws(CryptoError) {
            try self.init(key: RSABackendKey(publicDER: Data(derRepresentation)))
        }

        /// A key from a PEM "PUBLIC KEY" or "RSA PUBLIC KEY" block.
        public init(pemRepresentation: String) throws(CryptoError) {
            let der: Data
            do throws(PEM.Failure) {
                der = try PEM.decode(pemRepresentation, labels: ["PUBLIC KEY", "RSA PUBLIC KEY"]).der
            } catch {
                throw error.cryptoError
            }
            try self.init(derRepresentation: der)
        }

        /// PEM "PUBLIC KEY".
        public var pemRepresentation: String { PEM.encode(label: "PUBLIC KEY", der: derRepresentation) }

        /// PKCS#1 `RSAPublicKey` DER (modulus and exponent; Security's external representation of RSA keys).
        public var pkcs1DERRepresentation: Data {
            get throws(CryptoError) { try key.pkcs1PublicKey() }
        }

        /// The modulus size in bits.
        public var keySizeInBits: Int { key.bits }

        /// True when `signature` is valid for `data` with this padding and hash.
        public func isValidSignature(_ signature: some DataProtocol, for data: some DataProtocol,
                                     padding: Padding, hash: HashAlgorithm) -> Bool {
            let sig = Data(signature)
            guard sig.count == modulus.count else { return false }
            return key.isValidSignature(sig, for: Data(data), padding: padding, hash: RSASignatureHash(hash))
        }

        /// True when `signature` is a PKCS#1 v1.5 signature over SHA-1 of `data` — TPM `RS1` attestation statements
        /// from older Windows Hello devices only; SHA-1 is not a `HashAlgorithm`, so no other path can ask for it.
        public func isValidLegacySHA1Signature(_ signature: Data, for data: Data) -> Bool {
            guard signature.count == modulus.count else { return false }
            return key.isValidSignature(signature, for: data, padding: .pkcs1v15, hash: .sha1)
        }

        public static func == (a: Self, b: Self) -> Bool { a.modulus == b.modulus && a.exponent == b.exponent }
        public func hash(into hasher: inout Hasher) { hasher.combine(modulus); hasher.combine(exponent) }
        public var description: String { "RSA.Signing.PublicKey(\(keySizeInBits) bits)" }
    }

    /// An RSA private key (for issuing RS256/PS256 tokens and for tests). Never printed.
    public struct PrivateKey: Sendable, CustomStringConvertible {
        let key: RSABackendKey
        /// The matching public key.
        public let publicKey: PublicKey

        /// A new random key of `keySize` bits (2048–8192; e = 65537).
        public init(keySize: Int = 2048) throws(CryptoError) {
            guard (RSA.Signing.minimumKeySize...RSA.Signing.maximumKeySize).contains(keySize), keySize % 8 == 0 else {
                throw .invalidKeySize(expected: RSA.Signing.minimumKeySize / 8, actual: keySize / 8)
            }
            try self.init(key: RSABackendKey.generate(bits: keySize))
        }

        /// A key from PKCS#8 `PrivateKeyInfo` or PKCS#1 `RSAPrivateKey` DER.
        public init(derRepresentation: Data) throws(CryptoError) {
            try self.init(key: RSABackendKey(privateDER: Data(derRepresentation)))
        }

        /// A key from a PEM "PRIVATE KEY" or "RSA PRIVATE KEY" block.
        public init(pemRepresentation: String) throws(CryptoError) {
            let der: Data
            do throws(PEM.Failure) {
                der = try PEM.decode(pemRepresentation, labels: ["PRIVATE KEY", "RSA PRIVATE KEY"]).der
            } catch {
                throw error.cryptoError
            }
            try self.init(derRepresentation: der)
        }

        init(key: RSABackendKey) throws(CryptoError) {
            self.key = key
            publicKey = try PublicKey(key: key.publicKey())
        }

        /// PKCS#8 `PrivateKeyInfo` DER. Treat the result as a secret.
        public var derRepresentation: Data {
            get throws(CryptoError) { try key.pkcs8() }
        }

        /// PEM "PRIVATE KEY". Treat the result as a secret.
        public var pemRepresentation: String {
            get throws(CryptoError) { PEM.encode(label: "PRIVATE KEY", der: try derRepresentation) }
        }

        /// A signature of `data` with this padding and hash.
        public func signature(for data: some DataProtocol, padding: Padding, hash: HashAlgorithm) throws(CryptoError) -> Data {
            try key.signature(for: Data(data), padding: padding, hash: RSASignatureHash(hash))
        }

        /// Names the type and size; no key material.
        public var description: String { "RSA.Signing.PrivateKey(\(publicKey.keySizeInBits) bits)" }
    }
}
