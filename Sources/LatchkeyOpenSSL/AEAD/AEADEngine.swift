import COpenSSL
import Foundation
import LatchkeySupport

/// The AEAD ciphers OpenSSL runs for CryptoKit's `AES.GCM` and `ChaChaPoly`.
package enum AEADCipher: Sendable {
    /// AES-128/192/256-GCM (NIST SP 800-38D), chosen by the key size; nonces of 12 to 128 bytes.
    case aesGCM
    /// ChaCha20-Poly1305 (RFC 8439): a 32-byte key, a 12-byte nonce.
    case chaChaPoly

    /// The fetched cipher for a key of `keyByteCount` bytes.
    func cipher(keyByteCount: Int) throws(CryptoError) -> OpaquePointer {
        let handle: EVPHandle
        switch (self, keyByteCount) {
        case (.aesGCM, 32): handle = EVPHandles.aes256GCM
        case (.aesGCM, 16): handle = EVPHandles.aes128GCM
        case (.aesGCM, 24): handle = EVPHandles.aes192GCM
        case (.aesGCM, _): throw .invalidKeySize(expected: 32, actual: keyByteCount)
        case (.chaChaPoly, 32): handle = EVPHandles.chacha20Poly1305
        case (.chaChaPoly, _): throw .invalidKeySize(expected: 32, actual: keyByteCount)
        }
        guard let pointer = handle.pointer else { throw .libraryFailure("EVP_CIPHER_fetch(\(name))") }
        return pointer
    }

    var name: StaticString {
        switch self {
        case .aesGCM: "AES-GCM"
        case .chaChaPoly: "ChaCha20-Poly1305"
        }
    }
}

