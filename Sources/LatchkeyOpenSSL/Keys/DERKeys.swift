import COpenSSL
import Foundation
import LatchkeySupport

/// DER import and export of keys (SPKI, PKCS#8, PKCS#1, SEC1) through OpenSSL's d2i/i2d functions.
package enum DERKeys {
    /// SubjectPublicKeyInfo → key. Trailing bytes are rejected.
    package static func publicKey(spki der: Data) throws(CryptoError) -> EVPKey {
        try decode(der, what: "SubjectPublicKeyInfo") { pp, len in d2i_PUBKEY(nil, pp, len) }
    }

    /// PKCS#1 RSAPublicKey → key.
    package static func rsaPublicKey(pkcs1 der: Data) throws(CryptoError) -> EVPKey {
        try decode(der, what: "RSAPublicKey") { pp, len in d2i_PublicKey(EVP_PKEY_RSA, nil, pp, len) }
    }

    /// PKCS#8 PrivateKeyInfo, or a traditional form (SEC1 ECPrivateKey, PKCS#1 RSAPrivateKey) → key.
    package static func privateKey(_ der: Data) throws(CryptoError) -> EVPKey {
        try decode(der, what: "PrivateKeyInfo") { pp, len in d2i_AutoPrivateKey(nil, pp, len) }
    }

    /// The key's SubjectPublicKeyInfo.
    package static func spki(of key: EVPKey) throws(CryptoError) -> Data {
        try encode("i2d_PUBKEY") { pp in i2d_PUBKEY(key.pointer, pp) }
    }

    /// The key's PKCS#1 `RSAPublicKey` (RSA keys only).
    package static func rsaPKCS1(of key: EVPKey) throws(CryptoError) -> Data {
        try encode("i2d_PublicKey") { pp in i2d_PublicKey(key.pointer, pp) }
    }

    /// The key's PKCS#1 `RSAPrivateKey` (RSA private keys only; Security's external representation of them).
    package static func rsaPrivatePKCS1(of key: EVPKey) throws(CryptoError) -> Data {
        try encode("i2d_PrivateKey") { pp in i2d_PrivateKey(key.pointer, pp) }
    }

    /// A separate public-only key: public key values never hold the private half, and a decoded
    /// point is affine, which keeps verification as fast as a key read from SPKI.
    package static func publicOnly(_ key: EVPKey) throws(CryptoError) -> EVPKey {
        try publicKey(spki: spki(of: key))
    }

    /// The key's unencrypted PKCS#8 PrivateKeyInfo.
    package static func pkcs8(of key: EVPKey) throws(CryptoError) -> Data {
        guard let bio = BIO_new(BIO_s_mem()) else { throw .libraryFailure("BIO_new") }
        defer { BIO_free(bio) }
        guard i2d_PKCS8PrivateKey_bio(bio, key.pointer, nil, nil, 0, nil, nil) == 1 else {
            ERR_clear_error(); throw .libraryFailure("i2d_PKCS8PrivateKey_bio")
        }
        return readAll(bio)
    }

    /// Everything buffered in a memory BIO; the BIO's copy is cleared.
    package static func readAll(_ bio: OpaquePointer) -> Data {
        let pending = Int(BIO_ctrl_pending(bio))
        var out = Data(count: pending)
        let read = out.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32(pending)) }
        out.count = max(0, Int(read))
        _ = BIO_ctrl(bio, BIO_CTRL_RESET, 0, nil)
        return out
    }

    private static func decode(_ der: Data, what: String,
                               _ d2i: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?)
    throws(CryptoError) -> EVPKey {
        guard !der.isEmpty, der.count < Int(Int32.max) else { throw .malformedInput(what) }
        let result: OpaquePointer?? = der.withUnsafeBytes { buf in
            let start = bytePointer(buf)
            var p: UnsafePointer<UInt8>? = start
            guard let key = d2i(&p, buf.count) else { return nil }
            guard let end = p, end == start + buf.count else { EVP_PKEY_free(key); return .some(nil) }
            return .some(key)
        }
        guard let outer = result, let key = outer else { ERR_clear_error(); throw .malformedInput(what) }
        return EVPKey(taking: key)
    }

    private static func encode(_ call: String,
                               _ i2d: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32)
    throws(CryptoError) -> Data {
        let length = i2d(nil)
        guard length > 0 else { ERR_clear_error(); throw .libraryFailure(call) }
        var out = Data(count: Int(length))
        let written = out.withUnsafeMutableBytes { buf in
            var p: UnsafeMutablePointer<UInt8>? = buf.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return i2d(&p)
        }
        guard written == length else { ERR_clear_error(); throw .libraryFailure(call) }
        return out
    }
}
