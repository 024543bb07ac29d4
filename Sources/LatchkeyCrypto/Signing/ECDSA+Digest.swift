import COpenSSL
import Foundation

// ECDSA over a digest the caller has already computed (Security's `.ecdsaSignatureDigestX962SHA256`,
// PKCS#11-style signers, protocols that hash in pieces). OpenSSL's EVP_PKEY_sign / EVP_PKEY_verify do
// the arithmetic; the digest must be exactly the curve's hash size (32 bytes on P-256, 48 on P-384).
// Signing and verifying a message go through here too: one EVP_Digest, then the digest is signed or verified
// with the key's prepared context (see `PreparedPKeyContexts`).

extension ECDSA.PrivateKey {
    /// An ECDSA signature of `digest`, a precomputed hash of the curve's size (SHA-256 on P-256),
    /// randomized by OpenSSL. A digest of another length → `CryptoError.invalidParameter`.
    public func signature(forDigest digest: some DataProtocol) throws(CryptoError) -> ECDSA.Signature<Curve> {
        let curve = Curve.parameters.curve
        guard digest.count == curve.hash.outputByteCount else {
            throw .invalidParameter("digest must be \(curve.hash.outputByteCount) bytes, got \(digest.count)")
        }
        return try ContiguousInput.with(digest) { (bytes) throws(CryptoError) in
            try curve.signature(key, digest: bytes)
        }
    }

    /// An ECDSA signature of `digest` (CryptoKit's `signature(for:)` of a digest), which must be of the curve's
    /// hash (`SHA256.Digest` on P-256); another size → `CryptoError.invalidParameter`.
    public func signature<D: Digest>(for digest: D) throws(CryptoError) -> ECDSA.Signature<Curve> {
        let curve = Curve.parameters.curve
        guard D.byteCount == curve.hash.outputByteCount else {
            throw .invalidParameter("digest must be \(curve.hash.outputByteCount) bytes, got \(D.byteCount)")
        }
        return try digest.withUnsafeDigestBytes { (bytes) throws(CryptoError) in try curve.signature(key, digest: bytes) }
    }
}

extension ECDSA.PublicKey {
    /// True when `signature` is a valid ECDSA signature of the precomputed `digest` under this key
    /// (false, too, when the digest is not of the curve's hash size).
    public func isValidSignature(_ signature: ECDSA.Signature<Curve>, forDigest digest: some DataProtocol) -> Bool {
        let hash = Curve.parameters.curve.hash
        guard digest.count == hash.outputByteCount, let md = hash.evpMD else { return false }
        return ContiguousInput.with(digest) { bytes in
            signature.derRepresentation.withUnsafeBytes { der in
                EVPSignature.verifyDigest(key, md: md, signature: der, digest: bytes)
            }
        }
    }

    /// True when `signature` is a valid ECDSA signature of `digest` (CryptoKit's `isValidSignature(_:for:)` of a
    /// digest); false when the digest is not of the curve's hash size.
    public func isValidSignature<D: Digest>(_ signature: ECDSA.Signature<Curve>, for digest: D) -> Bool {
        let hash = Curve.parameters.curve.hash
        guard D.byteCount == hash.outputByteCount, let md = hash.evpMD else { return false }
        return digest.withUnsafeBytes { bytes in
            signature.derRepresentation.withUnsafeBytes { der in
                EVPSignature.verifyDigest(key, md: md, signature: der, digest: bytes)
            }
        }
    }
}

extension ECCurve {
    /// Room for any DER signature of these curves (P-384: at most 2 + 2 × (2 + 49) = 104 bytes).
    static let derSignatureCapacity = 112

