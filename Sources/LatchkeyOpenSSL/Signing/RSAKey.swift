import COpenSSL
import Foundation
import LatchkeySupport

/// RSA keys by OpenSSL: PKCS#1 v1.5 and PSS signatures, PKCS#1 v1.5 and OAEP encryption — behind LatchkeyCrypto's
/// `RSA.Signing` and the `Security` facade's RSA `SecKey`s on Linux.
package struct RSAKey: Sendable {
    package let key: EVPKey

    /// The signature padding scheme.
    package enum Padding: Sendable, Hashable {
        /// RSASSA-PKCS1-v1_5.
        case pkcs1v15
        /// RSASSA-PSS with MGF1 over the same hash and a salt as long as the hash.
        case pss
    }

    /// The encryption padding scheme.
    package enum EncryptionPadding: Sendable, Hashable {
        /// RSAES-PKCS1-v1_5.
        case pkcs1
        /// RSAES-OAEP with MGF1 over the given hash and no label.
        case oaep(OpenSSLDigest)
    }

    package init(_ key: EVPKey) throws(CryptoError) {
        guard key.isA("RSA") else { throw .unsupportedAlgorithm("not an RSA key") }
        self.key = key
    }

    /// A public key from its modulus and exponent (big-endian, leading zeros removed by the caller).
    package init(modulus n: Data, exponent e: Data) throws(CryptoError) {
        let bn = try BIGNUMBox(n), be = try BIGNUMBox(e)
        try self.init(EVPKey.fromData(type: "RSA", selection: EVPKey.selectPublic) { bld in
            bld.bigNumber("n", bn) && bld.bigNumber("e", be)
        })
    }

    /// A new random key of `bits` bits (e = 65537).
    package static func generate(bits: Int) throws(CryptoError) -> RSAKey {
        try RSAKey(EVPKey.generate(type: "RSA") { EVP_PKEY_CTX_set_rsa_keygen_bits($0, Int32(bits)) == 1 })
    }

    /// The modulus size in bits.
    package var bits: Int { key.bits }
    /// The modulus n, big-endian without leading zeros.
    package func modulus() throws(CryptoError) -> Data { try key.bigNumber("n") }
    /// The public exponent e, big-endian without leading zeros.
    package func exponent() throws(CryptoError) -> Data { try key.bigNumber("e") }
    /// Whether the key holds the private half.
    package var isPrivate: Bool {
        var bn: OpaquePointer?
        defer { BN_clear_free(bn) }
        let found = EVP_PKEY_get_bn_param(key.pointer, "d", &bn) == 1
        ERR_clear_error()
        return found
    }

    /// The public half as its own key.
    package func publicOnly() throws(CryptoError) -> RSAKey { try RSAKey(DERKeys.publicOnly(key)) }

    /// True when `signature` is valid for `message` with this padding and hash.
    package func isValidSignature(_ signature: UnsafeRawBufferPointer, for message: UnsafeRawBufferPointer,
                                  padding: Padding, digest: OpenSSLDigest) -> Bool {
        guard signature.count == (bits + 7) / 8 else { return false }
        return EVPSignature.verify(key, md: digest.evpMD, signature: Data(signature), data: message) {
            Self.configure($0, padding: padding, digest: digest)
        }
    }

    /// True when `signature` is valid for the precomputed `digest` (of `digest.byteCount` bytes).
    package func isValidSignature(_ signature: UnsafeRawBufferPointer, forDigest digestBytes: UnsafeRawBufferPointer,
                                  padding: Padding, digest: OpenSSLDigest) -> Bool {
        guard signature.count == (bits + 7) / 8, digestBytes.count == digest.byteCount, let md = digest.evpMD else {
            return false
        }
        guard let ctx = newContext(verify: true, md: md, padding: padding, digest: digest) else { return false }
        defer { EVP_PKEY_CTX_free(ctx) }
        let status = EVP_PKEY_verify(ctx, bytePointer(signature), signature.count, bytePointer(digestBytes),
                                     digestBytes.count)
        if status != 1 { ERR_clear_error() }
        return status == 1
    }

    /// A signature of `message` with this padding and hash (private keys only).
    package func signature(for message: UnsafeRawBufferPointer, padding: Padding,
                           digest: OpenSSLDigest) throws(CryptoError) -> Data {
        try EVPSignature.sign(key, md: digest.evpMD, data: message) { Self.configure($0, padding: padding, digest: digest) }
    }

    /// A signature of the precomputed `digest` (private keys only).
    package func signature(forDigest digestBytes: UnsafeRawBufferPointer, padding: Padding,
                           digest: OpenSSLDigest) throws(CryptoError) -> Data {
        guard digestBytes.count == digest.byteCount, let md = digest.evpMD else {
            throw .invalidParameter("digest must be \(digest.byteCount) bytes, got \(digestBytes.count)")
        }
        guard let ctx = newContext(verify: false, md: md, padding: padding, digest: digest) else {
            throw .libraryFailure("EVP_PKEY_sign_init")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        var length = 0
        guard EVP_PKEY_sign(ctx, nil, &length, bytePointer(digestBytes), digestBytes.count) == 1, length > 0 else {
            ERR_clear_error(); throw .libraryFailure("EVP_PKEY_sign")
        }
        var out = Data(count: length)
        let ok = out.withUnsafeMutableBytes {
            EVP_PKEY_sign(ctx, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, bytePointer(digestBytes),
                          digestBytes.count)
        }
        guard ok == 1 else { ERR_clear_error(); throw .libraryFailure("EVP_PKEY_sign") }
        out.count = length
        return out
    }

    /// Encrypts `plaintext` (public key).
    package func encrypt(_ plaintext: UnsafeRawBufferPointer, padding: EncryptionPadding) throws(CryptoError) -> Data {
        try crypt(plaintext, encrypt: true, padding: padding)
    }

    /// Decrypts `ciphertext` (private key); a wrong padding or key throws `.authenticationFailure`.
    package func decrypt(_ ciphertext: UnsafeRawBufferPointer, padding: EncryptionPadding) throws(CryptoError) -> Data {
        try crypt(ciphertext, encrypt: false, padding: padding)
    }

    private func crypt(_ input: UnsafeRawBufferPointer, encrypt: Bool, padding: EncryptionPadding) throws(CryptoError) -> Data {
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else { throw .libraryFailure("EVP_PKEY_CTX_new") }
        defer { EVP_PKEY_CTX_free(ctx) }
        let initialized = encrypt ? EVP_PKEY_encrypt_init(ctx) : EVP_PKEY_decrypt_init(ctx)
        var configured = initialized == 1
        switch padding {
        case .pkcs1:
            configured = configured && EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) == 1
        case let .oaep(digest):
            configured = configured && EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_oaep_md(ctx, digest.evpMD) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, digest.evpMD) == 1
        }
        guard configured else { ERR_clear_error(); throw .libraryFailure("EVP_PKEY_CTX_set_rsa_padding") }
        var length = 0
        let run: (UnsafeMutablePointer<UInt8>?, inout Int) -> Int32 = { out, count in
            encrypt ? EVP_PKEY_encrypt(ctx, out, &count, bytePointer(input), input.count)
                : EVP_PKEY_decrypt(ctx, out, &count, bytePointer(input), input.count)
        }
        guard run(nil, &length) == 1, length > 0 else {
            ERR_clear_error(); throw encrypt ? CryptoError.invalidParameter("RSA input too long") : .authenticationFailure
        }
        var out = Data(count: length)
        let ok = out.withUnsafeMutableBytes { run($0.baseAddress?.assumingMemoryBound(to: UInt8.self), &length) }
        guard ok == 1 else {
            ERR_clear_error(); throw encrypt ? CryptoError.invalidParameter("RSA input too long") : .authenticationFailure
        }
        out.count = length
        return out
    }

    private func newContext(verify: Bool, md: OpaquePointer, padding: Padding, digest: OpenSSLDigest) -> OpaquePointer? {
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else { ERR_clear_error(); return nil }
        let initialized = verify ? EVP_PKEY_verify_init(ctx) : EVP_PKEY_sign_init(ctx)
        guard initialized == 1, EVP_PKEY_CTX_set_signature_md(ctx, md) == 1,
              Self.configure(ctx, padding: padding, digest: digest) else {
            EVP_PKEY_CTX_free(ctx)
            ERR_clear_error()
            return nil
        }
        return ctx
    }

    /// Sets padding, salt length and MGF1 digest on a sign/verify context.
    static func configure(_ pctx: OpaquePointer, padding: Padding, digest: OpenSSLDigest) -> Bool {
        switch padding {
        case .pkcs1v15:
            return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) == 1
        case .pss:
            return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, digest.evpMD) == 1
        }
    }
}
