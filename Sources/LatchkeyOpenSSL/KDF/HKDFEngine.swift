import COpenSSL
import Foundation
import LatchkeySupport

/// HKDF (RFC 5869) extract-and-expand, by OpenSSL `EVP_KDF` "HKDF".
package enum HKDFEngine {
    /// Derives `outputByteCount` bytes (1 ... 255 × hash length) from `ikm`.
    /// An empty `salt` means HashLen zero bytes, as RFC 5869 §2.2 specifies.
    package static func deriveKey(
        ikm: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer,
        outputByteCount: Int, digest algorithm: OpenSSLDigest
    ) throws(CryptoError) -> SecretBytes {
        try checkOutputByteCount(outputByteCount, algorithm)
        guard let kdf = EVPHandles.hkdf.pointer else { throw .libraryFailure("EVP_KDF_fetch(HKDF)") }
        return try SecretBytes(uninitializedByteCount: outputByteCount) { (out) throws(CryptoError) in
            try derive(kdf: kdf, algorithm: algorithm, ikm: ikm, salt: salt, info: info, into: out)
        }
    }

    /// The HKDF extract step (RFC 5869 §2.2): a hash-length pseudorandom key from `ikm` and `salt` (empty: zeros).
    package static func extract(ikm: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
                                digest: OpenSSLDigest) throws(CryptoError) -> SecretBytes {
        try oneMode("EXTRACT_ONLY", key: ikm, salt: salt, info: nil, outputByteCount: digest.byteCount, digest: digest)
    }

    /// The HKDF expand step (RFC 5869 §2.3) of a pseudorandom key `prk` (at least hash-length bytes).
    package static func expand(prk: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer, outputByteCount: Int,
                               digest: OpenSSLDigest) throws(CryptoError) -> SecretBytes {
        try checkOutputByteCount(outputByteCount, digest)
        return try oneMode("EXPAND_ONLY", key: prk, salt: nil, info: info, outputByteCount: outputByteCount, digest: digest)
    }

    /// RFC 5869's bound on the output: 1 ... 255 × hash length bytes.
    private static func checkOutputByteCount(_ count: Int, _ digest: OpenSSLDigest) throws(CryptoError) {
        let limit = 255 * digest.byteCount
        guard count >= 1, count <= limit else { throw .invalidParameter("HKDF output length must be 1...\(limit) bytes") }
    }

    /// One derivation on a new context in OpenSSL's HKDF `mode`.
    private static func oneMode(_ mode: StaticString, key: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer?,
                                info: UnsafeRawBufferPointer?, outputByteCount: Int,
                                digest: OpenSSLDigest) throws(CryptoError) -> SecretBytes {
        guard let kdf = EVPHandles.hkdf.pointer, let ctx = EVP_KDF_CTX_new(kdf) else {
            ERR_clear_error(); throw .libraryFailure("EVP_KDF_CTX_new(HKDF)")
        }
        defer { EVP_KDF_CTX_free(ctx) }  // frees (and clears) the key copy
        return try SecretBytes(uninitializedByteCount: outputByteCount) { (out) throws(CryptoError) in
            let result = derive(ctx, digest: digest, mode: mode, ikm: key, salt: salt?.isEmpty == false ? salt : nil,
                                info: info?.isEmpty == false ? info : nil, into: out)
            guard result == 1 else { ERR_clear_error(); throw .libraryFailure("EVP_KDF_derive(HKDF \(mode))") }
        }
    }

    private static func derive(
        kdf: OpaquePointer, algorithm: OpenSSLDigest, ikm: UnsafeRawBufferPointer,
        salt: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        // The algorithm's kept context (digest already set), or — when another thread is using it, or there is no
        // info (see `HKDFContexts`) — one of its own.
        let kept: Int32?? = info.isEmpty ? nil : HKDFContexts.shared.withLockIfAvailable { slots -> Int32? in
            guard let ctx = slots.context(for: algorithm)?.pointer else { return nil }
            let result = run(ctx, kept: algorithm, ikm: ikm, salt: salt, info: info, into: out)
            if !HKDFContexts.cleanse(ctx) { slots.discard(algorithm) }
            return result
        }
        let result: Int32
        if let kept, let keptResult = kept {
            result = keptResult
        } else {
            guard let ctx = EVP_KDF_CTX_new(kdf) else { throw .libraryFailure("EVP_KDF_CTX_new") }
            defer { EVP_KDF_CTX_free(ctx) }  // frees (and clears) the key copy
            result = run(ctx, new: algorithm, ikm: ikm, salt: salt, info: info, into: out)
        }
        guard result == 1 else { ERR_clear_error(); throw .libraryFailure("EVP_KDF_derive(HKDF)") }
    }

    /// One `EVP_KDF_derive` on a new context: the digest named, an empty salt or info left out.
    private static func run(
        _ ctx: OpaquePointer, new algorithm: OpenSSLDigest, ikm: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
        info: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) -> Int32 {
        derive(ctx, digest: algorithm, ikm: ikm, salt: salt.isEmpty ? nil : salt, info: info.isEmpty ? nil : info,
               into: out)
    }

    /// One `EVP_KDF_derive` on the kept context of `algorithm` (whose digest is set; `info` is not empty). Salt and
    /// info are always passed, so nothing of a previous derivation is used; an empty salt is passed as HashLen
    /// zero bytes, which RFC 5869 §2.2 defines it to be (OpenSSL 3.0 mishandles a zero-length salt or info
    /// replacing a longer one: it kept the old length and read through a null pointer).
    private static func run(
        _ ctx: OpaquePointer, kept algorithm: OpenSSLDigest, ikm: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
        info: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) -> Int32 {
        guard salt.isEmpty else { return derive(ctx, digest: nil, ikm: ikm, salt: salt, info: info, into: out) }
        return withUnsafeTemporaryAllocation(byteCount: algorithm.byteCount, alignment: 8) { zeros in
            zeros.initializeMemory(as: UInt8.self, repeating: 0)
            return derive(ctx, digest: nil, ikm: ikm, salt: UnsafeRawBufferPointer(zeros), info: info, into: out)
        }
    }

    /// `EVP_KDF_derive` with its parameters on the stack (no array allocation per derivation); `digest` and `mode`
    /// nil: the context's own (a kept context has its digest; HKDF's default mode is extract-and-expand).
    private static func derive(
        _ ctx: OpaquePointer, digest: OpenSSLDigest?, mode: StaticString? = nil, ikm: UnsafeRawBufferPointer,
        salt: UnsafeRawBufferPointer?, info: UnsafeRawBufferPointer?, into out: UnsafeMutableRawBufferPointer
    ) -> Int32 {
        withUnsafeTemporaryAllocation(of: OSSL_PARAM.self, capacity: 6) { params in
            var count = 0
            func add(_ param: OSSL_PARAM) { params[count] = param; count += 1 }
            func octets(_ name: StaticString, _ bytes: UnsafeRawBufferPointer) {
                add(OSSL_PARAM_construct_octet_string(
                    StaticCString.pointer(name), UnsafeMutableRawPointer(mutating: ContiguousInput.pointer(bytes)),
                    bytes.count))
            }
            if let digest {
                add(OSSL_PARAM_construct_utf8_string(StaticCString.pointer("digest"), digest.openSSLName, 0))
            }
            if let mode { add(OSSL_PARAM_construct_utf8_string(StaticCString.pointer("mode"), StaticCString.pointer(mode), 0)) }
            octets("key", ikm)
            if let salt { octets("salt", salt) }
            if let info { octets("info", info) }
            add(OSSL_PARAM_construct_end())
            return EVP_KDF_derive(ctx, out.baseAddress?.assumingMemoryBound(to: UInt8.self), out.count, params.baseAddress)
        }
    }
}

