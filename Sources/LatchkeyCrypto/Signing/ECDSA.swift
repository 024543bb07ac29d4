import Foundation

/// A NIST prime curve for ECDSA: the type parameter of `ECDSA.PrivateKey`, `PublicKey` and `Signature`.
/// `P256` and `P384` are the curves; their parameters are LatchkeyCrypto's own.
public protocol ECDSACurve: Sendable {
    /// OpenSSL's description of the curve and its hash.
    static var parameters: ECDSACurveParameters { get }
    /// "P256" or "P384", for descriptions.
    static var typeName: String { get }
}

/// The curve details behind an `ECDSACurve` (opaque outside LatchkeyCrypto).
public struct ECDSACurveParameters: Sendable {
    let curve: ECCurve
}

/// ECDSA keys and signatures on OpenSSL, generic over the curve. Use them through CryptoKit's names:
/// `P256.Signing.PrivateKey`, `P384.Signing.PublicKey`, `P256.Signing.ECDSASignature`.
public enum ECDSA {}

extension ECDSA {
    /// An ECDSA private key on `Curve`. Its scalar lives only inside OpenSSL and is never printed.
    public final class PrivateKey<Curve: ECDSACurve>: Sendable, CustomStringConvertible {
        let key: EVPKey
        /// The matching public key.
        public let publicKey: PublicKey<Curve>

        /// A new random key.
        public convenience init() throws(CryptoError) {
            try self.init(key: Curve.parameters.curve.generate())
        }

        /// A key from its big-endian scalar (32 bytes on P-256, 48 on P-384).
        public convenience init(rawRepresentation: Data) throws(CryptoError) {
            try self.init(key: Curve.parameters.curve.privateKey(scalar: rawRepresentation))
        }

        /// A key from PKCS#8 `PrivateKeyInfo` DER (SEC1 `ECPrivateKey` is accepted too).
        public convenience init(derRepresentation: Data) throws(CryptoError) {
            let key = try DERKeys.privateKey(derRepresentation)
            try Curve.parameters.curve.check(key)
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
            self.publicKey = try PublicKey<Curve>(key: pub, x963: Curve.parameters.curve.x963(of: pub))
        }

        /// The big-endian scalar. Treat the result as a secret.
        public var rawRepresentation: Data {
            get throws(CryptoError) { try Curve.parameters.curve.scalar(of: key) }
        }

        /// PKCS#8 `PrivateKeyInfo` DER. Treat the result as a secret.
        public var derRepresentation: Data {
            get throws(CryptoError) { try DERKeys.pkcs8(of: key) }
        }

        /// PEM "PRIVATE KEY" (PKCS#8). Treat the result as a secret.
        public var pemRepresentation: String {
            get throws(CryptoError) { PEM.encode(label: "PRIVATE KEY", der: try derRepresentation) }
        }

        /// An ECDSA signature over the curve's hash (SHA-256 on P-256, SHA-384 on P-384) of `data`,
        /// randomized by OpenSSL.
        public func signature(for data: some DataProtocol) throws(CryptoError) -> Signature<Curve> {
            // One EVP_Digest, then EVP_PKEY_sign on this key's prepared context (ECDSA+Digest.swift).
            try ContiguousInput.with(data) { (message) throws(CryptoError) in
                try Curve.parameters.curve.signature(key, message: message)
            }
        }

        /// Names the type and the public key; the private scalar is never printed.
        public var description: String { "\(Curve.typeName).Signing.PrivateKey(publicKey: \(publicKey.x963Representation.hexString))" }
    }

    /// An ECDSA public key on `Curve`. Equal keys have equal points.
    public struct PublicKey<Curve: ECDSACurve>: Sendable, Hashable, CustomStringConvertible {
        let key: EVPKey
        /// SubjectPublicKeyInfo DER.
        public let derRepresentation: Data
        /// The uncompressed point 04||x||y (65 bytes on P-256, 97 on P-384).
        public let x963Representation: Data

        init(key: EVPKey, x963: Data) throws(CryptoError) {
            self.key = key
            self.x963Representation = x963
            self.derRepresentation = try DERKeys.spki(of: key)
        }

