#if !LATCHKEY_APPLE_FRAMEWORKS
import Foundation
import LatchkeyOpenSSL

// The Linux backend of LatchkeyCrypto's own primitives: OpenSSL 3 and libsodium through the package's engine
// (`LatchkeyOpenSSL`). `CryptoBackend+Apple.swift` is the same internal API over Security and CommonCrypto; the
// public types (`SecureRandom`, `ConstantTime`, `PBKDF2`, `RSA`) are written once against it.

enum CryptoBackend {
    /// Fills `buffer` from the operating system's CSPRNG (libsodium `randombytes_buf`).
    static func fillRandom(_ buffer: UnsafeMutableRawBufferPointer) { SodiumRandom.fill(buffer) }

    /// Constant-time equality of two buffers (OpenSSL `CRYPTO_memcmp`); different lengths are unequal.
    static func constantTimeEquals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        MemoryCompare.equals(a, b)
    }

    /// PBKDF2-HMAC (OpenSSL `PKCS5_PBKDF2_HMAC`); the parameters were checked by `PBKDF2`.
    static func pbkdf2(password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, iterations: Int,
                       hash: HashAlgorithm, outputByteCount: Int) throws(CryptoError) -> SymmetricKey {
        SymmetricKey(secret: try PBKDF2Engine.deriveKey(password: password, salt: salt, iterations: iterations,
                                                        digest: hash.openSSL, outputByteCount: outputByteCount))
    }
}

/// An RSA key of the backend (an OpenSSL `EVP_PKEY`).
struct RSABackendKey: Sendable {
    private let key: RSAKey

    private init(_ key: RSAKey) { self.key = key }

    /// A public key from its modulus and exponent (big-endian, without leading zeros).
    init(modulus: Data, exponent: Data) throws(CryptoError) {
        key = try RSAKey(modulus: modulus, exponent: exponent)
    }

    /// A public key from SubjectPublicKeyInfo or PKCS#1 `RSAPublicKey` DER.
    init(publicDER der: Data) throws(CryptoError) {
        do {
            key = try RSAKey(DERKeys.publicKey(spki: der))
        } catch {
            key = try RSAKey(DERKeys.rsaPublicKey(pkcs1: der))
        }
    }

    /// A private key from PKCS#8 `PrivateKeyInfo` or PKCS#1 `RSAPrivateKey` DER.
    init(privateDER der: Data) throws(CryptoError) {
        let parsed = try RSAKey(DERKeys.privateKey(der))
        guard parsed.isPrivate else { throw .malformedInput("RSA private key") }
        key = parsed
    }

    /// A new random key of `bits` bits (e = 65537).
    static func generate(bits: Int) throws(CryptoError) -> RSABackendKey {
        RSABackendKey(try RSAKey.generate(bits: bits))
    }

    var bits: Int { key.bits }
    func modulus() throws(CryptoError) -> Data { try key.modulus() }
    func exponent() throws(CryptoError) -> Data { try key.exponent() }
    func publicKey() throws(CryptoError) -> RSABackendKey { RSABackendKey(try key.publicOnly()) }
    func subjectPublicKeyInfo() throws(CryptoError) -> Data { try DERKeys.spki(of: key.key) }
    func pkcs1PublicKey() throws(CryptoError) -> Data { try DERKeys.rsaPKCS1(of: key.key) }
    func pkcs8() throws(CryptoError) -> Data { try DERKeys.pkcs8(of: key.key) }

    func isValidSignature(_ signature: Data, for message: Data, padding: RSA.Signing.Padding, hash: RSASignatureHash) -> Bool {
        signature.withUnsafeBytes { sig in
            message.withUnsafeBytes { key.isValidSignature(sig, for: $0, padding: padding.engine, digest: hash.engine) }
        }
    }

    func signature(for message: Data, padding: RSA.Signing.Padding, hash: RSASignatureHash) throws(CryptoError) -> Data {
        try ContiguousBytesInput.with(message) { (bytes) throws(CryptoError) in
            try key.signature(for: bytes, padding: padding.engine, digest: hash.engine)
        }
    }
}

extension RSA.Signing.Padding {
    var engine: RSAKey.Padding {
        switch self {
        case .pkcs1v15: .pkcs1v15
        case .pss: .pss
        }
    }
}

extension RSASignatureHash {
    var engine: OpenSSLDigest {
        switch self {
        case .sha1: .sha1
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }
}
#endif