/// One `EVP_KDF_CTX` per digest, kept with the digest set, so that a derivation does not fetch the digest by
/// name again (≈ 3.5 k instructions of ≈ 40 k, measured on OpenSSL 3.0, whose HKDF cannot be copied with
/// `EVP_KDF_CTX_dup`; `EVP_KDF_CTX_reset` would drop the digest too).
///
/// Input key material never stays in a kept context: right after every derivation the key is replaced by one
/// zero byte, and OpenSSL's HKDF frees a replaced key with `OPENSSL_clear_free` (zeroed); if that replacement
/// fails the context is freed, which clears it too. Between derivations a context holds the digest, that
/// dummy key and the last salt and info — RFC 5869's non-secret inputs — which the next derivation replaces.
/// Derivations without info use a new context: OpenSSL 3.0 cannot replace an info with an empty one (it kept
/// the old length and read through a null pointer). The contexts live as long as the process.
struct HKDFContexts: ~Copyable {
    var sha256, sha384, sha512, sha1, md5: KeptHKDFContext?

    static let shared = Locked(HKDFContexts())

    /// The kept context for `algorithm`, made on first use; nil when OpenSSL cannot make one.
    mutating func context(for algorithm: OpenSSLDigest) -> KeptHKDFContext? {
        if let existing = slot(algorithm) { return existing }
        guard let kdf = EVPHandles.hkdf.pointer, let ctx = EVP_KDF_CTX_new(kdf) else { ERR_clear_error(); return nil }
        var params = [OSSL_PARAM_construct_utf8_string(StaticCString.pointer("digest"), algorithm.openSSLName, 0),
                      OSSL_PARAM_construct_end()]
        guard EVP_KDF_CTX_set_params(ctx, &params) == 1 else {
            EVP_KDF_CTX_free(ctx)
            ERR_clear_error()
            return nil
        }
        let kept = KeptHKDFContext(pointer: ctx)
        set(algorithm, kept)
        return kept
    }

