import COpenSSL
import Foundation
import LatchkeySupport

/// The NIST prime curves (P-256, P-384, P-521) and the OpenSSL calls on their keys: CryptoKit's `P256`, `P384`
/// and `P521` on Linux.
package struct ECCurve: Sendable, Equatable {
    package let nid: Int32
    /// OpenSSL group name for EVP_PKEY_fromdata / keygen.
    package let groupName: String
    /// Bytes in a coordinate, a scalar, and half a raw signature.
    package let size: Int
    /// The hash ECDSA uses with this curve (CryptoKit: SHA-256, SHA-384, SHA-512).
    package let hash: OpenSSLDigest

    package static let p256 = ECCurve(nid: NID_X9_62_prime256v1, groupName: "P-256", size: 32, hash: .sha256)
    package static let p384 = ECCurve(nid: NID_secp384r1, groupName: "P-384", size: 48, hash: .sha384)
    package static let p521 = ECCurve(nid: NID_secp521r1, groupName: "P-521", size: 66, hash: .sha512)

    package static func == (lhs: ECCurve, rhs: ECCurve) -> Bool { lhs.nid == rhs.nid }

    // MARK: Keys

    package func generate() throws(CryptoError) -> EVPKey {
        try EVPKey.generate(type: "EC") { EVP_PKEY_CTX_set_group_name($0, groupName) == 1 }
    }

    /// Public key from an uncompressed point 04||x||y; the point must lie on the curve.
    ///
    /// A copy of the curve's parameters-only key (`EVP_PKEY_dup`) given the point (`EVP_PKEY_set1_encoded_public_key`):
    /// ≈ 45 k instructions, where `EVP_PKEY_fromdata` with the group's name builds the curve's group anew — its
    /// constants and Montgomery forms — for every key (≈ 205 k). OpenSSL decodes the point with `EC_POINT_oct2point`,
    /// which refuses a coordinate ≥ p and a point off the curve (and 65 bytes cannot encode the point at infinity),
    /// so no separate public-key check follows; `KeyFormatTests` holds OpenSSL to each of these.
    package func publicKey(x963 point: Data) throws(CryptoError) -> EVPKey {
        guard point.count == 1 + 2 * size, point.first == 0x04 else {
            throw .invalidKeySize(expected: 1 + 2 * size, actual: point.count)
        }
        guard let parameters = Self.parameterKeys[nid], let pkey = EVP_PKEY_dup(parameters.pointer) else {
            ERR_clear_error(); throw .libraryFailure("EVP_PKEY_dup")
        }
        let key = EVPKey(taking: pkey)
        let status = point.withUnsafeBytes { EVP_PKEY_set1_encoded_public_key(pkey, bytePointer($0), $0.count) }
        guard status == 1 else { ERR_clear_error(); throw .malformedInput("point not on curve") }
        return key
    }

    /// One parameters-only key per curve (its group and nothing else), made on first use and only ever copied.
    private static let parameterKeys: [Int32: EVPKey] = {
        var keys: [Int32: EVPKey] = [:]
        for curve in [p256, p384, p521] {
            keys[curve.nid] = try? EVPKey.fromData(type: "EC", selection: EVPKey.selectParameters) { bld in
                bld.utf8("group", curve.groupName)
            }
        }
        return keys
    }()

    /// Private key from a big-endian scalar 1 ≤ d < n; the public point is computed with EC_POINT_mul.
    package func privateKey(scalar: Data) throws(CryptoError) -> EVPKey {
        guard scalar.count == size else { throw .invalidKeySize(expected: size, actual: scalar.count) }
        let d = try BIGNUMBox(scalar)
        guard let group = EC_GROUP_new_by_curve_name(nid) else { throw .libraryFailure("EC_GROUP_new_by_curve_name") }
        defer { EC_GROUP_free(group) }
        guard BN_is_zero(d.pointer) == 0, let order = EC_GROUP_get0_order(group), BN_cmp(d.pointer, order) < 0 else {
            throw .invalidParameter("private scalar out of range")
        }
        guard let point = EC_POINT_new(group) else { throw .libraryFailure("EC_POINT_new") }
        defer { EC_POINT_free(point) }
        guard EC_POINT_mul(group, point, d.pointer, nil, nil, nil) == 1 else {
            ERR_clear_error(); throw .libraryFailure("EC_POINT_mul")
        }
        let pub = try encode(point, group: group)
        return try EVPKey.fromData(type: "EC", selection: EVPKey.selectKeyPair) { bld in
            bld.utf8("group", groupName) && bld.octets("pub", pub) && bld.bigNumber("priv", d)
        }
    }

    /// 04||x||y from a compressed point 02/03||x.
    package func decompress(_ compressed: Data) throws(CryptoError) -> Data {
        guard compressed.count == 1 + size, compressed.first == 0x02 || compressed.first == 0x03 else {
            throw .invalidKeySize(expected: 1 + size, actual: compressed.count)
        }
        guard let group = EC_GROUP_new_by_curve_name(nid) else { throw .libraryFailure("EC_GROUP_new_by_curve_name") }
        defer { EC_GROUP_free(group) }
        guard let point = EC_POINT_new(group) else { throw .libraryFailure("EC_POINT_new") }
        defer { EC_POINT_free(point) }
        let ok = compressed.withUnsafeBytes { EC_POINT_oct2point(group, point, bytePointer($0), $0.count, nil) }
        guard ok == 1 else { ERR_clear_error(); throw .malformedInput("compressed point not on curve") }
        return try encode(point, group: group)
    }

    /// Whether the point 04||x||y is compact representable (draft-jivsov-ecc-compact §4.2.1): y ≤ p − y.
    package func isCompactRepresentable(x963 point: Data) -> Bool {
        guard point.count == 1 + 2 * size, let p = fieldPrime() else { return false }
        defer { BN_free(p) }
        let y = point.suffix(size)
        guard let yBN = y.withUnsafeBytes({ BN_bin2bn(bytePointer($0), Int32($0.count), nil) }), let other = BN_new() else {
            return false
        }
        defer { BN_free(yBN); BN_free(other) }
        guard BN_sub(other, p, yBN) == 1 else { ERR_clear_error(); return false }
        return BN_cmp(yBN, other) <= 0
    }

    /// 04||x||y from the compact representation x (draft-jivsov-ecc-compact §4.1): the point on the curve with
    /// that x whose y is min(y, p − y).
    package func decompact(_ x: Data) throws(CryptoError) -> Data {
        guard x.count == size else { throw .invalidKeySize(expected: size, actual: x.count) }
        let even = try decompress(Data([0x02]) + x)
        if isCompactRepresentable(x963: even) { return even }
        return try decompress(Data([0x03]) + x)
    }

    /// The field prime p (the caller frees it), nil if OpenSSL fails.
    private func fieldPrime() -> OpaquePointer? {
        guard let group = EC_GROUP_new_by_curve_name(nid) else { return nil }
        defer { EC_GROUP_free(group) }
        guard let p = BN_new() else { return nil }
        guard EC_GROUP_get_curve(group, p, nil, nil, nil) == 1 else { BN_free(p); ERR_clear_error(); return nil }
        return p
    }

    /// Checks that a key decoded elsewhere (DER, PEM) is an EC key on this curve.
    package func check(_ key: EVPKey) throws(CryptoError) {
        guard key.isA("EC") else { throw .unsupportedAlgorithm("not an EC key") }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key.pointer, &name, name.count, &length) == 1 else {
            ERR_clear_error(); throw .unsupportedAlgorithm("EC key without a named curve")
        }
        let text = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var found = OBJ_sn2nid(text)
        if found == NID_undef { found = EC_curve_nist2nid(text) }
        guard found == nid else { throw .unsupportedAlgorithm("EC curve \(text)") }
    }

    /// Whether a decoded key names its curve (an OID) rather than spelling out explicit parameters (RFC 5480 §2.1.1:
    /// only named curves are allowed in SubjectPublicKeyInfo; CryptoKit refuses the others).
    package func hasNamedCurveEncoding(_ key: EVPKey) -> Bool {
        var value = [CChar](repeating: 0, count: 32)
        var length = 0
        guard EVP_PKEY_get_utf8_string_param(key.pointer, "encoding", &value, value.count, &length) == 1 else {
            ERR_clear_error(); return false
        }
        return String(decoding: value.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "named_curve"
    }

    /// Uncompressed point of a key: 04||x||y.
    package func x963(of key: EVPKey) throws(CryptoError) -> Data {
        var out = Data([0x04])
        out.append(try key.bigNumber("qx", width: size))
        out.append(try key.bigNumber("qy", width: size))
        return out
    }

    /// The private scalar, left-padded to the curve size.
    package func scalar(of key: EVPKey) throws(CryptoError) -> Data {
        try key.bigNumber("priv", width: size)
    }

    private func encode(_ point: OpaquePointer, group: OpaquePointer) throws(CryptoError) -> Data {
        var out = Data(count: 1 + 2 * size)
        let written = out.withUnsafeMutableBytes { buf in
            EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED,
                               buf.baseAddress?.assumingMemoryBound(to: UInt8.self), buf.count, nil)
        }
        guard written == out.count else { ERR_clear_error(); throw .libraryFailure("EC_POINT_point2oct") }
        return out
    }

    /// Compressed point 02/03||x of a key.
    package func compressed(of key: EVPKey) throws(CryptoError) -> Data {
        let x963 = try x963(of: key)
        guard let last = x963.last else { throw .libraryFailure("EC point") }
        var out = Data([0x02 | (last & 1)])
        out.append(x963.dropFirst().prefix(size))
        return out
    }

    /// ECDH (SEC 1 §3.3.1): the x coordinate of the shared point of `privateKey` and `peer`, `size` bytes; the
    /// peer's point was checked to lie on the curve when its key was made.
    package func sharedSecret(_ privateKey: EVPKey, peer: EVPKey) throws(CryptoError) -> SecretBytes {
        let secret = try privateKey.sharedSecret(with: peer)
        guard secret.byteCount == size else { throw .libraryFailure("EVP_PKEY_derive") }
        return secret
    }

    // MARK: Signatures

    /// DER ECDSA-Sig-Value (`SEQUENCE { INTEGER r, INTEGER s }`, X9.62) from raw r||s. Plain DER encoding of
    /// two unsigned integers — minimal length, a 0x00 before a set high bit — which is what `i2d_ECDSA_SIG`
    /// writes, without its two BIGNUM allocations (tests compare the bytes with OpenSSL's on every path).
    package func derSignature(raw: Data) throws(CryptoError) -> Data {
        guard raw.count == 2 * size else { throw .invalidParameter("raw signature must be \(2 * size) bytes, got \(raw.count)") }
        return raw.withUnsafeBytes { rawBytes in
            withUnsafeTemporaryAllocation(byteCount: Self.derSignatureCapacity, alignment: 8) { buffer in
                let length = derSignature(raw: rawBytes, into: buffer) ?? 0
                return Data(UnsafeRawBufferPointer(rebasing: buffer[0..<length]))
            }
        }
    }

    /// The same encoding written into `out` (at least `derSignatureCapacity` bytes); returns its length, or nil
    /// when `raw` is not 2 × the coordinate size or `out` is too small.
    package func derSignature(raw: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Int? {
        guard raw.count == 2 * size, let rawBase = raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let outBase = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let size = size
        func integer(_ start: Int) -> (first: Int, pad: Int, length: Int) {
            var first = start
            while first < start + size - 1, rawBase[first] == 0 { first += 1 }
            let pad = rawBase[first] & 0x80 != 0 ? 1 : 0
            return (first, pad, start + size - first + pad)
        }
        let r = integer(0), s = integer(size)
        let content = 2 + r.length + 2 + s.length // each INTEGER's length fits in one byte (≤ 67)
        let total = content + (content >= 0x80 ? 3 : 2)
        guard total <= out.count else { return nil }
        var at = 0
        func put(_ byte: UInt8) { outBase[at] = byte; at += 1 }
        put(0x30)
        if content >= 0x80 { put(0x81) }
        put(UInt8(content))
        func putInteger(_ part: (first: Int, pad: Int, length: Int)) {
            put(0x02)
            put(UInt8(part.length))
            if part.pad == 1 { put(0) }
            let digits = part.length - part.pad
            (outBase + at).update(from: rawBase + part.first, count: digits)
            at += digits
        }
        putInteger(r)
        putInteger(s)
        return at
    }

    /// Raw r||s of a signature OpenSSL itself just made (`EVP_PKEY_sign`'s DER, always canonical): decoded by
    /// OpenSSL (`d2i_ECDSA_SIG`, `BN_bn2binpad`) straight into the result, without the re-encoding check
    /// `rawSignature(der:)` makes for signatures from outside.
    package func rawSignature(trustedDER der: UnsafeRawBufferPointer) throws(CryptoError) -> Data {
        var cursor: UnsafePointer<UInt8>? = bytePointer(der)
        guard let sig = d2i_ECDSA_SIG(nil, &cursor, der.count) else {
            ERR_clear_error(); throw .libraryFailure("d2i_ECDSA_SIG")
        }
        defer { ECDSA_SIG_free(sig) }
        var r: OpaquePointer?, s: OpaquePointer?
        ECDSA_SIG_get0(sig, &r, &s)
        let size = size
        var ok = false
        let raw = DataOutput.make(count: 2 * size) { out in
            guard let base = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            ok = BN_bn2binpad(r, base, Int32(size)) == Int32(size) && BN_bn2binpad(s, base + size, Int32(size)) == Int32(size)
        }
        guard ok else { ERR_clear_error(); throw .libraryFailure("BN_bn2binpad") }
        return raw
    }

    /// Raw r||s from a strictly DER-encoded ECDSA-Sig-Value (no trailing bytes, minimal integers).
    package func rawSignature(der: Data) throws(CryptoError) -> Data {
        guard !der.isEmpty, der.count <= 16 + 4 * size else { throw .malformedInput("DER ECDSA signature") }
        let sig: OpaquePointer? = der.withUnsafeBytes { buf in
            var p: UnsafePointer<UInt8>? = bytePointer(buf)
            let sig = d2i_ECDSA_SIG(nil, &p, buf.count)
            if let sig, p != bytePointer(buf) + buf.count { ECDSA_SIG_free(sig); return nil }
            return sig
        }
        guard let sig else { ERR_clear_error(); throw .malformedInput("DER ECDSA signature") }
        defer { ECDSA_SIG_free(sig) }
        guard let r = ECDSA_SIG_get0_r(sig), let s = ECDSA_SIG_get0_s(sig),
              BN_is_negative(r) == 0, BN_is_negative(s) == 0,
              Int(BN_num_bits(r)) <= 8 * size, Int(BN_num_bits(s)) <= 8 * size
        else { throw .malformedInput("DER ECDSA signature") }
        var out = Data(count: 2 * size)
        out.withUnsafeMutableBytes { buf in
            let base = buf.baseAddress!.assumingMemoryBound(to: UInt8.self)
            _ = BN_bn2binpad(r, base, Int32(size))
            _ = BN_bn2binpad(s, base + size, Int32(size))
        }
        // Strict DER: re-encoding must give the same bytes (rejects BER lengths and padded integers).
        guard try derSignature(raw: out) == der else { throw .malformedInput("non-canonical DER ECDSA signature") }
        return out
    }
}