    /// ECDSA signature of a digest of this curve's hash size, both forms.
    func signature<Curve: ECDSACurve>(_ key: EVPKey, digest: UnsafeRawBufferPointer) throws(CryptoError)
        -> ECDSA.Signature<Curve>
    {
        guard let md = hash.evpMD else { throw .libraryFailure("EVP_MD_fetch") }
        return try withUnsafeTemporaryAllocation(byteCount: Self.derSignatureCapacity, alignment: 8) {
            (buffer) throws(CryptoError) -> ECDSA.Signature<Curve> in
            let length = try EVPSignature.signDigest(key, md: md, digest: digest, into: buffer)
            let der = UnsafeRawBufferPointer(rebasing: buffer[0..<length])
            return ECDSA.Signature<Curve>(raw: try rawSignature(trustedDER: der), der: Data(der))
        }
    }

    /// ECDSA signature of `message` (hashed with this curve's hash), both forms.
    func signature<Curve: ECDSACurve>(_ key: EVPKey, message: UnsafeRawBufferPointer) throws(CryptoError)
        -> ECDSA.Signature<Curve>
    {
        let signed = try EVPSignature.withDigest(of: message, hash: hash) {
            (digest) throws(CryptoError) -> ECDSA.Signature<Curve> in
            try signature(key, digest: digest)
        }
        guard let signed else { throw .libraryFailure("EVP_Digest") }
        return signed
    }

    /// True when the DER `signature` is valid for `message` (hashed with this curve's hash) under `key`.
    func isValid(_ key: EVPKey, derSignature signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> Bool {
        guard let md = hash.evpMD else { return false }
        return EVPSignature.withDigest(of: message, hash: hash) { digest in
            EVPSignature.verifyDigest(key, md: md, signature: signature, digest: digest)
        } ?? false
    }

    /// True when the raw r||s `signature` (JOSE, COSE) is valid for `message` under `key`: the DER form OpenSSL
    /// verifies is written on the stack, with no `Signature` value made.
    func isValid(_ key: EVPKey, rawSignature signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> Bool {
        guard signature.count == 2 * size else { return false }
        return withUnsafeTemporaryAllocation(byteCount: Self.derSignatureCapacity, alignment: 8) { buffer in
            guard let length = derSignature(raw: signature, into: buffer) else { return false }
            return isValid(key, derSignature: UnsafeRawBufferPointer(rebasing: buffer[0..<length]), message: message)
        }
    }
}

extension EVPSignature {
    /// The largest digest LatchkeyCrypto computes (SHA-512).
    static let maximumDigestByteCount = 64

    /// Hashes `message` with one `EVP_Digest` into a stack buffer and calls `body` with the digest.
    static func withDigest<R, E: Error>(
        of message: UnsafeRawBufferPointer, hash: HashAlgorithm, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R? {
        try withUnsafeTemporaryAllocation(byteCount: maximumDigestByteCount, alignment: 8) {
            (buffer) throws(E) -> R? in
            var length: UInt32 = 0
            guard EVP_Digest(ContiguousInput.pointer(message), message.count,
                             buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, hash.evpMD, nil) == 1,
                  Int(length) == hash.outputByteCount
            else { ERR_clear_error(); return nil }
            return try body(UnsafeRawBufferPointer(rebasing: buffer[0..<Int(length)]))
        }
    }

    /// `EVP_PKEY_sign` of a digest made with `md`, with the key's prepared context; writes the DER signature
    /// into `out` and returns its length.
    static func signDigest(_ key: EVPKey, md: OpaquePointer, digest: UnsafeRawBufferPointer,
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
    static func verifyDigest(_ key: EVPKey, md: OpaquePointer, signature: UnsafeRawBufferPointer,
                             digest: UnsafeRawBufferPointer) -> Bool {
        guard !signature.isEmpty else { return false }
        return key.withDigestContext(.verify, md: md) { ctx -> Bool in
            let status = EVP_PKEY_verify(ctx, bytePointer(signature), signature.count, bytePointer(digest), digest.count)
            if status != 1 { ERR_clear_error() }
            return status == 1
        } ?? false
    }
}
