import COpenSSL
import Foundation

// ECDSA over a digest the caller has already computed (Security's `.ecdsaSignatureDigestX962SHA256`,
// PKCS#11-style signers, protocols that hash in pieces). OpenSSL's EVP_PKEY_sign / EVP_PKEY_verify do
// the arithmetic; the digest must be exactly the curve's hash size (32 bytes on P-256, 48 on P-384).

extension ECDSA.PrivateKey {
    /// An ECDSA signature of `digest`, a precomputed hash of the curve's size (SHA-256 on P-256),
    /// randomized by OpenSSL. A digest of another length → `CryptoError.invalidParameter`.
    public func signature(forDigest digest: some DataProtocol) throws(CryptoError) -> ECDSA.Signature<Curve> {
        let hash = Curve.parameters.curve.hash
        let der = try EVPSignature.signDigest(key, md: hash.evpMD, expectedLength: hash.outputByteCount, digest: digest)
        return try ECDSA.Signature<Curve>(derRepresentation: der)
    }
}

extension ECDSA.PublicKey {
    /// True when `signature` is a valid ECDSA signature of the precomputed `digest` under this key
    /// (false, too, when the digest is not of the curve's hash size).
    public func isValidSignature(_ signature: ECDSA.Signature<Curve>, forDigest digest: some DataProtocol) -> Bool {
        let hash = Curve.parameters.curve.hash
        return EVPSignature.verifyDigest(key, md: hash.evpMD, expectedLength: hash.outputByteCount,
                                         signature: signature.derRepresentation, digest: digest)
    }
}

extension EVPSignature {
    /// `EVP_PKEY_sign` of a digest of `expectedLength` bytes; `md` names the hash that made it.
    static func signDigest(_ key: EVPKey, md: OpaquePointer?, expectedLength: Int,
                           digest: some DataProtocol) throws(CryptoError) -> Data {
        guard digest.count == expectedLength else {
            throw .invalidParameter("digest must be \(expectedLength) bytes, got \(digest.count)")
        }
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            ERR_clear_error(); throw .libraryFailure("EVP_PKEY_CTX_new_from_pkey")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_sign_init(ctx) == 1, EVP_PKEY_CTX_set_signature_md(ctx, md) == 1 else {
            ERR_clear_error(); throw .libraryFailure("EVP_PKEY_sign_init")
        }
        let signature: Data? = withContiguousBytes(of: digest) { tbs in
            var length = 0
            guard EVP_PKEY_sign(ctx, nil, &length, bytePointer(tbs), tbs.count) == 1, length > 0 else { return nil }
            var out = Data(count: length)
            let ok = out.withUnsafeMutableBytes { sig in
                EVP_PKEY_sign(ctx, sig.baseAddress?.assumingMemoryBound(to: UInt8.self), &length,
                              bytePointer(tbs), tbs.count)
            }
            guard ok == 1 else { return nil }
            out.count = length
            return out
        }
        guard let signature else { ERR_clear_error(); throw .libraryFailure("EVP_PKEY_sign") }
        return signature
    }

    /// `EVP_PKEY_verify` of a DER signature over a digest of `expectedLength` bytes.
    static func verifyDigest(_ key: EVPKey, md: OpaquePointer?, expectedLength: Int, signature: Data,
                             digest: some DataProtocol) -> Bool {
        guard digest.count == expectedLength, !signature.isEmpty else { return false }
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else { ERR_clear_error(); return false }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_verify_init(ctx) == 1, EVP_PKEY_CTX_set_signature_md(ctx, md) == 1 else {
            ERR_clear_error(); return false
        }
        let status = signature.withUnsafeBytes { sig in
            withContiguousBytes(of: digest) { tbs in
                EVP_PKEY_verify(ctx, bytePointer(sig), sig.count, bytePointer(tbs), tbs.count)
            }
        }
        if status != 1 { ERR_clear_error() }
        return status == 1
    }
}
