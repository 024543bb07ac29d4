import Foundation

/// The NIST P-256 curve (secp256r1) with ECDSA over SHA-256 — CryptoKit's `P256`, on OpenSSL.
public enum P256 {
    /// ECDSA signing and verification keys.
    public enum Signing {}
}

extension P256.Signing {
    /// A P-256 private key. Its scalar lives only inside OpenSSL and is never printed.
    public final class PrivateKey: Sendable, CustomStringConvertible {
        let key: EVPKey
        /// The matching public key.
        public let publicKey: PublicKey

        /// A new random key.
        public convenience init() throws(CryptoError) {
            try self.init(key: ECCurve.p256.generate())
        }

        /// A key from its 32-byte big-endian scalar.
        public convenience init(rawRepresentation: Data) throws(CryptoError) {
            try self.init(key: ECCurve.p256.privateKey(scalar: rawRepresentation))
        }

        /// A key from PKCS#8 `PrivateKeyInfo` DER (SEC1 `ECPrivateKey` is accepted too).
        public convenience init(derRepresentation: Data) throws(CryptoError) {
            let key = try DERKeys.privateKey(derRepresentation)
            try ECCurve.p256.check(key)
            try self.init(key: key)
        }

        /// A key from a PEM "PRIVATE KEY" (or "EC PRIVATE KEY") block.
        public convenience init(pemRepresentation: String) throws(CryptoError) {
            let (_, der) = try PEM.decode(pemRepresentation, labels: ["PRIVATE KEY", "EC PRIVATE KEY"])
            try self.init(derRepresentation: der)
        }

        init(key: EVPKey) throws(CryptoError) {
            self.key = key
            let pub = try DERKeys.publicOnly(key)
            self.publicKey = try PublicKey(key: pub, x963: ECCurve.p256.x963(of: pub))
        }

        /// The 32-byte big-endian scalar. Treat the result as a secret.
        public var rawRepresentation: Data {
            get throws(CryptoError) { try ECCurve.p256.scalar(of: key) }
        }

        /// PKCS#8 `PrivateKeyInfo` DER. Treat the result as a secret.
        public var derRepresentation: Data {
            get throws(CryptoError) { try DERKeys.pkcs8(of: key) }
        }

        /// PEM "PRIVATE KEY" (PKCS#8). Treat the result as a secret.
        public var pemRepresentation: String {
            get throws(CryptoError) { PEM.encode(label: "PRIVATE KEY", der: try derRepresentation) }
        }

        /// An ECDSA signature over SHA-256 of `data` (randomized by OpenSSL).
        public func signature(for data: some DataProtocol) throws(CryptoError) -> ECDSASignature {
            let der = try EVPSignature.sign(key, md: ECCurve.p256.hash.evpMD, data: data)
            return try ECDSASignature(derRepresentation: der)
        }

        /// Names the type and the public key; the private scalar is never printed.
        public var description: String { "P256.Signing.PrivateKey(publicKey: \(publicKey.x963Representation.hexString))" }
    }

    /// A P-256 public key. Equal keys have equal points.
    public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
        let key: EVPKey
        /// SubjectPublicKeyInfo DER.
        public let derRepresentation: Data
        /// The uncompressed point 04||x||y (65 bytes).
        public let x963Representation: Data

        init(key: EVPKey, x963: Data) throws(CryptoError) {
            self.key = key
            self.x963Representation = x963
            self.derRepresentation = try DERKeys.spki(of: key)
        }

        /// A key from x||y (64 bytes).
        public init(rawRepresentation: Data) throws(CryptoError) {
            guard rawRepresentation.count == 64 else { throw .invalidKeySize(expected: 64, actual: rawRepresentation.count) }
            try self.init(x963Representation: Data([0x04]) + rawRepresentation)
        }

        /// A key from the uncompressed point 04||x||y (65 bytes); the point must be on the curve.
        public init(x963Representation: Data) throws(CryptoError) {
            let x963 = Data(x963Representation)
            try self.init(key: ECCurve.p256.publicKey(x963: x963), x963: x963)
        }

        /// A key from the compressed point 02/03||x (33 bytes).
        public init(compressedRepresentation: Data) throws(CryptoError) {
            try self.init(x963Representation: ECCurve.p256.decompress(Data(compressedRepresentation)))
        }

        /// A key from SubjectPublicKeyInfo DER.
        public init(derRepresentation: Data) throws(CryptoError) {
            let key = try DERKeys.publicKey(spki: Data(derRepresentation))
            try ECCurve.p256.check(key)
            try self.init(key: key, x963: ECCurve.p256.x963(of: key))
        }

        /// A key from a PEM "PUBLIC KEY" block.
        public init(pemRepresentation: String) throws(CryptoError) {
            let (_, der) = try PEM.decode(pemRepresentation, labels: ["PUBLIC KEY"])
            try self.init(derRepresentation: der)
        }

        /// x||y (64 bytes).
        public var rawRepresentation: Data { x963Representation.dropFirst() }

        /// PEM "PUBLIC KEY".
        public var pemRepresentation: String { PEM.encode(label: "PUBLIC KEY", der: derRepresentation) }

        /// True when `signature` is a valid ECDSA/SHA-256 signature of `data` under this key.
        public func isValidSignature(_ signature: ECDSASignature, for data: some DataProtocol) -> Bool {
            EVPSignature.verify(key, md: ECCurve.p256.hash.evpMD, signature: signature.derRepresentation, data: data)
        }

        public static func == (a: Self, b: Self) -> Bool { a.x963Representation == b.x963Representation }
        public func hash(into hasher: inout Hasher) { hasher.combine(x963Representation) }
        public var description: String { "P256.Signing.PublicKey(\(x963Representation.hexString))" }
    }

    /// An ECDSA P-256 signature, held both as raw r||s (JOSE, WebAuthn COSE) and as DER (X.509, OpenSSL).
    public struct ECDSASignature: Sendable, Hashable {
        /// r||s, 32 bytes each.
        public let rawRepresentation: Data
        /// DER `ECDSA-Sig-Value`.
        public let derRepresentation: Data

        /// A signature from r||s (exactly 64 bytes).
        public init(rawRepresentation: Data) throws(CryptoError) {
            let raw = Data(rawRepresentation)
            self.derRepresentation = try ECCurve.p256.derSignature(raw: raw)
            self.rawRepresentation = raw
        }

        /// A signature from strict DER.
        public init(derRepresentation: Data) throws(CryptoError) {
            let der = Data(derRepresentation)
            self.rawRepresentation = try ECCurve.p256.rawSignature(der: der)
            self.derRepresentation = der
        }

        public static func == (a: Self, b: Self) -> Bool { a.rawRepresentation == b.rawRepresentation }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawRepresentation) }
    }
}
