import LatchkeySupport
import COpenSSL

/// OpenSSL algorithm objects fetched once from the default provider and shared by all threads.
///
/// Fetched `EVP_MD` / `EVP_CIPHER` / `EVP_MAC` / `EVP_KDF` objects are immutable and reference counted
/// atomically by OpenSSL, so sharing them is safe; every operation creates its own context.
package struct EVPHandle: @unchecked Sendable {  // safe: wraps an immutable, thread-safe OpenSSL algorithm object
    package let pointer: OpaquePointer?
}

package enum EVPHandles {
    package static let sha1 = EVPHandle(pointer: EVP_MD_fetch(nil, "SHA1", nil) ?? EVP_sha1())
    package static let sha256 = EVPHandle(pointer: EVP_MD_fetch(nil, "SHA2-256", nil) ?? EVP_sha256())
    package static let sha384 = EVPHandle(pointer: EVP_MD_fetch(nil, "SHA2-384", nil) ?? EVP_sha384())
    package static let sha512 = EVPHandle(pointer: EVP_MD_fetch(nil, "SHA2-512", nil) ?? EVP_sha512())
    package static let md5 = EVPHandle(pointer: EVP_MD_fetch(nil, "MD5", nil) ?? EVP_md5())

    package static let hmac = EVPHandle(pointer: EVP_MAC_fetch(nil, "HMAC", nil))
    package static let hkdf = EVPHandle(pointer: EVP_KDF_fetch(nil, "HKDF", nil))
    package static let x963KDF = EVPHandle(pointer: EVP_KDF_fetch(nil, "X963KDF", nil))

    package static let aes128GCM = EVPHandle(pointer: EVP_CIPHER_fetch(nil, "AES-128-GCM", nil) ?? EVP_aes_128_gcm())
    package static let aes192GCM = EVPHandle(pointer: EVP_CIPHER_fetch(nil, "AES-192-GCM", nil) ?? EVP_aes_192_gcm())
    package static let aes256GCM = EVPHandle(pointer: EVP_CIPHER_fetch(nil, "AES-256-GCM", nil) ?? EVP_aes_256_gcm())
    package static let aes128Wrap = EVPHandle(pointer: EVP_CIPHER_fetch(nil, "AES-128-WRAP", nil))
    package static let aes192Wrap = EVPHandle(pointer: EVP_CIPHER_fetch(nil, "AES-192-WRAP", nil))
    package static let aes256Wrap = EVPHandle(pointer: EVP_CIPHER_fetch(nil, "AES-256-WRAP", nil))
    package static let chacha20Poly1305 = EVPHandle(
        pointer: EVP_CIPHER_fetch(nil, "ChaCha20-Poly1305", nil) ?? EVP_chacha20_poly1305())
}

/// Null-terminated C strings with static lifetime, for `OSSL_PARAM` keys and values (OpenSSL keeps the pointers).
package enum StaticCString {
    @inline(__always)
    package static func pointer(_ string: StaticString) -> UnsafeMutablePointer<CChar> {
        UnsafeMutablePointer(mutating: UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self))
    }
}
