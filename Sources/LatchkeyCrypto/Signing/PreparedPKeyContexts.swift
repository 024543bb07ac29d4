import COpenSSL
import LatchkeySupport

/// `EVP_PKEY_CTX`s of one key, initialized once for signing and once for verifying a digest, kept as long as
/// the key itself and freed with it.
///
/// `EVP_DigestSignInit` / `EVP_DigestVerifyInit` made a new `EVP_PKEY_CTX` per call, fetched the signature
/// algorithm and set the digest (≈ 25 k instructions, about a tenth of an ES256 signature). OpenSSL documents
/// that `EVP_PKEY_sign` and `EVP_PKEY_verify` "can be called more than once on the same context if several
/// operations are performed using the same parameters", so a key keeps one context per operation, initialized
/// with `EVP_PKEY_sign_init` / `EVP_PKEY_verify_init` and `EVP_PKEY_CTX_set_signature_md`, and each call
/// hashes the message with one `EVP_Digest` and signs or verifies that digest. ECDSA nonces still come from
/// OpenSSL inside every `EVP_PKEY_sign`; nothing of one call is kept for the next.
///
/// The contexts hold a reference to the key (and, for a private key, reach its scalar), so they live exactly
/// as long as the `EVPKey` and are freed with it. They sit behind a lock: a thread that finds a context in use
/// makes a one-shot one instead of waiting, so concurrent use of one key never serializes.
struct PreparedPKeyContexts: ~Copyable {
    var sign: PreparedPKeyContext?
    var verify: PreparedPKeyContext?

    deinit {
        if let sign { EVP_PKEY_CTX_free(sign.context) }
        if let verify { EVP_PKEY_CTX_free(verify.context) }
    }
}

/// An `EVP_PKEY_CTX` initialized for one operation with the digest `md`.
// @unchecked Sendable: the context is only used while its key's `prepared` mutex is held.
struct PreparedPKeyContext: @unchecked Sendable {
    let context: OpaquePointer
    let md: OpaquePointer
}

extension EVPKey {
    /// A signature operation on a precomputed digest.
    enum DigestOperation {
        case sign, verify
    }

    /// A new `EVP_PKEY_CTX` for `operation` on this key with the digest `md`, or nil (errors cleared).
    func newDigestContext(_ operation: DigestOperation, md: OpaquePointer) -> OpaquePointer? {
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else { ERR_clear_error(); return nil }
        let initialized = switch operation {
        case .sign: EVP_PKEY_sign_init(ctx)
        case .verify: EVP_PKEY_verify_init(ctx)
        }
        guard initialized == 1, EVP_PKEY_CTX_set_signature_md(ctx, md) == 1 else {
            EVP_PKEY_CTX_free(ctx)
            ERR_clear_error()
            return nil
        }
        return ctx
    }

    /// Runs `body` with this key's context for `operation` and `md` (made on first use), or with a one-shot
    /// context when the key's own is in use on another thread. Nil when OpenSSL cannot make a context.
    func withDigestContext<R: Sendable>(
        _ operation: DigestOperation, md: OpaquePointer, _ body: (OpaquePointer) -> R
    ) -> R? {
        let kept: R?? = prepared.withLockIfAvailable { slots -> R? in
            var slot = operation == .sign ? slots.sign : slots.verify
            if let current = slot, current.md != md {
                // Another digest than the one kept (not done by LatchkeyCrypto's curves): a one-shot context.
                return nil
            }
            if slot == nil {
                guard let ctx = newDigestContext(operation, md: md) else { return nil }
                slot = PreparedPKeyContext(context: ctx, md: md)
                if operation == .sign { slots.sign = slot } else { slots.verify = slot }
            }
            guard let slot else { return nil }
            return body(slot.context)
        }
        if let kept, let result = kept { return result }
        // Busy, or kept for another digest: a context of its own for this call.
        guard let ctx = newDigestContext(operation, md: md) else { return nil }
        defer { EVP_PKEY_CTX_free(ctx) }
        return body(ctx)
    }
}
