import COpenSSL
import Foundation

/// Ed25519 (RFC 8032) signatures — CryptoKit's `Curve25519.Signing`, on OpenSSL.
public enum Ed25519 {
    /// Ed25519 signing and verification keys.
    public enum Signing {}
}

extension Ed25519.Signing {
    /// An Ed25519 private key (a 32-byte seed held inside OpenSSL; never printed).
    public final class PrivateKey: Sendable, CustomStringConvertible {
        let key: EVPKey
        /// The matching public key.
        public let publicKey: PublicKey

        /// A new random key.
        public convenience init() throws(CryptoError) {
            try self.init(key: EVPKey.generate(type: "ED25519") { _ in true })
        }

        /// A key from its 32-byte seed (RFC 8032 "secret key").
        public convenience init(rawRepresentation: Data) throws(CryptoError) {
            guard rawRepresentation.count == 32 else { throw .invalidKeySize(expected: 32, actual: rawRepresentation.count) }
            let pkey = Data(rawRepresentation).withUnsafeBytes {
                EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, bytePointer($0), $0.count)
            }
            guard let pkey else { ERR_clear_error(); throw .libraryFailure("EVP_PKEY_new_raw_private_key") }
            try self.init(key: EVPKey(taking: pkey))
        }

        /// A key from PKCS#8 `PrivateKeyInfo` DER (RFC 8410).
        public convenience init(derRepresentation: Data) throws(CryptoError) {
            let key = try DERKeys.privateKey(Data(derRepresentation))
            guard key.isA("ED25519") else { throw .unsupportedAlgorithm("not an Ed25519 key") }
            try self.init(key: key)
        }

        /// A key from a PEM "PRIVATE KEY" block.
        public convenience init(pemRepresentation: String) throws(CryptoError) {
            let (_, der) = try PEM.decode(pemRepresentation, labels: ["PRIVATE KEY"])
            try self.init(derRepresentation: der)
        }

        init(key: EVPKey) throws(CryptoError) {
            self.key = key
            self.publicKey = try PublicKey(key: DERKeys.publicOnly(key))
        }

        /// The 32-byte seed. Treat the result as a secret.
        public var rawRepresentation: Data {
            get throws(CryptoError) {
                var out = Data(count: 32)
                var length = 32
                let ok = out.withUnsafeMutableBytes {
                    EVP_PKEY_get_raw_private_key(key.pointer, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
                }
                guard ok == 1, length == 32 else { ERR_clear_error(); throw .libraryFailure("EVP_PKEY_get_raw_private_key") }
                return out
            }
        }

        /// PKCS#8 `PrivateKeyInfo` DER. Treat the result as a secret.
        public var derRepresentation: Data {
            get throws(CryptoError) { try DERKeys.pkcs8(of: key) }
        }

        /// PEM "PRIVATE KEY". Treat the result as a secret.
        public var pemRepresentation: String {
            get throws(CryptoError) { PEM.encode(label: "PRIVATE KEY", der: try derRepresentation) }
        }

        /// The 64-byte Ed25519 signature of `data` (deterministic).
        public func signature(for data: some DataProtocol) throws(CryptoError) -> Data {
            try EVPSignature.sign(key, md: nil, data: data)
        }

        /// Names the type and the public key; the seed is never printed.
        public var description: String { "Ed25519.Signing.PrivateKey(publicKey: \(publicKey.rawRepresentation.hexString))" }
    }

    /// An Ed25519 public key (32 bytes).
    public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
        let key: EVPKey
        /// The 32-byte encoded point.
        public let rawRepresentation: Data
        /// SubjectPublicKeyInfo DER (RFC 8410).
        public let derRepresentation: Data

        init(key: EVPKey) throws(CryptoError) {
            var raw = Data(count: 32)
            var length = 32
            let ok = raw.withUnsafeMutableBytes {
                EVP_PKEY_get_raw_public_key(key.pointer, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
            }
            guard ok == 1, length == 32 else { ERR_clear_error(); throw .libraryFailure("EVP_PKEY_get_raw_public_key") }
            self.key = key
            self.rawRepresentation = raw
            self.derRepresentation = try DERKeys.spki(of: key)
        }

        /// A key from its 32 bytes.
        public init(rawRepresentation: Data) throws(CryptoError) {
            guard rawRepresentation.count == 32 else { throw .invalidKeySize(expected: 32, actual: rawRepresentation.count) }
            let pkey = Data(rawRepresentation).withUnsafeBytes {
                EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, bytePointer($0), $0.count)
            }
            guard let pkey else { ERR_clear_error(); throw .malformedInput("Ed25519 public key") }
            try self.init(key: EVPKey(taking: pkey))
        }

        /// A key from SubjectPublicKeyInfo DER.
        public init(derRepresentation: Data) throws(CryptoError) {
            let key = try DERKeys.publicKey(spki: Data(derRepresentation))
            guard key.isA("ED25519") else { throw .unsupportedAlgorithm("not an Ed25519 key") }
            try self.init(key: key)
        }

        /// A key from a PEM "PUBLIC KEY" block.
        public init(pemRepresentation: String) throws(CryptoError) {
            let (_, der) = try PEM.decode(pemRepresentation, labels: ["PUBLIC KEY"])
            try self.init(derRepresentation: der)
        }

        /// PEM "PUBLIC KEY".
        public var pemRepresentation: String { PEM.encode(label: "PUBLIC KEY", der: derRepresentation) }

        /// True when `signature` (64 bytes) is a valid Ed25519 signature of `data`.
        public func isValidSignature(_ signature: some DataProtocol, for data: some DataProtocol) -> Bool {
            let sig = Data(signature)
            guard sig.count == 64 else { return false }
            return EVPSignature.verify(key, md: nil, signature: sig, data: data)
        }

        public static func == (a: Self, b: Self) -> Bool { a.rawRepresentation == b.rawRepresentation }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawRepresentation) }
        public var description: String { "Ed25519.Signing.PublicKey(\(rawRepresentation.hexString))" }
    }
}
