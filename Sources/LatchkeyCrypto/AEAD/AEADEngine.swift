import COpenSSL
import Foundation

/// The one-shot EVP AEAD calls shared by AES-GCM and ChaCha20-Poly1305 (12-byte nonce, 16-byte tag).
/// Every call makes and frees its own `EVP_CIPHER_CTX`; only the immutable fetched cipher is shared.
enum AEADEngine {
    static let nonceByteCount = 12
    static let tagByteCount = 16
    static let overhead = nonceByteCount + tagByteCount
    static let maximumInputByteCount = Int(Int32.max) - overhead

    /// Seals into one new buffer laid out `nonce || ciphertext || tag` (the sealed box's storage).
    static func seal(
        cipher: OpaquePointer?, name: StaticString, key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        plaintext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Data {
        guard plaintext.count <= maximumInputByteCount, aad.count <= maximumInputByteCount else {
            throw .inputTooLarge(limit: maximumInputByteCount)
        }
        guard nonce.count == nonceByteCount, let nonceBase = nonce.baseAddress else {
            throw .invalidNonceSize(expected: nonceByteCount, actual: nonce.count)
        }
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .libraryFailure("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        guard EVP_EncryptInit_ex2(ctx, cipher, key.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                  nonceBase.assumingMemoryBound(to: UInt8.self), nil) == 1
        else { throw .libraryFailure("EVP_EncryptInit_ex2(\(name))") }
        var written: Int32 = 0
        if aad.count > 0 {
            guard EVP_EncryptUpdate(ctx, nil, &written, aad.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                    Int32(aad.count)) == 1
            else { throw .libraryFailure("EVP_EncryptUpdate(aad)") }
        }
        let count = plaintext.count
        return try DataOutput.make(count: overhead + count) { (out) throws(CryptoError) in
            guard let base = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                throw .libraryFailure("malloc")
            }
            base.update(from: nonceBase.assumingMemoryBound(to: UInt8.self), count: nonceByteCount)
            let body = base + nonceByteCount
            let tag = body + count
            var total: Int32 = 0
            if count > 0 {
                guard EVP_EncryptUpdate(ctx, body, &total, plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                        Int32(count)) == 1
                else { throw .libraryFailure("EVP_EncryptUpdate(\(name))") }
            }
            // GCM and ChaCha20-Poly1305 are stream modes: Final writes no bytes but finishes the tag.
            var final: Int32 = 0
            guard EVP_EncryptFinal_ex(ctx, tag, &final) == 1, final == 0, Int(total) == count,
                  EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), tag) == 1
            else { throw .libraryFailure("EVP_EncryptFinal_ex(\(name))") }
        }
    }

    /// Opens a `nonce || ciphertext || tag` buffer. Throws `.authenticationFailure` (and releases no plaintext)
    /// on any mismatch.
    static func open(
        cipher: OpaquePointer?, name: StaticString, key: UnsafeRawBufferPointer, combined: UnsafeRawBufferPointer,
        aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Data {
        guard combined.count >= overhead, let base = combined.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw .malformedInput("sealed box shorter than \(overhead) bytes")
        }
        guard combined.count - overhead <= maximumInputByteCount, aad.count <= maximumInputByteCount else {
            throw .inputTooLarge(limit: maximumInputByteCount)
        }
        let count = combined.count - overhead
        let body = base + nonceByteCount
        let tag = body + count
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .libraryFailure("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        guard EVP_DecryptInit_ex2(ctx, cipher, key.baseAddress?.assumingMemoryBound(to: UInt8.self), base, nil) == 1
        else { throw .libraryFailure("EVP_DecryptInit_ex2(\(name))") }
        var written: Int32 = 0
        if aad.count > 0 {
            guard EVP_DecryptUpdate(ctx, nil, &written, aad.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                    Int32(aad.count)) == 1
            else { throw .libraryFailure("EVP_DecryptUpdate(aad)") }
        }
        guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount), UnsafeMutablePointer(mutating: tag)) == 1
        else { throw .libraryFailure("EVP_CTRL_AEAD_SET_TAG") }
        // A throw from the closure zeroes and frees the buffer: unauthenticated plaintext never reaches a `Data`.
        return try DataOutput.make(count: count) { (out) throws(CryptoError) in
            var total: Int32 = 0
            if count > 0 {
                guard EVP_DecryptUpdate(ctx, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &total, body,
                                        Int32(count)) == 1
                else { throw .authenticationFailure }
            }
            var final: Int32 = 0
            var scratch: (UInt64, UInt64) = (0, 0)
            let verified = withUnsafeMutableBytes(of: &scratch) { scratchOut in
                EVP_DecryptFinal_ex(ctx, scratchOut.baseAddress?.assumingMemoryBound(to: UInt8.self), &final) == 1
            }
            guard verified, final == 0, Int(total) == count else { throw .authenticationFailure }
        }
    }
}
