import COpenSSL
import Foundation

/// The one-shot EVP AEAD calls shared by AES-GCM and ChaCha20-Poly1305 (12-byte nonce, 16-byte tag).
/// Every call makes and frees its own `EVP_CIPHER_CTX`; only the immutable fetched cipher is shared.
enum AEADEngine {
    static let nonceByteCount = 12
    static let tagByteCount = 16
    static let maximumInputByteCount = Int(Int32.max)

    /// Encrypts `plaintext`; returns ciphertext and tag.
    static func seal(
        cipher: OpaquePointer?, name: String, key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        plaintext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> (ciphertext: Data, tag: Data) {
        guard plaintext.count <= maximumInputByteCount, aad.count <= maximumInputByteCount else {
            throw .inputTooLarge(limit: maximumInputByteCount)
        }
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .libraryFailure("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        guard EVP_EncryptInit_ex2(ctx, cipher, key.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                  nonce.baseAddress?.assumingMemoryBound(to: UInt8.self), nil) == 1
        else { throw .libraryFailure("EVP_EncryptInit_ex2(\(name))") }
        var written: Int32 = 0
        if aad.count > 0 {
            guard EVP_EncryptUpdate(ctx, nil, &written, aad.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                    Int32(aad.count)) == 1
            else { throw .libraryFailure("EVP_EncryptUpdate(aad)") }
        }
        var ciphertext = Data(count: plaintext.count)
        var tag = Data(count: tagByteCount)
        let ok = tag.withUnsafeMutableBytes { tagOut -> Bool in
            ciphertext.withUnsafeMutableBytes { out -> Bool in
                var total: Int32 = 0
                if plaintext.count > 0 {
                    guard EVP_EncryptUpdate(ctx, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &total,
                                            plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                            Int32(plaintext.count)) == 1
                    else { return false }
                }
                // GCM and ChaCha20-Poly1305 are stream modes: Final writes no bytes (the tag buffer is a valid
                // scratch pointer for it) but is required to finish the tag.
                var final: Int32 = 0
                guard EVP_EncryptFinal_ex(ctx, tagOut.baseAddress?.assumingMemoryBound(to: UInt8.self), &final) == 1,
                      final == 0, Int(total) == plaintext.count
                else { return false }
                return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), tagOut.baseAddress) == 1
            }
        }
        guard ok else { throw .libraryFailure("EVP_Encrypt(\(name))") }
        return (ciphertext, tag)
    }

    /// Decrypts and authenticates. Throws `.authenticationFailure` (and releases no plaintext) on any mismatch.
    static func open(
        cipher: OpaquePointer?, name: String, key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Data {
        guard tag.count == tagByteCount else { throw .authenticationFailure }
        guard ciphertext.count <= maximumInputByteCount, aad.count <= maximumInputByteCount else {
            throw .inputTooLarge(limit: maximumInputByteCount)
        }
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .libraryFailure("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        guard EVP_DecryptInit_ex2(ctx, cipher, key.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                  nonce.baseAddress?.assumingMemoryBound(to: UInt8.self), nil) == 1
        else { throw .libraryFailure("EVP_DecryptInit_ex2(\(name))") }
        var written: Int32 = 0
        if aad.count > 0 {
            guard EVP_DecryptUpdate(ctx, nil, &written, aad.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                    Int32(aad.count)) == 1
            else { throw .libraryFailure("EVP_DecryptUpdate(aad)") }
        }
        guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount),
                                  UnsafeMutableRawPointer(mutating: tag.baseAddress)) == 1
        else { throw .libraryFailure("EVP_CTRL_AEAD_SET_TAG") }
        var plaintext = Data(count: ciphertext.count)
        var scratch: (UInt64, UInt64) = (0, 0)
        let authentic = withUnsafeMutableBytes(of: &scratch) { scratchOut -> Bool in
            plaintext.withUnsafeMutableBytes { out -> Bool in
                var total: Int32 = 0
                if ciphertext.count > 0 {
                    guard EVP_DecryptUpdate(ctx, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &total,
                                            ciphertext.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                            Int32(ciphertext.count)) == 1
                    else { return false }
                }
                var final: Int32 = 0
                let verified = EVP_DecryptFinal_ex(
                    ctx, scratchOut.baseAddress?.assumingMemoryBound(to: UInt8.self), &final) == 1
                    && final == 0 && Int(total) == ciphertext.count
                if !verified, let base = out.baseAddress, out.count > 0 {
                    // Never let unauthenticated plaintext survive.
                    base.initializeMemory(as: UInt8.self, repeating: 0, count: out.count)
                }
                return verified
            }
        }
        guard authentic else { throw .authenticationFailure }
        return plaintext
    }
}
