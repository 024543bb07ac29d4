import COpenSSL
import Foundation

/// HMAC (RFC 2104) with SHA-256, SHA-384 or SHA-512, by OpenSSL `EVP_MAC`.
public enum HMAC {
    /// The full-length authentication code of `data` under `key`.
    public static func authenticationCode(
        for data: some DataProtocol, using key: SymmetricKey, algorithm: HashAlgorithm = .sha256
    ) -> Data {
        ContiguousInput.with(data) { input in compute(input, key: key, algorithm: algorithm) }
    }

    /// The full-length authentication code of `data` under `key` (fast path for `Data`).
    public static func authenticationCode(
        for data: Data, using key: SymmetricKey, algorithm: HashAlgorithm = .sha256
    ) -> Data {
        data.withUnsafeBytes { input in compute(input, key: key, algorithm: algorithm) }
    }

    /// The full-length authentication code of raw `bytes` under `key` (for callers that build the message in
    /// their own buffer).
    public static func authenticationCode(
        bytes: UnsafeRawBufferPointer, using key: SymmetricKey, algorithm: HashAlgorithm = .sha256
    ) -> Data {
        compute(bytes, key: key, algorithm: algorithm)
    }

    /// True when `code` is the full-length authentication code of `data` under `key` (constant-time comparison).
    /// Truncated codes are rejected.
    public static func isValidAuthenticationCode(
        _ code: some DataProtocol, for data: some DataProtocol, using key: SymmetricKey,
        algorithm: HashAlgorithm = .sha256
    ) -> Bool {
        let expected = authenticationCode(for: data, using: key, algorithm: algorithm)
        guard expected.count == algorithm.outputByteCount, code.count == expected.count else { return false }
        return ConstantTime.equals(expected, code)
    }

    /// Same as the generic form (fast path for `Data`).
    public static func isValidAuthenticationCode(
        _ code: Data, for data: Data, using key: SymmetricKey, algorithm: HashAlgorithm = .sha256
    ) -> Bool {
        let expected = authenticationCode(for: data, using: key, algorithm: algorithm)
        guard expected.count == algorithm.outputByteCount, code.count == expected.count else { return false }
        return ConstantTime.equals(expected, code)
    }

    /// One HMAC over a raw buffer, with the key's own keyed context (see `KeyedContextSlots`) or, when
    /// that is busy on another thread, a one-shot context. Returns an empty value only if OpenSSL fails.
    static func compute(_ input: UnsafeRawBufferPointer, key: SymmetricKey, algorithm: HashAlgorithm) -> Data {
        let size = algorithm.outputByteCount
        var ok = false
        let out = DataOutput.make(count: size) { outBuffer in
            guard let outBase = outBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            let keyed = key.withHMACContext(algorithm: algorithm) { ctx in
                var written = 0
                return EVP_MAC_update(ctx, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count) == 1
                    && EVP_MAC_final(ctx, outBase, &written, size) == 1
                    && written == size
            }
            ok = keyed ?? oneShot(input, key: key.keyBytes, algorithm: algorithm, into: outBase)
        }
        return ok ? out : Data()
    }

    /// HMAC with a context made and freed for this one call.
    static func oneShot(_ input: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, algorithm: HashAlgorithm,
                        into outBase: UnsafeMutablePointer<UInt8>) -> Bool {
        let size = algorithm.outputByteCount
        if let ctx = newContext(key: key, algorithm: algorithm) {
            defer { EVP_MAC_CTX_free(ctx) }
            var written = 0
            return EVP_MAC_update(ctx, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count) == 1
                && EVP_MAC_final(ctx, outBase, &written, size) == 1
                && written == size
        }
        // Fallback when the fetched EVP_MAC is unavailable: OpenSSL's one-shot HMAC().
        var length: UInt32 = 0
        let result = COpenSSL.HMAC(algorithm.evpMD, ContiguousInput.pointer(key), Int32(clamping: key.count),
                                   input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                                   outBase, &length)
        return result != nil && Int(length) == size
    }

    /// A new `EVP_MAC_CTX` initialized with `key` and `algorithm`'s digest (nil if OpenSSL fails).
    static func newContext(key: UnsafeRawBufferPointer, algorithm: HashAlgorithm) -> OpaquePointer? {
        guard let mac = EVPHandles.hmac.pointer, let ctx = EVP_MAC_CTX_new(mac) else { return nil }
        var params = (
            OSSL_PARAM_construct_utf8_string(StaticCString.pointer("digest"), algorithm.openSSLName, 0),
            OSSL_PARAM_construct_end())
        let initialized = withUnsafeMutableBytes(of: &params) { raw in
            EVP_MAC_init(ctx, ContiguousInput.pointer(key).assumingMemoryBound(to: UInt8.self), key.count,
                         raw.baseAddress?.assumingMemoryBound(to: OSSL_PARAM.self))
        }
        guard initialized == 1 else {
            EVP_MAC_CTX_free(ctx)
            return nil
        }
        return ctx
    }
}
