import COpenSSL
import Foundation
import LatchkeySupport

/// Curve25519 keys by OpenSSL: Ed25519 (RFC 8032) signatures and X25519 (RFC 7748) key agreement — CryptoKit's
/// `Curve25519.Signing` and `Curve25519.KeyAgreement` on Linux. Keys are 32 bytes, public and private.
package enum EdwardsCurve: Sendable {
    case ed25519, x25519

    var type: Int32 { self == .ed25519 ? EVP_PKEY_ED25519 : EVP_PKEY_X25519 }
    var name: String { self == .ed25519 ? "ED25519" : "X25519" }

    /// Key length in bytes, public and private.
    package static let keyByteCount = 32

    /// A new random private key.
    package func generate() throws(CryptoError) -> EVPKey {
        try EVPKey.generate(type: name) { _ in true }
    }

    /// A private key from its 32 bytes (Ed25519: the RFC 8032 seed).
    package func privateKey(raw: UnsafeRawBufferPointer) throws(CryptoError) -> EVPKey {
        guard raw.count == Self.keyByteCount else { throw .invalidKeySize(expected: Self.keyByteCount, actual: raw.count) }
        guard let pkey = EVP_PKEY_new_raw_private_key(type, nil, bytePointer(raw), raw.count) else {
            ERR_clear_error(); throw .malformedInput("\(name) private key")
        }
        return EVPKey(taking: pkey)
    }

    /// A public key from its 32 bytes.
    package func publicKey(raw: UnsafeRawBufferPointer) throws(CryptoError) -> EVPKey {
        guard raw.count == Self.keyByteCount else { throw .invalidKeySize(expected: Self.keyByteCount, actual: raw.count) }
        guard let pkey = EVP_PKEY_new_raw_public_key(type, nil, bytePointer(raw), raw.count) else {
            ERR_clear_error(); throw .malformedInput("\(name) public key")
        }
        return EVPKey(taking: pkey)
    }

    /// A key's 32 private bytes. Treat the result as a secret.
    package func rawPrivate(of key: EVPKey) throws(CryptoError) -> SecretBytes {
        try SecretBytes(uninitializedByteCount: Self.keyByteCount) { (out) throws(CryptoError) in
            var length = out.count
            guard EVP_PKEY_get_raw_private_key(key.pointer, out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                               &length) == 1, length == Self.keyByteCount
            else { ERR_clear_error(); throw .libraryFailure("EVP_PKEY_get_raw_private_key") }
        }
    }

    /// A key's 32 public bytes.
    package func rawPublic(of key: EVPKey) throws(CryptoError) -> Data {
        var out = Data(count: Self.keyByteCount)
        var length = Self.keyByteCount
        let ok = out.withUnsafeMutableBytes {
            EVP_PKEY_get_raw_public_key(key.pointer, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
        }
        guard ok == 1, length == Self.keyByteCount else { ERR_clear_error(); throw .libraryFailure("EVP_PKEY_get_raw_public_key") }
        return out
    }

    /// The 64-byte Ed25519 signature of `message` (deterministic).
    package static func sign(_ key: EVPKey, message: UnsafeRawBufferPointer) throws(CryptoError) -> Data {
        try EVPSignature.sign(key, md: nil, data: message)
    }

    /// True when `signature` (64 bytes) is a valid Ed25519 signature of `message` under `key`.
    package static func isValid(_ key: EVPKey, signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> Bool {
        guard signature.count == 64 else { return false }
        return EVPSignature.verify(key, md: nil, signature: Data(signature), data: message)
    }
}

extension EVPKey {
    /// Diffie–Hellman (`EVP_PKEY_derive`) of this private key with `peer`'s public key: the raw shared secret.
    /// X25519 refuses an all-zero result (a small-order peer point), as RFC 7748 §6.1 allows.
    package func sharedSecret(with peer: EVPKey) throws(CryptoError) -> SecretBytes {
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            ERR_clear_error(); throw .libraryFailure("EVP_PKEY_CTX_new_from_pkey")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        var length = 0
        guard EVP_PKEY_derive_init(ctx) == 1, EVP_PKEY_derive_set_peer(ctx, peer.pointer) == 1,
              EVP_PKEY_derive(ctx, nil, &length) == 1, length > 0, length <= 1024
        else { ERR_clear_error(); throw .libraryFailure("EVP_PKEY_derive") }
        return try SecretBytes(uninitializedByteCount: length) { (out) throws(CryptoError) in
            var written = out.count
            guard EVP_PKEY_derive(ctx, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &written) == 1,
                  written == length
            else { ERR_clear_error(); throw .libraryFailure("EVP_PKEY_derive") }
        }
    }
}
