import COpenSSL
import Foundation

/// HMAC (RFC 2104) with SHA-256, SHA-384 or SHA-512, by OpenSSL `EVP_MAC`.
public enum HMAC {
    /// The full-length authentication code of `data` under `key`.
    public static func authenticationCode(
        for data: some DataProtocol, using key: SymmetricKey, algorithm: HashAlgorithm = .sha256
    ) -> Data {
        ContiguousInput.with(data) { input in
            key.withBytes { keyBytes in
                compute(input, key: keyBytes, algorithm: algorithm)
            }
        }
    }

    /// The full-length authentication code of `data` under `key` (fast path for `Data`).
    public static func authenticationCode(
        for data: Data, using key: SymmetricKey, algorithm: HashAlgorithm = .sha256
    ) -> Data {
        data.withUnsafeBytes { input in
            key.withBytes { keyBytes in
                compute(input, key: keyBytes, algorithm: algorithm)
            }
        }
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

    /// One HMAC over raw buffers. Returns an empty value only if OpenSSL fails (out of memory).
    static func compute(_ input: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, algorithm: HashAlgorithm) -> Data {
        let size = algorithm.outputByteCount
        var ok = false
        let out = DataOutput.make(count: size) { outBuffer in
            guard let outBase = outBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            if let mac = EVPHandles.hmac.pointer, let ctx = EVP_MAC_CTX_new(mac) {
                defer { EVP_MAC_CTX_free(ctx) }
                var params = (
                    OSSL_PARAM_construct_utf8_string(StaticCString.pointer("digest"), algorithm.openSSLName, 0),
                    OSSL_PARAM_construct_end())
                let initialized = withUnsafeMutableBytes(of: &params) { raw in
                    EVP_MAC_init(ctx, ContiguousInput.pointer(key).assumingMemoryBound(to: UInt8.self), key.count,
                                 raw.baseAddress?.assumingMemoryBound(to: OSSL_PARAM.self))
                }
                var written = 0
                ok = initialized == 1
                    && EVP_MAC_update(ctx, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count) == 1
                    && EVP_MAC_final(ctx, outBase, &written, size) == 1
                    && written == size
                return
            }
            // Fallback when the fetched EVP_MAC is unavailable: OpenSSL's one-shot HMAC().
            var length: UInt32 = 0
            let result = COpenSSL.HMAC(algorithm.evpMD, ContiguousInput.pointer(key), Int32(clamping: key.count),
                                       input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                                       outBase, &length)
            ok = result != nil && Int(length) == size
        }
        return ok ? out : Data()
    }
}
