import COpenSSL

/// OpenSSL algorithm objects fetched once from the default provider and shared by all threads.
///
/// Fetched `EVP_MD` / `EVP_CIPHER` / `EVP_MAC` / `EVP_KDF` objects are immutable and reference counted
/// atomically by OpenSSL, so sharing them is safe; every operation creates its own context.
struct EVPHandle: @unchecked Sendable {  // safe: wraps an immutable, thread-safe OpenSSL algorithm object
    let pointer: OpaquePointer?
}

enum EVPHandles {
    static let sha1 = EVPHandle(pointer: EVP_MD_fetch(nil, "SHA1", nil) ?? EVP_sha1())
    static let sha256 = EVPHandle(pointer: EVP_MD_fetch(nil, "SHA2-256", nil) ?? EVP_sha256())
    static let sha384 = EVPHandle(pointer: EVP_MD_fetch(nil, "SHA2-384", nil) ?? EVP_sha384())
    static let sha512 = EVPHandle(pointer: EVP_MD_fetch(nil, "SHA2-512", nil) ?? EVP_sha512())

    static let hmac = EVPHandle(pointer: EVP_MAC_fetch(nil, "HMAC", nil))
    static let hkdf = EVPHandle(pointer: EVP_KDF_fetch(nil, "HKDF", nil))

    static let aes128GCM = EVPHandle(pointer: EVP_CIPHER_fetch(nil, "AES-128-GCM", nil) ?? EVP_aes_128_gcm())
    static let aes192GCM = EVPHandle(pointer: EVP_CIPHER_fetch(nil, "AES-192-GCM", nil) ?? EVP_aes_192_gcm())
    static let aes256GCM = EVPHandle(pointer: EVP_CIPHER_fetch(nil, "AES-256-GCM", nil) ?? EVP_aes_256_gcm())
    static let chacha20Poly1305 = EVPHandle(
        pointer: EVP_CIPHER_fetch(nil, "ChaCha20-Poly1305", nil) ?? EVP_chacha20_poly1305())
}

/// Null-terminated C strings with static lifetime, for `OSSL_PARAM` keys and values (OpenSSL keeps the pointers).
enum StaticCString {
    @inline(__always)
    static func pointer(_ string: StaticString) -> UnsafeMutablePointer<CChar> {
        UnsafeMutablePointer(mutating: UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self))
    }
}
