import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// A NIST curve namespace (`P256`, `P384`, `P521`) and the engine curve behind it.
protocol NISTCurve: Sendable {
    static var engine: ECCurve { get }
}

extension P256: NISTCurve { static var engine: ECCurve { .p256 } }
extension P384: NISTCurve { static var engine: ECCurve { .p384 } }
extension P521: NISTCurve { static var engine: ECCurve { .p521 } }

/// A NIST-curve private key on OpenSSL (shared by the `Signing` and `KeyAgreement` keys of every curve). The scalar
/// lives only inside OpenSSL and is never printed.
struct NISTPrivateKey<Curve: NISTCurve>: Sendable {
    let key: EVPKey
    let publicKey: NISTPublicKey<Curve>

    /// A new random key; with `compactRepresentable`, one whose public key has a compact representation.
    init(compactRepresentable: Bool) {
        for _ in 0..<64 {
            guard let key = try? Curve.engine.generate(), let made = try? Self(key: key) else { continue }
            if !compactRepresentable || made.publicKey.compactRepresentation != nil { self = made; return }
        }
        fatalError("OpenSSL could not generate a \(Curve.self) key (out of memory)")
    }

    init(key: EVPKey) throws(CryptoError) {
        self.key = key
        let pub = try DERKeys.publicOnly(key)
        publicKey = try NISTPublicKey(key: pub, x963: Curve.engine.x963(of: pub))
    }

    init(rawRepresentation bytes: some ContiguousBytes) throws {
        let scalar = bytes.withUnsafeBytes { Data($0) }
        try self.init(scalar: scalar)
    }

    private init(scalar: Data) throws {
        let key = try engine { () throws(CryptoError) in try Curve.engine.privateKey(scalar: scalar) }
        try self.init(checked: key)
    }

    private init(checked key: EVPKey) throws {
        self = try engine { () throws(CryptoError) in try Self(key: key) }
    }

    /// 04||x||y||d.
    init(x963Representation bytes: some ContiguousBytes) throws {
        let data = bytes.withUnsafeBytes { Data($0) }
        let size = Curve.engine.size
        guard data.count == 1 + 3 * size, data.first == 0x04 else { throw CryptoKitError.incorrectKeySize }
        try self.init(scalar: data.suffix(size))
        guard publicKey.x963Representation == data.prefix(1 + 2 * size) else { throw CryptoKitError.incorrectParameterSize }
    }

    /// PKCS#8 `PrivateKeyInfo` or SEC1 `ECPrivateKey` DER.
    init<Bytes: RandomAccessCollection>(derRepresentation bytes: Bytes) throws where Bytes.Element == UInt8 {
        let der = Data(bytes)
        let key = try engine { () throws(CryptoError) in
            let key = try DERKeys.privateKey(der)
            try Curve.engine.check(key)
            return key
        }
        try self.init(checked: key)
    }

    /// A PEM "PRIVATE KEY" or "EC PRIVATE KEY" block.
    init(pemRepresentation: String) throws {
        let der: Data
        do throws(PEM.Failure) {
            der = try PEM.decode(pemRepresentation, labels: ["PRIVATE KEY", "EC PRIVATE KEY"]).der
        } catch {
            throw CryptoKitASN1Error.invalidPEMDocument
        }
        try self.init(derRepresentation: der)
    }

    var rawRepresentation: Data { (try? Curve.engine.scalar(of: key)) ?? Data() }
    var x963Representation: Data { publicKey.x963Representation + rawRepresentation }
    var derRepresentation: Data { (try? DERKeys.pkcs8(of: key)) ?? Data() }
    var pemRepresentation: String { PEM.encode(label: "PRIVATE KEY", der: derRepresentation) }

    /// An ECDSA signature (raw r||s) of `message` hashed with the curve's hash.
    func signature(message: UnsafeRawBufferPointer) throws -> Data {
        try engine { () throws(CryptoError) in try Curve.engine.signature(key, message: message).raw }
    }

    /// An ECDSA signature (raw r||s) of a precomputed digest of the curve's hash size.
    func signature<D: Digest>(digest: D) throws -> Data {
        guard D.byteCount == Curve.engine.hash.byteCount else { throw CryptoKitError.incorrectParameterSize }
        return try digest.withUnsafeBytes { bytes in
            try engine { () throws(CryptoError) in try Curve.engine.signature(key, digest: bytes).raw }
        }
    }

    /// ECDH with `peer`.
    func sharedSecret(with peer: NISTPublicKey<Curve>) throws -> SharedSecret {
        SharedSecret(secret: try engine { () throws(CryptoError) in try Curve.engine.sharedSecret(key, peer: peer.key) })
    }
}