/// The EVP AEAD calls shared by AES-GCM and ChaCha20-Poly1305 (16-byte tag; 12-byte nonces, and longer ones for
/// GCM).
///
/// A key sealing or opening again with a 12-byte nonce reuses its own keyed `EVP_CIPHER_CTX` (see
/// `KeyedContextSlots`): only the nonce is set, no context is allocated and the key schedule is not recomputed.
/// When that context is busy on another thread, or the nonce has another length, the call makes and frees a
/// one-shot context instead. The output is written in place into the one buffer that becomes the result
/// (`nonce || ciphertext || tag`, or the plaintext).
package enum AEADEngine {
    package static let nonceByteCount = 12
    package static let tagByteCount = 16
    package static let overhead = nonceByteCount + tagByteCount
    package static let maximumInputByteCount = Int(Int32.max) - overhead - 1024

    /// Seals `plaintext` into one new buffer laid out `nonce || ciphertext || tag`.
    package static func seal(_ plaintext: UnsafeRawBufferPointer, key: SecretBytes, nonce: UnsafeRawBufferPointer,
                             aad: UnsafeRawBufferPointer, cipher kind: AEADCipher) throws(CryptoError) -> Data {
        let cipher = try kind.cipher(keyByteCount: key.byteCount)
        try checkNonce(nonce, kind)
        if nonce.count == nonceByteCount {
            let keyed = try key.withCipherContext(cipher: cipher, encrypt: true) { (ctx) throws(CryptoError) in
                try seal(ctx, cipher: nil, key: nil, name: kind.name, nonce: nonce, plaintext: plaintext, aad: aad)
            }
            if let keyed { return keyed }
        }
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .libraryFailure("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        return try seal(ctx, cipher: cipher, key: key.bytes, name: kind.name, nonce: nonce, plaintext: plaintext,
                        aad: aad)
    }

    /// Opens a `nonce || ciphertext || tag` buffer whose nonce is `nonceByteCount` bytes. Throws
    /// `.authenticationFailure` (and releases no plaintext) on any mismatch.
    package static func open(_ box: UnsafeRawBufferPointer, nonceByteCount nonceLength: Int = nonceByteCount,
                             key: SecretBytes, aad: UnsafeRawBufferPointer,
                             cipher kind: AEADCipher) throws(CryptoError) -> Data {
        let cipher = try kind.cipher(keyByteCount: key.byteCount)
        guard box.count >= nonceLength + tagByteCount else {
            throw .malformedInput("sealed box shorter than \(nonceLength + tagByteCount) bytes")
        }
        try checkNonce(UnsafeRawBufferPointer(rebasing: box[0..<nonceLength]), kind)
        if nonceLength == nonceByteCount {
            let keyed = try key.withCipherContext(cipher: cipher, encrypt: false) { (ctx) throws(CryptoError) in
                try open(ctx, cipher: nil, key: nil, name: kind.name, nonceLength: nonceLength, combined: box, aad: aad)
            }
            if let keyed { return keyed }
        }
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .libraryFailure("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        return try open(ctx, cipher: cipher, key: key.bytes, name: kind.name, nonceLength: nonceLength, combined: box,
                        aad: aad)
    }

    private static func checkNonce(_ nonce: UnsafeRawBufferPointer, _ kind: AEADCipher) throws(CryptoError) {
        switch kind {
        case .aesGCM:
            // OpenSSL 3's GCM takes IVs of at most 128 bytes (GCM_IV_MAX_SIZE); a longer one is a parameter error
            // here rather than a library failure.
            guard nonce.count >= nonceByteCount, nonce.count <= 128 else {
                throw .invalidNonceSize(expected: nonceByteCount, actual: nonce.count)
            }
        case .chaChaPoly:
            guard nonce.count == nonceByteCount else { throw .invalidNonceSize(expected: nonceByteCount, actual: nonce.count) }
        }
    }

    /// Starts an operation on `ctx`: with `cipher` and `key` for a fresh context (and the nonce length set when it
    /// is not 12), or both nil for a context already keyed (12-byte nonces only).
    private static func begin(_ ctx: OpaquePointer, cipher: OpaquePointer?, key: UnsafeRawBufferPointer?,
                              nonce: UnsafeRawBufferPointer, encrypt: Bool) -> Bool {
        let keyPointer = key?.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let noncePointer = ContiguousInput.pointer(nonce).assumingMemoryBound(to: UInt8.self)
        if nonce.count == nonceByteCount || cipher == nil {
            return EVP_CipherInit_ex2(ctx, cipher, keyPointer, noncePointer, encrypt ? 1 : 0, nil) == 1
        }
        return EVP_CipherInit_ex2(ctx, cipher, nil, nil, encrypt ? 1 : 0, nil) == 1
            && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil) == 1
            && EVP_CipherInit_ex2(ctx, nil, keyPointer, noncePointer, encrypt ? 1 : 0, nil) == 1
    }

    /// One seal on `ctx` (fresh with `cipher` and `key`, or already keyed with both nil).
    private static func seal(
        _ ctx: OpaquePointer, cipher: OpaquePointer?, key: UnsafeRawBufferPointer?, name: StaticString,
        nonce: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Data {
        guard plaintext.count <= maximumInputByteCount, aad.count <= maximumInputByteCount else {
            throw .inputTooLarge(limit: maximumInputByteCount)
        }
        guard begin(ctx, cipher: cipher, key: key, nonce: nonce, encrypt: true) else {
            ERR_clear_error(); throw .libraryFailure("EVP_EncryptInit_ex2(\(name))")
        }
        var written: Int32 = 0
        if aad.count > 0 {
            guard EVP_EncryptUpdate(ctx, nil, &written, aad.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                    Int32(aad.count)) == 1
            else { throw .libraryFailure("EVP_EncryptUpdate(aad)") }
        }
        let count = plaintext.count
        let nonceLength = nonce.count
        return try DataOutput.make(count: nonceLength + count + tagByteCount) { (out) throws(CryptoError) in
            guard let base = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                throw .libraryFailure("malloc")
            }
            base.update(from: ContiguousInput.pointer(nonce).assumingMemoryBound(to: UInt8.self), count: nonceLength)
            let body = base + nonceLength
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
        nonceLength: Int, combined: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Data {
        guard combined.count >= nonceLength + tagByteCount,
              let base = combined.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw .malformedInput("sealed box shorter than \(nonceLength + tagByteCount) bytes")
        }
        guard combined.count - nonceLength - tagByteCount <= maximumInputByteCount, aad.count <= maximumInputByteCount else {
            throw .inputTooLarge(limit: maximumInputByteCount)
        }
        let count = combined.count - nonceLength - tagByteCount
        let body = base + nonceLength
        let tag = body + count
        guard begin(ctx, cipher: cipher, key: key, nonce: UnsafeRawBufferPointer(start: base, count: nonceLength),
                    encrypt: false)
        else { ERR_clear_error(); throw .libraryFailure("EVP_DecryptInit_ex2(\(name))") }
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
            guard verified, final == 0, Int(total) == count else { ERR_clear_error(); throw .authenticationFailure }
        }
    }
}

