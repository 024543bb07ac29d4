import COpenSSL
import Foundation
import LatchkeySupport

// ECDSA over a digest the caller has already computed (Security's `.ecdsaSignatureDigestX962SHA256`,
// PKCS#11-style signers, protocols that hash in pieces). OpenSSL's EVP_PKEY_sign / EVP_PKEY_verify do
// the arithmetic; the digest must be exactly the curve's hash size (32 bytes on P-256, 48 on P-384).
// Signing and verifying a message go through here too: one EVP_Digest, then the digest is signed or verified
// with the key's prepared context (see `PreparedPKeyContexts`).

extension ECCurve {
    /// Room for any DER signature of these curves (P-521: at most 3 + 2 × (2 + 67) = 141 bytes).
    package static let derSignatureCapacity = 144

    /// ECDSA signature of a digest (of this curve's hash size), as raw r||s and DER.
    package func signature(_ key: EVPKey, digest: UnsafeRawBufferPointer) throws(CryptoError)
        -> (raw: Data, der: Data)
    {
        guard let md = hash.evpMD else { throw .libraryFailure("EVP_MD_fetch") }
        return try withUnsafeTemporaryAllocation(byteCount: Self.derSignatureCapacity, alignment: 8) {
            (buffer) throws(CryptoError) -> (raw: Data, der: Data) in
            let length = try EVPSignature.signDigest(key, md: md, digest: digest, into: buffer)
            let der = UnsafeRawBufferPointer(rebasing: buffer[0..<length])
            return (try rawSignature(trustedDER: der), Data(der))
        }
    }

    /// ECDSA signature of `message` (hashed with this curve's hash), as raw r||s and DER.
    package func signature(_ key: EVPKey, message: UnsafeRawBufferPointer) throws(CryptoError)
        -> (raw: Data, der: Data)
    {
        let signed = try EVPSignature.withDigest(of: message, hash: hash) {
            (digest) throws(CryptoError) -> (raw: Data, der: Data) in
            try signature(key, digest: digest)
        }
        guard let signed else { throw .libraryFailure("EVP_Digest") }
        return signed
    }

    /// True when the DER `signature` is valid for `message` (hashed with this curve's hash) under `key`.
    package func isValid(_ key: EVPKey, derSignature signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> Bool {
        guard let md = hash.evpMD else { return false }
        return EVPSignature.withDigest(of: message, hash: hash) { digest in
            EVPSignature.verifyDigest(key, md: md, signature: signature, digest: digest)
        } ?? false
    }

    /// True when the raw r||s `signature` (JOSE, COSE) is valid for `message` under `key`: the DER form OpenSSL
    /// verifies is written on the stack, with no `Signature` value made.
    package func isValid(_ key: EVPKey, rawSignature signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> Bool {
        guard signature.count == 2 * size else { return false }
        return withUnsafeTemporaryAllocation(byteCount: Self.derSignatureCapacity, alignment: 8) { buffer in
            guard let length = derSignature(raw: signature, into: buffer) else { return false }
            return isValid(key, derSignature: UnsafeRawBufferPointer(rebasing: buffer[0..<length]), message: message)
        }
    }
}

extension EVPSignature {
    /// The largest digest LatchkeyCrypto computes (SHA-512).
    package static let maximumDigestByteCount = 64

    /// Hashes `message` with one `EVP_Digest` into a stack buffer and calls `body` with the digest.
    package static func withDigest<R, E: Error>(
        of message: UnsafeRawBufferPointer, hash: OpenSSLDigest, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R? {
        try withUnsafeTemporaryAllocation(byteCount: maximumDigestByteCount, alignment: 8) {
            (buffer) throws(E) -> R? in
            var length: UInt32 = 0
            guard EVP_Digest(ContiguousInput.pointer(message), message.count,
                             buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, hash.evpMD, nil) == 1,
                  Int(length) == hash.byteCount
            else { ERR_clear_error(); return nil }
            return try body(UnsafeRawBufferPointer(rebasing: buffer[0..<Int(length)]))
        }
    }

    /// `EVP_PKEY_sign` of a digest made with `md`, with the key's prepared context; writes the DER signature
    /// into `out` and returns its length.
    package static func signDigest(_ key: EVPKey, md: OpaquePointer, digest: UnsafeRawBufferPointer,
                           into out: UnsafeMutableRawBufferPointer) throws(CryptoError) -> Int {
        let written = key.withDigestContext(.sign, md: md) { ctx -> Int in
            var length = out.count
            guard EVP_PKEY_sign(ctx, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &length,
                                bytePointer(digest), digest.count) == 1, length > 0, length <= out.count
            else { ERR_clear_error(); return 0 }
            return length
        }
        guard let written, written > 0 else { throw .libraryFailure("EVP_PKEY_sign") }
        return written
    }

    /// `EVP_PKEY_verify` of a DER signature over a digest made with `md`, with the key's prepared context.
    package static func verifyDigest(_ key: EVPKey, md: OpaquePointer, signature: UnsafeRawBufferPointer,
                             digest: UnsafeRawBufferPointer) -> Bool {
        guard !signature.isEmpty else { return false }
        return key.withDigestContext(.verify, md: md) { ctx -> Bool in
            let status = EVP_PKEY_verify(ctx, bytePointer(signature), signature.count, bytePointer(digest), digest.count)
            if status != 1 { ERR_clear_error() }
            return status == 1
        } ?? false
    }
}