/// A NIST-curve public key on OpenSSL; its point was checked to lie on the curve.
struct NISTPublicKey<Curve: NISTCurve>: Sendable {
    let key: EVPKey
    /// 04||x||y.
    let x963Representation: Data

    init(key: EVPKey, x963: Data) {
        self.key = key
        x963Representation = x963
    }

    /// 04||x||y, checked on the curve.
    init(x963Representation bytes: some ContiguousBytes) throws {
        let point = bytes.withUnsafeBytes { Data($0) }
        let key = try engine { () throws(CryptoError) in try Curve.engine.publicKey(x963: point) }
        self.init(key: key, x963: point)
    }

    /// x||y.
    init(rawRepresentation bytes: some ContiguousBytes) throws {
        let raw = bytes.withUnsafeBytes { Data($0) }
        guard raw.count == 2 * Curve.engine.size else { throw CryptoKitError.incorrectKeySize }
        try self.init(x963Representation: Data([0x04]) + raw)
    }

    /// 02/03||x.
    init(compressedRepresentation bytes: some ContiguousBytes) throws {
        let compressed = bytes.withUnsafeBytes { Data($0) }
        let point = try engine { () throws(CryptoError) in try Curve.engine.decompress(compressed) }
        try self.init(x963Representation: point)
    }

    /// x alone (draft-jivsov-ecc-compact).
    init(compactRepresentation bytes: some ContiguousBytes) throws {
        let x = bytes.withUnsafeBytes { Data($0) }
        let point = try engine { () throws(CryptoError) in try Curve.engine.decompact(x) }
        try self.init(x963Representation: point)
    }

    /// SubjectPublicKeyInfo DER.
    init<Bytes: RandomAccessCollection>(derRepresentation bytes: Bytes) throws where Bytes.Element == UInt8 {
        let der = Data(bytes)
        let (key, point) = try engine { () throws(CryptoError) in
            let key = try DERKeys.publicKey(spki: der)
            try Curve.engine.check(key)
            return (key, try Curve.engine.x963(of: key))
        }
        self.init(key: key, x963: point)
    }

    /// A PEM "PUBLIC KEY" block.
    init(pemRepresentation: String) throws {
        let der: Data
        do throws(PEM.Failure) {
            der = try PEM.decode(pemRepresentation, labels: ["PUBLIC KEY"]).der
        } catch {
            throw CryptoKitASN1Error.invalidPEMDocument
        }
        try self.init(derRepresentation: der)
    }

    var rawRepresentation: Data { x963Representation.dropFirst() }
    var compressedRepresentation: Data { (try? Curve.engine.compressed(of: key)) ?? Data() }
    var compactRepresentation: Data? {
        Curve.engine.isCompactRepresentable(x963: x963Representation)
            ? Data(x963Representation.dropFirst().prefix(Curve.engine.size)) : nil
    }
    var derRepresentation: Data { (try? DERKeys.spki(of: key)) ?? Data() }
    var pemRepresentation: String { PEM.encode(label: "PUBLIC KEY", der: derRepresentation) }

    /// True when `raw` (r||s) is a valid ECDSA signature of `message` hashed with the curve's hash.
    func isValidSignature(raw: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> Bool {
        Curve.engine.isValid(key, rawSignature: raw, message: message)
    }

    /// True when `raw` (r||s) is a valid ECDSA signature of a precomputed digest (of the curve's hash size).
    func isValidSignature<D: Digest>(raw: UnsafeRawBufferPointer, digest: D) -> Bool {
        guard D.byteCount == Curve.engine.hash.byteCount else { return false }
        return withUnsafeTemporaryAllocation(byteCount: ECCurve.derSignatureCapacity, alignment: 8) { buffer in
            guard let length = Curve.engine.derSignature(raw: raw, into: buffer), let md = Curve.engine.hash.evpMD else {
                return false
            }
            return digest.withUnsafeBytes { bytes in
                EVPSignature.verifyDigest(key, md: md, signature: UnsafeRawBufferPointer(rebasing: buffer[0..<length]),
                                          digest: bytes)
            }
        }
    }
}

/// The raw r||s bytes of an ECDSA signature on `Curve`, checked for length.
enum NISTSignatureBytes<Curve: NISTCurve> {
    static func raw(_ bytes: some DataProtocol) throws -> Data {
        guard bytes.count == 2 * Curve.engine.size else { throw CryptoKitError.incorrectParameterSize }
        return Data(bytes)
    }

    static func raw(der bytes: some DataProtocol) throws -> Data {
        let der = Data(bytes)
        return try engine { () throws(CryptoError) in try Curve.engine.rawSignature(der: der) }
    }

    static func der(_ raw: Data) -> Data { (try? Curve.engine.derSignature(raw: raw)) ?? Data() }
}
