import COpenSSL
import Foundation

/// RSA signatures (PKCS#1 v1.5 and PSS). Verification accepts 2048–8192-bit keys; smaller keys are rejected.
public enum RSA {
    /// RSA signing and verification keys.
    public enum Signing {}
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

    static func checkSize(_ key: EVPKey) throws(CryptoError) {
        guard key.isA("RSA") else { throw .unsupportedAlgorithm("not an RSA key") }
        let bits = key.bits
        guard bits >= minimumKeySize else { throw .invalidKeySize(expected: minimumKeySize / 8, actual: (bits + 7) / 8) }
        guard bits <= maximumKeySize else { throw .invalidKeySize(expected: maximumKeySize / 8, actual: (bits + 7) / 8) }
    }

    /// Sets padding, salt length and MGF1 digest on a sign/verify context.
    static func configure(_ pctx: OpaquePointer, padding: Padding, hash: HashAlgorithm) -> Bool {
        switch padding {
        case .pkcs1v15:
            return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) == 1
        case .pss:
            return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, hash.evpMD) == 1
        }
    }

    /// An RSA public key for signature verification.
    public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
        let key: EVPKey
        /// The modulus n, big-endian without leading zeros.
        public let modulus: Data
        /// The public exponent e, big-endian without leading zeros.
        public let exponent: Data
        /// SubjectPublicKeyInfo DER.
        public let derRepresentation: Data

        init(key: EVPKey) throws(CryptoError) {
            try RSA.Signing.checkSize(key)
            self.key = key
            self.modulus = try key.bigNumber("n")
            self.exponent = try key.bigNumber("e")
            self.derRepresentation = try DERKeys.spki(of: key)
        }

        /// A key from its modulus and exponent (big-endian, as in JWK `n` and `e`).
        public init(modulus: Data, exponent: Data) throws(CryptoError) {
            let n = Data(modulus.drop { $0 == 0 })
            let e = Data(exponent.drop { $0 == 0 })
            guard n.count * 8 >= RSA.Signing.minimumKeySize - 7 else {
                throw .invalidKeySize(expected: RSA.Signing.minimumKeySize / 8, actual: n.count)
            }
            guard n.count * 8 <= RSA.Signing.maximumKeySize else {
                throw .invalidKeySize(expected: RSA.Signing.maximumKeySize / 8, actual: n.count)
            }
            guard (1...8).contains(e.count), let last = e.last, last & 1 == 1, e != Data([1]), n.last.map({ $0 & 1 == 1 }) == true
            else { throw .invalidParameter("RSA exponent or modulus") }
            let bn = try BIGNUMBox(n), be = try BIGNUMBox(e)
            let key = try EVPKey.fromData(type: "RSA", selection: EVPKey.selectPublic) { bld in
                bld.bigNumber("n", bn) && bld.bigNumber("e", be)
            }
            try self.init(key: key)
        }

        /// A key from SubjectPublicKeyInfo or PKCS#1 `RSAPublicKey` DER.
        public init(derRepresentation: Data) throws(CryptoError) {
            let der = Data(derRepresentation)
            let key: EVPKey
            do { key = try DERKeys.publicKey(spki: der) } catch { key = try DERKeys.rsaPublicKey(pkcs1: der) }
            try self.init(key: key)
        }

        /// A key from a PEM "PUBLIC KEY" or "RSA PUBLIC KEY" block.
        public init(pemRepresentation: String) throws(CryptoError) {
            let (label, der) = try PEM.decode(pemRepresentation, labels: ["PUBLIC KEY", "RSA PUBLIC KEY"])
            switch label {
            case "PUBLIC KEY": try self.init(key: DERKeys.publicKey(spki: der))
            case "RSA PUBLIC KEY": try self.init(key: DERKeys.rsaPublicKey(pkcs1: der))
            default: throw .malformedInput("PEM label \(label)")
            }
        }

        /// PEM "PUBLIC KEY".
        public var pemRepresentation: String { PEM.encode(label: "PUBLIC KEY", der: derRepresentation) }

        /// PKCS#1 `RSAPublicKey` DER (modulus and exponent; Security's external representation of RSA keys).
        public var pkcs1DERRepresentation: Data {
            get throws(CryptoError) { try DERKeys.rsaPKCS1(of: key) }
        }

        /// The modulus size in bits.
        public var keySizeInBits: Int { key.bits }

        /// True when `signature` is valid for `data` with this padding and hash.
        public func isValidSignature(_ signature: some DataProtocol, for data: some DataProtocol,
                                     padding: Padding, hash: HashAlgorithm) -> Bool {
            let sig = Data(signature)
            guard sig.count == modulus.count else { return false }
            return EVPSignature.verify(key, md: hash.evpMD, signature: sig, data: data) {
                RSA.Signing.configure($0, padding: padding, hash: hash)
            }
        }

        public static func == (a: Self, b: Self) -> Bool { a.modulus == b.modulus && a.exponent == b.exponent }
        public func hash(into hasher: inout Hasher) { hasher.combine(modulus); hasher.combine(exponent) }
        public var description: String { "RSA.Signing.PublicKey(\(keySizeInBits) bits)" }
    }

    /// An RSA private key (for issuing RS256/PS256 tokens and for tests). Never printed.
    public final class PrivateKey: Sendable, CustomStringConvertible {
        let key: EVPKey
        /// The matching public key.
        public let publicKey: PublicKey

        /// A new random key of `keySize` bits (2048–8192; e = 65537).
        public convenience init(keySize: Int = 2048) throws(CryptoError) {
            guard (RSA.Signing.minimumKeySize...RSA.Signing.maximumKeySize).contains(keySize), keySize % 8 == 0 else {
                throw .invalidKeySize(expected: RSA.Signing.minimumKeySize / 8, actual: keySize / 8)
            }
            try self.init(key: EVPKey.generate(type: "RSA") { EVP_PKEY_CTX_set_rsa_keygen_bits($0, Int32(keySize)) == 1 })
        }

        /// A key from PKCS#8 `PrivateKeyInfo` or PKCS#1 `RSAPrivateKey` DER.
        public convenience init(derRepresentation: Data) throws(CryptoError) {
            try self.init(key: DERKeys.privateKey(Data(derRepresentation)))
        }

        /// A key from a PEM "PRIVATE KEY" or "RSA PRIVATE KEY" block.
        public convenience init(pemRepresentation: String) throws(CryptoError) {
            let (_, der) = try PEM.decode(pemRepresentation, labels: ["PRIVATE KEY", "RSA PRIVATE KEY"])
            try self.init(derRepresentation: der)
        }

        init(key: EVPKey) throws(CryptoError) {
            self.key = key
            self.publicKey = try PublicKey(key: DERKeys.publicOnly(key))
        }

        /// PKCS#8 `PrivateKeyInfo` DER. Treat the result as a secret.
        public var derRepresentation: Data {
            get throws(CryptoError) { try DERKeys.pkcs8(of: key) }
        }

        /// PEM "PRIVATE KEY". Treat the result as a secret.
        public var pemRepresentation: String {
            get throws(CryptoError) { PEM.encode(label: "PRIVATE KEY", der: try derRepresentation) }
        }

        /// A signature of `data` with this padding and hash.
        public func signature(for data: some DataProtocol, padding: Padding, hash: HashAlgorithm) throws(CryptoError) -> Data {
            try EVPSignature.sign(key, md: hash.evpMD, data: data) { RSA.Signing.configure($0, padding: padding, hash: hash) }
        }

        /// Names the type and size; no key material.
        public var description: String { "RSA.Signing.PrivateKey(\(publicKey.keySizeInBits) bits)" }
    }
}
