#if LATCHKEY_APPLE_FRAMEWORKS
import CommonCrypto
import Foundation
import Security

// The Apple-frameworks backend of LatchkeyCrypto's own primitives: Security (`SecRandomCopyBytes`, `SecKey`) and
// CommonCrypto (`CCKeyDerivationPBKDF`). `CryptoBackend+OpenSSL.swift` is the same internal API on Linux. In the
// apple-frameworks build mode on Linux this file compiles against the package's Linux `Security` and `CommonCrypto`
// modules, so it is built and tested there too.

enum CryptoBackend {
    /// Fills `buffer` from the system CSPRNG (`SecRandomCopyBytes`, which fails only when the kernel cannot give
    /// randomness — where nothing safe can go on).
    static func fillRandom(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress,
              SecRandomCopyBytes(kSecRandomDefault, buffer.count, base) == errSecSuccess else {
            fatalError("SecRandomCopyBytes failed: the system random number generator is unavailable")
        }
    }

    /// Constant-time equality: every byte is read and the differences are OR-ed, with no early exit.
    static func constantTimeEquals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<a.count { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// PBKDF2-HMAC (CommonCrypto `CCKeyDerivationPBKDF`); the parameters were checked by `PBKDF2`.
    static func pbkdf2(password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, iterations: Int,
                       hash: HashAlgorithm, outputByteCount: Int) throws(CryptoError) -> SymmetricKey {
        let prf: Int = switch hash {
        case .sha256: kCCPRFHmacAlgSHA256
        case .sha384: kCCPRFHmacAlgSHA384
        case .sha512: kCCPRFHmacAlgSHA512
        }
        var out = [UInt8](repeating: 0, count: outputByteCount)
        defer { for index in out.indices { out[index] = 0 } }
        let status = CCKeyDerivationPBKDF(
            CCPBKDFAlgorithm(kCCPBKDF2), password.baseAddress?.assumingMemoryBound(to: CChar.self), password.count,
            salt.baseAddress?.assumingMemoryBound(to: UInt8.self), salt.count, CCPseudoRandomAlgorithm(prf),
            UInt32(iterations), &out, outputByteCount)
        guard status == Int32(kCCSuccess) else { throw .libraryFailure("CCKeyDerivationPBKDF (\(status))") }
        return SymmetricKey(data: out)
    }
}

/// An RSA key of the backend (a Security `SecKey`; DER conversions between Apple's PKCS#1 external representation
/// and SubjectPublicKeyInfo / PKCS#8 in `RSAKeyDER`).
struct RSABackendKey: @unchecked Sendable { // SecKey objects are immutable and documented as thread-safe
    private let key: SecKey
    private let isPrivate: Bool

    private init(_ key: SecKey, isPrivate: Bool) {
        self.key = key
        self.isPrivate = isPrivate
    }

    private static func make(pkcs1 der: Data, isPrivate: Bool) throws(CryptoError) -> RSABackendKey {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
            kSecAttrKeyClass as String: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic,
        ]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateWithData(der as CFData, attributes as CFDictionary, &error) else {
            error?.release()
            throw .malformedInput(isPrivate ? "RSA private key" : "RSA public key")
        }
        return RSABackendKey(key, isPrivate: isPrivate)
    }

    /// A public key from its modulus and exponent (big-endian, without leading zeros).
    init(modulus: Data, exponent: Data) throws(CryptoError) {
        self = try Self.make(pkcs1: RSAKeyDER.pkcs1PublicKey(modulus: modulus, exponent: exponent), isPrivate: false)
    }

    /// A public key from SubjectPublicKeyInfo or PKCS#1 `RSAPublicKey` DER.
    init(publicDER der: Data) throws(CryptoError) {
        self = try Self.make(pkcs1: RSAKeyDER.pkcs1PublicKey(fromSPKIOrPKCS1: der), isPrivate: false)
    }

    /// A private key from PKCS#8 `PrivateKeyInfo` or PKCS#1 `RSAPrivateKey` DER.
    init(privateDER der: Data) throws(CryptoError) {
        self = try Self.make(pkcs1: RSAKeyDER.pkcs1PrivateKey(fromPKCS8OrPKCS1: der), isPrivate: true)
    }

    /// A new random key of `bits` bits.
    static func generate(bits: Int) throws(CryptoError) -> RSABackendKey {
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: bits]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
            error?.release()
            throw .libraryFailure("SecKeyCreateRandomKey")
        }
        return RSABackendKey(key, isPrivate: true)
    }

    /// Apple's external representation: PKCS#1 `RSAPublicKey` (public) or `RSAPrivateKey` (private) DER.
    private func external() throws(CryptoError) -> Data {
        var error: Unmanaged<CFError>?
        guard let data = SecKeyCopyExternalRepresentation(key, &error) else {
            error?.release()
            throw .libraryFailure("SecKeyCopyExternalRepresentation")
        }
        return data as Data
    }

    var bits: Int { SecKeyGetBlockSize(key) * 8 }

    private func publicParts() throws(CryptoError) -> (modulus: Data, exponent: Data) {
        try RSAKeyDER.publicParts(pkcs1: try publicKey().external())
    }

    func modulus() throws(CryptoError) -> Data { try publicParts().modulus }
    func exponent() throws(CryptoError) -> Data { try publicParts().exponent }

    func publicKey() throws(CryptoError) -> RSABackendKey {
        guard isPrivate else { return self }
        guard let pub = SecKeyCopyPublicKey(key) else { throw .libraryFailure("SecKeyCopyPublicKey") }
        return RSABackendKey(pub, isPrivate: false)
    }

    func subjectPublicKeyInfo() throws(CryptoError) -> Data { RSAKeyDER.spki(pkcs1: try publicKey().external()) }
    func pkcs1PublicKey() throws(CryptoError) -> Data { try publicKey().external() }
    func pkcs8() throws(CryptoError) -> Data {
        guard isPrivate else { throw .invalidParameter("not a private key") }
        return RSAKeyDER.pkcs8(pkcs1: try external())
    }

    func isValidSignature(_ signature: Data, for message: Data, padding: RSA.Signing.Padding, hash: RSASignatureHash) -> Bool {
        var error: Unmanaged<CFError>?
        let valid = SecKeyVerifySignature(key, Self.algorithm(padding, hash), message as CFData, signature as CFData, &error)
        error?.release()
        return valid
    }

    func signature(for message: Data, padding: RSA.Signing.Padding, hash: RSASignatureHash) throws(CryptoError) -> Data {
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(key, Self.algorithm(padding, hash), message as CFData, &error) else {
            error?.release()
            throw .libraryFailure("SecKeyCreateSignature")
        }
        return signature as Data
    }

    private static func algorithm(_ padding: RSA.Signing.Padding, _ hash: RSASignatureHash) -> SecKeyAlgorithm {
        switch (padding, hash) {
        case (.pkcs1v15, .sha1): .rsaSignatureMessagePKCS1v15SHA1
        case (.pkcs1v15, .sha256): .rsaSignatureMessagePKCS1v15SHA256
        case (.pkcs1v15, .sha384): .rsaSignatureMessagePKCS1v15SHA384
        case (.pkcs1v15, .sha512): .rsaSignatureMessagePKCS1v15SHA512
        case (.pss, .sha1): .rsaSignatureMessagePSSSHA1
        case (.pss, .sha256): .rsaSignatureMessagePSSSHA256
        case (.pss, .sha384): .rsaSignatureMessagePSSSHA384
        case (.pss, .sha512): .rsaSignatureMessagePSSSHA512
        }
    }
}
#endif