    /// Frees (and so clears) the kept context for `algorithm`.
    mutating func discard(_ algorithm: OpenSSLDigest) {
        if let ctx = slot(algorithm) { EVP_KDF_CTX_free(ctx.pointer) }
        set(algorithm, nil)
    }

    /// Replaces the key of `ctx` with one zero byte (OpenSSL zeroes and frees the replaced key). False when
    /// OpenSSL refused, in which case the caller frees the context.
    static func cleanse(_ ctx: OpaquePointer) -> Bool {
        var zero: UInt8 = 0
        let ok = withUnsafeMutableBytes(of: &zero) { byte in
            var params = [OSSL_PARAM_construct_octet_string(StaticCString.pointer("key"), byte.baseAddress, 1),
                          OSSL_PARAM_construct_end()]
            return EVP_KDF_CTX_set_params(ctx, &params) == 1
        }
        if !ok { ERR_clear_error() }
        return ok
    }

    private func slot(_ algorithm: OpenSSLDigest) -> KeptHKDFContext? {
        switch algorithm {
        case .sha256: sha256
        case .sha384: sha384
        case .sha512: sha512
        case .sha1: sha1
        case .md5: md5
        }
    }

    private mutating func set(_ algorithm: OpenSSLDigest, _ ctx: KeptHKDFContext?) {
        switch algorithm {
        case .sha256: sha256 = ctx
        case .sha384: sha384 = ctx
        case .sha512: sha512 = ctx
        case .sha1: sha1 = ctx
        case .md5: md5 = ctx
        }
    }

    deinit {
        if let sha256 { EVP_KDF_CTX_free(sha256.pointer) }
        if let sha384 { EVP_KDF_CTX_free(sha384.pointer) }
        if let sha512 { EVP_KDF_CTX_free(sha512.pointer) }
        if let sha1 { EVP_KDF_CTX_free(sha1.pointer) }
        if let md5 { EVP_KDF_CTX_free(md5.pointer) }
    }
}

/// A kept HKDF context.
// @unchecked Sendable: the context is only used while `HKDFContexts.shared` is locked.
struct KeptHKDFContext: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// ANSI X9.63 key derivation (SEC 1 §3.6.1), by OpenSSL `EVP_KDF` "X963KDF": CryptoKit's
/// `SharedSecret.x963DerivedSymmetricKey`.
package enum X963KDFEngine {
    /// Derives `outputByteCount` bytes from the shared secret `secret` and `sharedInfo`.
    package static func deriveKey(secret: UnsafeRawBufferPointer, sharedInfo: UnsafeRawBufferPointer,
                                  outputByteCount: Int, digest: OpenSSLDigest) throws(CryptoError) -> SecretBytes {
        guard outputByteCount >= 1, outputByteCount <= (1 << 24) else {
            throw .invalidParameter("X9.63 KDF output length must be 1...\(1 << 24) bytes")
        }
        guard let kdf = EVPHandles.x963KDF.pointer, let ctx = EVP_KDF_CTX_new(kdf) else {
            ERR_clear_error(); throw .libraryFailure("EVP_KDF_fetch(X963KDF)")
        }
        defer { EVP_KDF_CTX_free(ctx) }
        return try SecretBytes(uninitializedByteCount: outputByteCount) { (out) throws(CryptoError) in
            let result = withUnsafeTemporaryAllocation(of: OSSL_PARAM.self, capacity: 4) { params in
                params[0] = OSSL_PARAM_construct_utf8_string(StaticCString.pointer("digest"), digest.openSSLName, 0)
                params[1] = OSSL_PARAM_construct_octet_string(
                    StaticCString.pointer("key"), UnsafeMutableRawPointer(mutating: ContiguousInput.pointer(secret)),
                    secret.count)
                params[2] = OSSL_PARAM_construct_octet_string(
                    StaticCString.pointer("info"),
                    UnsafeMutableRawPointer(mutating: ContiguousInput.pointer(sharedInfo)), sharedInfo.count)
                params[3] = OSSL_PARAM_construct_end()
                return EVP_KDF_derive(ctx, out.baseAddress?.assumingMemoryBound(to: UInt8.self), out.count,
                                      params.baseAddress)
            }
            guard result == 1 else { ERR_clear_error(); throw .libraryFailure("EVP_KDF_derive(X963KDF)") }
        }
    }
}