/// AES key wrap (RFC 3394, the default IV) by OpenSSL's "AES-*-WRAP" ciphers: CryptoKit's `AES.KeyWrap`.
package enum AESKeyWrapEngine {
    /// Wraps `key` (a multiple of 8 bytes, at least 16) under `kek` (16, 24 or 32 bytes).
    package static func wrap(_ key: UnsafeRawBufferPointer, kek: SecretBytes) throws(CryptoError) -> Data {
        guard key.count >= 16, key.count % 8 == 0 else { throw .invalidKeySize(expected: 16, actual: key.count) }
        return try run(key, kek: kek, encrypt: true, outputCount: key.count + 8)
    }

    /// Unwraps `wrapped` under `kek`; any change to the wrapped bytes or a wrong key throws `.authenticationFailure`.
    package static func unwrap(_ wrapped: UnsafeRawBufferPointer, kek: SecretBytes) throws(CryptoError) -> SecretBytes {
        guard wrapped.count >= 24, wrapped.count % 8 == 0 else { throw .malformedInput("wrapped key length") }
        let plain = try run(wrapped, kek: kek, encrypt: false, outputCount: wrapped.count - 8)
        return plain.withUnsafeBytes { SecretBytes(copying: $0) }
    }

    private static func run(_ input: UnsafeRawBufferPointer, kek: SecretBytes, encrypt: Bool,
                            outputCount: Int) throws(CryptoError) -> Data {
        let handle: EVPHandle
        switch kek.byteCount {
        case 16: handle = EVPHandles.aes128Wrap
        case 24: handle = EVPHandles.aes192Wrap
        case 32: handle = EVPHandles.aes256Wrap
        default: throw .invalidKeySize(expected: 32, actual: kek.byteCount)
        }
        guard let cipher = handle.pointer, let ctx = EVP_CIPHER_CTX_new() else { throw .libraryFailure("AES-WRAP") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        guard EVP_CipherInit_ex2(ctx, cipher, kek.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), nil,
                                 encrypt ? 1 : 0, nil) == 1
        else { ERR_clear_error(); throw .libraryFailure("EVP_CipherInit_ex2(AES-WRAP)") }
        // Room for a block more than the result: OpenSSL checks the output space against the input's size.
        return try DataOutput.make(count: outputCount) { (out) throws(CryptoError) in
            try withUnsafeTemporaryAllocation(byteCount: input.count + 16, alignment: 16) { (scratch) throws(CryptoError) in
                defer { scratch.initializeMemory(as: UInt8.self, repeating: 0) }
                var written: Int32 = 0
                var final: Int32 = 0
                let base = scratch.baseAddress!.assumingMemoryBound(to: UInt8.self)
                guard EVP_CipherUpdate(ctx, base, &written, input.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                       Int32(input.count)) == 1,
                      EVP_CipherFinal_ex(ctx, base + Int(written), &final) == 1,
                      Int(written + final) == outputCount
                else { ERR_clear_error(); throw encrypt ? CryptoError.libraryFailure("AES-WRAP") : .authenticationFailure }
                out.copyMemory(from: UnsafeRawBufferPointer(start: base, count: outputCount))
            }
        }
    }
}
