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
        guard scalar.count == Curve.engine.size else { throw CryptoKitError.incorrectParameterSize }
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
        // CryptoKit's errors: a wrong length is a parameter size, a wrong leading byte a key size.
        guard data.count == 1 + 3 * size else { throw CryptoKitError.incorrectParameterSize }
        guard data.first == 0x04 else { throw CryptoKitError.incorrectKeySize }
        try self.init(scalar: data.suffix(size))
        guard publicKey.x963Representation == data.prefix(1 + 2 * size) else { throw CryptoKitError.incorrectParameterSize }
    }

    /// PKCS#8 `PrivateKeyInfo` or SEC1 `ECPrivateKey` DER.
    init<Bytes: RandomAccessCollection>(derRepresentation bytes: Bytes) throws where Bytes.Element == UInt8 {
        let der = Data(bytes)
        // A SubjectPublicKeyInfo (or anything else not starting SEQUENCE { INTEGER ...) is the wrong kind of field.
        try NISTDER.expect(der, firstInnerTag: NISTDER.integerTag)
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
    var pemRepresentation: String { NISTDER.pem(label: "PRIVATE KEY", der: derRepresentation) }

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
        // CryptoKit's errors: a wrong length is a parameter size, a wrong leading byte a key size.
        guard point.count == 1 + 2 * Curve.engine.size else { throw CryptoKitError.incorrectParameterSize }
        guard point.first == 0x04 else { throw CryptoKitError.incorrectKeySize }
        let key = try engine { () throws(CryptoError) in try Curve.engine.publicKey(x963: point) }
        self.init(key: key, x963: point)
    }

    /// x||y.
    init(rawRepresentation bytes: some ContiguousBytes) throws {
        let raw = bytes.withUnsafeBytes { Data($0) }
        guard raw.count == 2 * Curve.engine.size else { throw CryptoKitError.incorrectParameterSize }
        try self.init(x963Representation: Data([0x04]) + raw)
    }

    /// 02/03||x.
    init(compressedRepresentation bytes: some ContiguousBytes) throws {
        let compressed = bytes.withUnsafeBytes { Data($0) }
        guard compressed.count == 1 + Curve.engine.size else { throw CryptoKitError.incorrectParameterSize }
        guard compressed.first == 0x02 || compressed.first == 0x03 else { throw CryptoKitError.incorrectKeySize }
        let point = try engine { () throws(CryptoError) in try Curve.engine.decompress(compressed) }
        try self.init(x963Representation: point)
    }

    /// x alone (draft-jivsov-ecc-compact).
    init(compactRepresentation bytes: some ContiguousBytes) throws {
        let x = bytes.withUnsafeBytes { Data($0) }
        guard x.count == Curve.engine.size else { throw CryptoKitError.incorrectParameterSize }
        let point = try engine { () throws(CryptoError) in try Curve.engine.decompact(x) }
        try self.init(x963Representation: point)
    }

    /// SubjectPublicKeyInfo DER.
    init<Bytes: RandomAccessCollection>(derRepresentation bytes: Bytes) throws where Bytes.Element == UInt8 {
        let der = Data(bytes)
        // A private key (SEQUENCE { INTEGER ...) is the wrong kind of field for a SubjectPublicKeyInfo.
        try NISTDER.expect(der, firstInnerTag: NISTDER.sequenceTag)
        let key = try engine { () throws(CryptoError) in try DERKeys.publicKey(spki: der) }
        guard key.isA("EC") else { throw CryptoKitASN1Error.invalidObjectIdentifier }
        // Explicit curve parameters where RFC 5480 requires the curve's OID: the wrong field type.
        guard Curve.engine.hasNamedCurveEncoding(key) else { throw CryptoKitASN1Error.unexpectedFieldType }
        // A key on another curve: CryptoKit reports the size of its point.
        guard (try? Curve.engine.check(key)) != nil else { throw CryptoKitError.incorrectParameterSize }
        let point = try engine { () throws(CryptoError) in try Curve.engine.x963(of: key) }
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
    var pemRepresentation: String { NISTDER.pem(label: "PUBLIC KEY", der: derRepresentation) }

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
    static func raw(_ bytes: Data) throws -> Data {
        guard bytes.count == 2 * Curve.engine.size else { throw CryptoKitError.incorrectParameterSize }
        return bytes
    }

    static func raw(der bytes: some DataProtocol) throws -> Data {
        let der = Data(bytes)
        return try engine { () throws(CryptoError) in try Curve.engine.rawSignature(der: der) }
    }

    static func der(_ raw: Data) -> Data { (try? Curve.engine.derSignature(raw: raw)) ?? Data() }
}

/// The little DER and PEM shaping CryptoKit's error cases and output need around OpenSSL's decoders and encoders.
enum NISTDER {
    static let sequenceTag: UInt8 = 0x30
    static let integerTag: UInt8 = 0x02

    /// Throws `unexpectedFieldType` unless `der` is a SEQUENCE whose first element has the tag `firstInnerTag`
    /// (SubjectPublicKeyInfo starts with a SEQUENCE, PKCS#8 and SEC 1 private keys with an INTEGER), as CryptoKit
    /// reports a DER key of the other kind. Anything else is left to OpenSSL's decoder.
    static func expect(_ der: Data, firstInnerTag: UInt8) throws {
        guard let outer = der.first else { throw CryptoKitASN1Error.truncatedASN1Field }
        guard outer == sequenceTag else { throw CryptoKitASN1Error.unexpectedFieldType }
        guard der.count > 1 else { throw CryptoKitASN1Error.truncatedASN1Field }
        let lengthByte = der[der.startIndex + 1]
        let headerLength = 2 + (lengthByte & 0x80 != 0 ? Int(lengthByte & 0x7f) : 0)
        guard der.count > headerLength else { throw CryptoKitASN1Error.truncatedASN1Field }
        guard der[der.startIndex + headerLength] == firstInnerTag else { throw CryptoKitASN1Error.unexpectedFieldType }
    }

    /// A PEM document as CryptoKit writes it: RFC 7468 lines, with no line break after the END line.
    static func pem(label: String, der: Data) -> String {
        let text = PEM.encode(label: label, der: der)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
