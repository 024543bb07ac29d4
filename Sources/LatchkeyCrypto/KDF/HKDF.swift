import COpenSSL
import Foundation

/// HKDF (RFC 5869) extract-and-expand, by OpenSSL `EVP_KDF` "HKDF".
public enum HKDF {
    /// Derives `outputByteCount` bytes (1 ... 255 × hash length) from `inputKeyMaterial`.
    /// An empty `salt` means HashLen zero bytes, as RFC 5869 §2.2 specifies.
    public static func deriveKey(
        inputKeyMaterial: SymmetricKey, salt: Data = Data(), info: Data = Data(),
        outputByteCount: Int, algorithm: HashAlgorithm = .sha256
    ) throws(CryptoError) -> SymmetricKey {
        let limit = 255 * algorithm.outputByteCount
        guard outputByteCount >= 1, outputByteCount <= limit else {
            throw .invalidParameter("HKDF output length must be 1...\(limit) bytes")
        }
        guard let kdf = EVPHandles.hkdf.pointer else { throw .libraryFailure("EVP_KDF_fetch(HKDF)") }
        return try SymmetricKey(uninitializedByteCount: outputByteCount) { (out) throws(CryptoError) in
            try inputKeyMaterial.withBytes { (ikm) throws(CryptoError) in
                try ContiguousInput.with(salt) { (saltBytes) throws(CryptoError) in
                    try ContiguousInput.with(info) { (infoBytes) throws(CryptoError) in
                        try derive(kdf: kdf, algorithm: algorithm, ikm: ikm, salt: saltBytes, info: infoBytes, into: out)
                    }
                }
            }
        }
    }

    private static func derive(
        kdf: OpaquePointer, algorithm: HashAlgorithm, ikm: UnsafeRawBufferPointer,
        salt: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        guard let ctx = EVP_KDF_CTX_new(kdf) else { throw .libraryFailure("EVP_KDF_CTX_new") }
        defer { EVP_KDF_CTX_free(ctx) }
        // At most five parameters, on the stack (no array allocation per derivation).
        let result = withUnsafeTemporaryAllocation(of: OSSL_PARAM.self, capacity: 5) { params in
            var count = 0
            func add(_ param: OSSL_PARAM) { params[count] = param; count += 1 }
            add(OSSL_PARAM_construct_utf8_string(StaticCString.pointer("digest"), algorithm.openSSLName, 0))
            add(OSSL_PARAM_construct_octet_string(
                StaticCString.pointer("key"), UnsafeMutableRawPointer(mutating: ContiguousInput.pointer(ikm)), ikm.count))
            if salt.count > 0 {
                add(OSSL_PARAM_construct_octet_string(
                    StaticCString.pointer("salt"), UnsafeMutableRawPointer(mutating: ContiguousInput.pointer(salt)),
                    salt.count))
            }
            if info.count > 0 {
                add(OSSL_PARAM_construct_octet_string(
                    StaticCString.pointer("info"), UnsafeMutableRawPointer(mutating: ContiguousInput.pointer(info)),
                    info.count))
            }
            add(OSSL_PARAM_construct_end())
            return EVP_KDF_derive(ctx, out.baseAddress?.assumingMemoryBound(to: UInt8.self), out.count, params.baseAddress)
        }
        guard result == 1 else { throw .libraryFailure("EVP_KDF_derive(HKDF)") }
    }
}
