import COpenSSL
import Foundation

/// The EVP AEAD calls shared by AES-GCM and ChaCha20-Poly1305 (12-byte nonce, 16-byte tag).
///
/// A key sealing or opening again reuses its own keyed `EVP_CIPHER_CTX` (see `KeyedContextSlots`): only the
/// nonce is set, no context is allocated and the key schedule is not recomputed. When that context is busy
/// on another thread, the call makes and frees a one-shot context instead. The output is written in place
/// into the one buffer that becomes the result (`nonce || ciphertext || tag`, or the plaintext).
@usableFromInline
enum AEADEngine {
    static let nonceByteCount = 12
    static let tagByteCount = 16
    static let overhead = nonceByteCount + tagByteCount
    static let maximumInputByteCount = Int(Int32.max) - overhead

    /// Seals `plaintext` into one new buffer laid out `nonce || ciphertext || tag`.
    @usableFromInline
    static func seal(_ plaintext: Data, key: SymmetricKey, nonce: Data, aad: Data,
                     parameters: AEADCipherParameters) throws(CryptoError) -> Data {
        try ContiguousInput.with(plaintext) { (input) throws(CryptoError) in
            try seal(input, key: key, nonce: nonce, aad: aad, parameters: parameters)
        }
    }

    static func seal(_ plaintext: UnsafeRawBufferPointer, key: SymmetricKey, nonce: Data, aad: Data,
                     parameters: AEADCipherParameters) throws(CryptoError) -> Data {
        try ContiguousInput.with(aad) { (aadBytes) throws(CryptoError) in
            try seal(plaintext, key: key, nonce: nonce, aad: aadBytes, parameters: parameters)
        }
    }

    /// Seals `plaintext` with associated data the caller holds in its own buffer.
    @usableFromInline
    static func seal(_ plaintext: Data, key: SymmetricKey, nonce: Data, aad: UnsafeRawBufferPointer,
                     parameters: AEADCipherParameters) throws(CryptoError) -> Data {
        try ContiguousInput.with(plaintext) { (input) throws(CryptoError) in
            try seal(input, key: key, nonce: nonce, aad: aad, parameters: parameters)
        }
    }

    static func seal(_ plaintext: UnsafeRawBufferPointer, key: SymmetricKey, nonce: Data, aad aadBytes: UnsafeRawBufferPointer,
                     parameters: AEADCipherParameters) throws(CryptoError) -> Data {
        let cipher = try parameters.cipher(key.byteCount)
        guard let cipher else { throw .libraryFailure("EVP_CIPHER_fetch(\(parameters.name))") }
        return try ContiguousInput.with(nonce) { (nonceBytes) throws(CryptoError) in
            let keyed = try key.withCipherContext(cipher: cipher, encrypt: true) { (ctx) throws(CryptoError) in
                try seal(ctx, cipher: nil, key: nil, name: parameters.name, nonce: nonceBytes, plaintext: plaintext,
                         aad: aadBytes)
            }
            if let keyed { return keyed }
            guard let ctx = EVP_CIPHER_CTX_new() else { throw .libraryFailure("EVP_CIPHER_CTX_new") }
            defer { EVP_CIPHER_CTX_free(ctx) }
            return try seal(ctx, cipher: cipher, key: key.keyBytes, name: parameters.name, nonce: nonceBytes,
                            plaintext: plaintext, aad: aadBytes)
        }
    }

    /// Opens a `nonce || ciphertext || tag` buffer. Throws `.authenticationFailure` (and releases no plaintext)
    /// on any mismatch.
    @usableFromInline
    static func open(_ combined: Data, key: SymmetricKey, aad: Data,
                     parameters: AEADCipherParameters) throws(CryptoError) -> Data {
        try ContiguousInput.with(combined) { (box) throws(CryptoError) in
            try ContiguousInput.with(aad) { (aadBytes) throws(CryptoError) in
                try open(box, key: key, aad: aadBytes, parameters: parameters)
            }
        }
    }

    /// Opens a `nonce || ciphertext || tag` buffer the caller holds (a database row, say), with associated
    /// data in its own buffer too: no copy of either is made.
    @usableFromInline
    static func open(_ box: UnsafeRawBufferPointer, key: SymmetricKey, aad aadBytes: UnsafeRawBufferPointer,
                     parameters: AEADCipherParameters) throws(CryptoError) -> Data {
        let cipher = try parameters.cipher(key.byteCount)
        guard let cipher else { throw .libraryFailure("EVP_CIPHER_fetch(\(parameters.name))") }
        let keyed = try key.withCipherContext(cipher: cipher, encrypt: false) { (ctx) throws(CryptoError) in
            try open(ctx, cipher: nil, key: nil, name: parameters.name, combined: box, aad: aadBytes)
        }
        if let keyed { return keyed }
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .libraryFailure("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        return try open(ctx, cipher: cipher, key: key.keyBytes, name: parameters.name, combined: box, aad: aadBytes)
    }

    /// One seal on `ctx`: with `cipher` and `key` for a fresh context, or both nil for a context already keyed.
    private static func seal(
        _ ctx: OpaquePointer, cipher: OpaquePointer?, key: UnsafeRawBufferPointer?, name: StaticString,
        nonce: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Data {
        guard plaintext.count <= maximumInputByteCount, aad.count <= maximumInputByteCount else {
            throw .inputTooLarge(limit: maximumInputByteCount)
        }
        guard nonce.count == nonceByteCount, let nonceBase = nonce.baseAddress else {
            throw .invalidNonceSize(expected: nonceByteCount, actual: nonce.count)
        }
        guard EVP_EncryptInit_ex2(ctx, cipher, key?.baseAddress?.assumingMemoryBound(to: UInt8.self),
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

    /// One open on `ctx` (fresh with `cipher` and `key`, or already keyed with both nil).
    private static func open(
        _ ctx: OpaquePointer, cipher: OpaquePointer?, key: UnsafeRawBufferPointer?, name: StaticString,
        combined: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer
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
        guard EVP_DecryptInit_ex2(ctx, cipher, key?.baseAddress?.assumingMemoryBound(to: UInt8.self), base, nil) == 1
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