        /// A key from x||y (64 bytes on P-256, 96 on P-384).
        public init(rawRepresentation: Data) throws(CryptoError) {
            let size = 2 * Curve.parameters.curve.size
            guard rawRepresentation.count == size else { throw .invalidKeySize(expected: size, actual: rawRepresentation.count) }
            try self.init(x963Representation: Data([0x04]) + rawRepresentation)
        }

        /// A key from the uncompressed point 04||x||y; the point must be on the curve.
        public init(x963Representation: Data) throws(CryptoError) {
            let x963 = Data(x963Representation)
            try self.init(key: Curve.parameters.curve.publicKey(x963: x963), x963: x963)
        }

        /// A key from the compressed point 02/03||x.
        public init(compressedRepresentation: Data) throws(CryptoError) {
            try self.init(x963Representation: Curve.parameters.curve.decompress(Data(compressedRepresentation)))
        }

        /// A key from SubjectPublicKeyInfo DER.
        public init(derRepresentation: Data) throws(CryptoError) {
            let key = try DERKeys.publicKey(spki: Data(derRepresentation))
            try Curve.parameters.curve.check(key)
            try self.init(key: key, x963: Curve.parameters.curve.x963(of: key))
        }

        /// A key from a PEM "PUBLIC KEY" block.
        public init(pemRepresentation: String) throws(CryptoError) {
            let (_, der) = try PEM.decode(pemRepresentation, labels: ["PUBLIC KEY"])
            try self.init(derRepresentation: der)
        }

        /// x||y.
        public var rawRepresentation: Data { x963Representation.dropFirst() }

        /// PEM "PUBLIC KEY".
        public var pemRepresentation: String { PEM.encode(label: "PUBLIC KEY", der: derRepresentation) }

        /// True when `signature` is a valid ECDSA signature of `data` under this key.
        public func isValidSignature(_ signature: Signature<Curve>, for data: some DataProtocol) -> Bool {
            // One EVP_Digest, then EVP_PKEY_verify on this key's prepared context (ECDSA+Digest.swift).
            ContiguousInput.with(data) { message in
                signature.derRepresentation.withUnsafeBytes { der in
                    Curve.parameters.curve.isValid(key, derSignature: der, message: message)
                }
            }
        }

        /// True when the raw r||s `signature` (JOSE) is valid for `message`, with no `Signature` value made.
        func isValidSignature(raw signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> Bool {
            Curve.parameters.curve.isValid(key, rawSignature: signature, message: message)
        }

        public static func == (a: Self, b: Self) -> Bool { a.x963Representation == b.x963Representation }
        public func hash(into hasher: inout Hasher) { hasher.combine(x963Representation) }
        public var description: String { "\(Curve.typeName).Signing.PublicKey(\(x963Representation.hexString))" }
    }

    /// An ECDSA signature on `Curve`, held both as raw r||s (JOSE, WebAuthn COSE) and as DER (X.509, OpenSSL).
    public struct Signature<Curve: ECDSACurve>: Sendable, Hashable {
        /// r||s, each the curve's coordinate size.
        public let rawRepresentation: Data
        /// DER `ECDSA-Sig-Value`.
        public let derRepresentation: Data

        /// A signature from r||s (exactly twice the coordinate size).
        public init(rawRepresentation: Data) throws(CryptoError) {
            let raw = Data(rawRepresentation)
            self.derRepresentation = try Curve.parameters.curve.derSignature(raw: raw)
            self.rawRepresentation = raw
        }

        /// A signature from strict DER.
        public init(derRepresentation: Data) throws(CryptoError) {
            let der = Data(derRepresentation)
            self.rawRepresentation = try Curve.parameters.curve.rawSignature(der: der)
            self.derRepresentation = der
        }

        /// Both forms of a signature OpenSSL just made (nothing to check).
        init(raw: Data, der: Data) {
            self.rawRepresentation = raw
            self.derRepresentation = der
        }

        public static func == (a: Self, b: Self) -> Bool { a.rawRepresentation == b.rawRepresentation }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawRepresentation) }
    }
}
