import COpenSSL
import Foundation
import LatchkeySupport

/// HMAC (RFC 2104) by OpenSSL `EVP_MAC`, with any `OpenSSLDigest`: one-shot over a key's kept context, and
/// incremental (`HMACState`, behind CryptoKit's `HMAC<H>` values).
package enum HMACEngine {
    /// The authentication code of `input` under `key` into `out` (exactly the digest's size), with the key's own
    /// keyed context (see `KeyedContextSlots`) or, when that is busy on another thread, a one-shot context.
    /// False only when OpenSSL failed.
    package static func compute(_ input: UnsafeRawBufferPointer, key: SecretBytes, digest: OpenSSLDigest,
                                into out: UnsafeMutableRawBufferPointer) -> Bool {
        let size = digest.byteCount
        guard out.count == size, let outBase = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        let keyed = key.withHMACContext(digest: digest) { ctx in
            var written = 0
            return EVP_MAC_update(ctx, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count) == 1
                && EVP_MAC_final(ctx, outBase, &written, size) == 1
                && written == size
        }
        return keyed ?? oneShot(input, key: key.bytes, digest: digest, into: outBase)
    }

    /// The authentication code as a new `Data` (empty only if OpenSSL fails).
    package static func compute(_ input: UnsafeRawBufferPointer, key: SecretBytes, digest: OpenSSLDigest) -> Data {
        var ok = false
        let out = DataOutput.make(count: digest.byteCount) { out in ok = compute(input, key: key, digest: digest, into: out) }
        return ok ? out : Data()
    }

    /// HMAC with a context made and freed for this one call.
    static func oneShot(_ input: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, digest: OpenSSLDigest,
                        into outBase: UnsafeMutablePointer<UInt8>) -> Bool {
        let size = digest.byteCount
        if let ctx = newContext(key: key, digest: digest) {
            defer { EVP_MAC_CTX_free(ctx) }
            var written = 0
            return EVP_MAC_update(ctx, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count) == 1
                && EVP_MAC_final(ctx, outBase, &written, size) == 1
                && written == size
        }
        // Fallback when the fetched EVP_MAC is unavailable: OpenSSL's one-shot HMAC().
        var length: UInt32 = 0
        let result = COpenSSL.HMAC(digest.evpMD, ContiguousInput.pointer(key), Int32(clamping: key.count),
                                   input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                                   outBase, &length)
        return result != nil && Int(length) == size
    }

    /// A new `EVP_MAC_CTX` initialized with `key` and `digest` (nil if OpenSSL fails).
    package static func newContext(key: UnsafeRawBufferPointer, digest: OpenSSLDigest) -> OpaquePointer? {
        guard let mac = EVPHandles.hmac.pointer, let ctx = EVP_MAC_CTX_new(mac) else { return nil }
        var params = (
            OSSL_PARAM_construct_utf8_string(StaticCString.pointer("digest"), digest.openSSLName, 0),
            OSSL_PARAM_construct_end())
        let initialized = withUnsafeMutableBytes(of: &params) { raw in
            EVP_MAC_init(ctx, ContiguousInput.pointer(key).assumingMemoryBound(to: UInt8.self), key.count,
                         raw.baseAddress?.assumingMemoryBound(to: OSSL_PARAM.self))
        }
        guard initialized == 1 else {
            EVP_MAC_CTX_free(ctx)
            ERR_clear_error()
            return nil
        }
        return ctx
    }
}

/// An incremental HMAC: a keyed `EVP_MAC_CTX` fed piece by piece. Copied (`EVP_MAC_CTX_dup`) before a change
/// when shared, so two copies of a CryptoKit `HMAC` value never see each other's input.
package final class HMACState {
    private var context: OpaquePointer?
    package let digest: OpenSSLDigest

    /// A context keyed with `key` (a failed OpenSSL call leaves no context: `finish` then answers false).
    package init(key: SecretBytes, digest: OpenSSLDigest) {
        self.digest = digest
        context = HMACEngine.newContext(key: key.bytes, digest: digest)
    }

    private init(copying other: HMACState) {
        digest = other.digest
        context = other.context.flatMap { EVP_MAC_CTX_dup($0) }
    }

    deinit { if let context { EVP_MAC_CTX_free(context) } }

    /// An independent state with the same key and input so far.
    package func copy() -> HMACState { HMACState(copying: self) }

    /// Feeds `input`.
    package func update(_ input: UnsafeRawBufferPointer) {
        guard let context, input.count > 0 else { return }
        if EVP_MAC_update(context, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count) != 1 {
            EVP_MAC_CTX_free(context)
            self.context = nil
        }
    }

    /// Finishes a copy of the state into `out` (exactly the digest's size); false when OpenSSL failed.
    package func finish(into out: UnsafeMutableRawBufferPointer) -> Bool {
        guard let context, let finished = EVP_MAC_CTX_dup(context) else { return false }
        defer { EVP_MAC_CTX_free(finished) }
        var written = 0
        return out.count == digest.byteCount
            && EVP_MAC_final(finished, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &written, out.count) == 1
            && written == out.count
    }
}
