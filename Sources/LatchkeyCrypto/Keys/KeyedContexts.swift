import COpenSSL
import LatchkeySupport

/// OpenSSL contexts already keyed with one `SymmetricKey`, kept as long as the key itself and freed with it.
///
/// Setting a key up costs more than a short message: an AES key schedule and GHASH table, or HMAC's
/// digest fetch and inner/outer pad blocks. A key used again (the vault's class and index keys, a session
/// key) reuses its context and only sets a new nonce (`EVP_CipherInit_ex2` with no cipher and no key) or
/// restarts from the stored pads (`EVP_MAC_init` with no key). The contexts hold key-derived state, so they
/// live exactly as long as the key bytes: `EVP_CIPHER_CTX_free` / `EVP_MAC_CTX_free` cleanse that state
/// when the key is released (OpenSSL clears provider contexts on free).
///
/// One context of each kind per key, behind a lock: a caller that finds it busy (another thread sealing
/// with the same key) uses a fresh one-shot context instead of waiting.
struct KeyedContextSlots: ~Copyable {
    /// A sealing and an opening context, each for the cipher it was keyed for.
    var seal: KeyedCipherContext?
    var open: KeyedCipherContext?
    /// HMAC contexts by digest (SHA-256, SHA-384, SHA-512).
    var hmac: (KeyedMACContext?, KeyedMACContext?, KeyedMACContext?) = (nil, nil, nil)

    deinit {
        if let seal { EVP_CIPHER_CTX_free(seal.context) }
        if let open { EVP_CIPHER_CTX_free(open.context) }
        if let mac = hmac.0 { EVP_MAC_CTX_free(mac.context) }
        if let mac = hmac.1 { EVP_MAC_CTX_free(mac.context) }
        if let mac = hmac.2 { EVP_MAC_CTX_free(mac.context) }
    }
}

/// An `EVP_CIPHER_CTX` and the fetched cipher it was keyed for.
// @unchecked Sendable: the context is only used while its key's `contexts` mutex is held.
struct KeyedCipherContext: @unchecked Sendable {
    let cipher: OpaquePointer
    let context: OpaquePointer
}

/// An `EVP_MAC_CTX` keyed for one digest.
// @unchecked Sendable: the context is only used while its key's `contexts` mutex is held.
struct KeyedMACContext: @unchecked Sendable {
    let context: OpaquePointer
}

/// The contexts live in `SymmetricKey.contexts` (a `Mutex`, inline in the key: no extra allocation).
extension SymmetricKey {
    /// Runs `body` with a cipher context keyed with this key for `cipher` (encrypting when `encrypt`), or
    /// returns nil when the key's context is in use by another thread (the caller then uses a fresh one).
    /// `body` must set the nonce before using the context (the previous call's state is left in it).
    func withCipherContext<R: Sendable, E: Error>(
        cipher: OpaquePointer, encrypt: Bool, _ body: (OpaquePointer) throws(E) -> R
    ) throws(E) -> R? {
        let key = keyBytes
        let outcome: Result<R, E>?? = contexts.withLockIfAvailable { slots -> Result<R, E>? in
            var slot = encrypt ? slots.seal : slots.open
            if let current = slot, current.cipher != cipher {
                EVP_CIPHER_CTX_free(current.context)
                slot = nil
                if encrypt { slots.seal = nil } else { slots.open = nil }
            }
            if slot == nil {
                guard let ctx = EVP_CIPHER_CTX_new() else { return nil }
                guard EVP_CipherInit_ex2(ctx, cipher, key.baseAddress?.assumingMemoryBound(to: UInt8.self), nil,
                                         encrypt ? 1 : 0, nil) == 1
                else {
                    EVP_CIPHER_CTX_free(ctx)
                    return nil
                }
                slot = KeyedCipherContext(cipher: cipher, context: ctx)
                if encrypt { slots.seal = slot } else { slots.open = slot }
            }
            guard let slot else { return nil }
            do throws(E) { return .success(try body(slot.context)) } catch { return .failure(error) }
        }
        guard let outcome, let result = outcome else { return nil }
        return try result.get()
    }

    /// Runs `body` with an HMAC context keyed with this key for `algorithm` and restarted (ready for
    /// `EVP_MAC_update`), or returns nil when it is busy or cannot be made.
    func withHMACContext<R: Sendable>(
        algorithm: HashAlgorithm, _ body: (OpaquePointer) -> R
    ) -> R? {
        let key = keyBytes
        let outcome: R?? = contexts.withLockIfAvailable { slots -> R? in
            var ctx: KeyedMACContext?
            switch algorithm {
            case .sha256: ctx = slots.hmac.0
            case .sha384: ctx = slots.hmac.1
            case .sha512: ctx = slots.hmac.2
            }
            if let existing = ctx {
                // No key: OpenSSL restarts from the inner and outer pads it kept.
                guard EVP_MAC_init(existing.context, nil, 0, nil) == 1 else { return nil }
            } else {
                guard let pointer = HMAC.newContext(key: key, algorithm: algorithm) else { return nil }
                let made = KeyedMACContext(context: pointer)
                switch algorithm {
                case .sha256: slots.hmac.0 = made
                case .sha384: slots.hmac.1 = made
                case .sha512: slots.hmac.2 = made
                }
                ctx = made
            }
            guard let ctx else { return nil }
            return body(ctx.context)
        }
        guard let outcome, let result = outcome else { return nil }
        return result
    }
}
