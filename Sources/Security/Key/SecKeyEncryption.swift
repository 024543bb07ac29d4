#if os(Linux)
import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

// Encryption and key agreement with `SecKey`: RSA PKCS#1 v1.5 and OAEP (SHA-1/256/384/512), ECDH with the raw
// shared secret or one derived with the ANSI X9.63 KDF. ECIES is not implemented: those calls fail with
// errSecUnimplemented and `SecKeyIsAlgorithmSupported` answers false (the check Apple's documentation asks for).

private func fail(_ status: OSStatus, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    error?.pointee = Unmanaged.passRetained(SecurityErrors.error(status))
    return nil
}

/// `SecKeyCreateEncryptedData`: RSA encryption with a public (or private) RSA key.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public func SecKeyCreateEncryptedData(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: CFData,
                                      _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    guard case let .rsaEncryption(padding)? = algorithm.operation else { return fail(errSecUnimplemented, error) }
    guard case let .rsa(rsa, _) = key.material else { return fail(errSecParam, error) }
    guard let ciphertext = (plaintext as Data).withUnsafeBytes({ try? rsa.encrypt($0, padding: padding) }) else {
        return fail(errSecParam, error)
    }
    return NSData(data: ciphertext)
}

/// `SecKeyCreateDecryptedData`: RSA decryption with a private RSA key; a wrong key or padding → errSecDecode.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public func SecKeyCreateDecryptedData(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData,
                                      _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    guard case let .rsaEncryption(padding)? = algorithm.operation else { return fail(errSecUnimplemented, error) }
    guard case let .rsa(rsa, true) = key.material else { return fail(errSecParam, error) }
    guard let plaintext = (ciphertext as Data).withUnsafeBytes({ try? rsa.decrypt($0, padding: padding) }) else {
        return fail(errSecDecode, error)
    }
    return NSData(data: plaintext)
}

/// `SecKeyCopyKeyExchangeResult`: ECDH of an EC private key with a public key on the same curve — the raw shared
/// secret (`.ecdhKeyExchangeStandard`), or `SecKeyKeyExchangeParameter.requestedSize` bytes derived from it with
/// the ANSI X9.63 KDF and `SecKeyKeyExchangeParameter.sharedInfo` (`.ecdhKeyExchangeStandardX963SHA256`, ...). A Secure
/// Enclave key computes the secret in the TPM, after the evaluation its access control asks for.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public func SecKeyCopyKeyExchangeResult(_ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey,
                                        _ parameters: CFDictionary,
                                        _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    guard case let .ecdh(kdf)? = algorithm.operation else { return fail(errSecUnimplemented, error) }
    let p: NSDictionary = parameters
    let size = (p[kSecKeyKeyExchangeParameterRequestedSize] as? NSNumber)?.intValue
        ?? (p[kSecKeyKeyExchangeParameterRequestedSize] as? Int)
    if kdf != nil, (size ?? 0) <= 0 { return fail(errSecParam, error) }
    let secret: SecretBytes
    switch (privateKey.material, publicKey.material) {
    case let (.ec(curve, mine, true), .ec(peerCurve, peer, _)):
        guard curve == peerCurve, let computed = try? curve.sharedSecret(mine, peer: peer) else { return fail(errSecParam, error) }
        secret = computed
    case (.secureEnclave(let key), _):
        // The peer's point (a P-256 key, public or private; the TPM checks it is on the curve).
        guard !publicKey.isRSA, publicKey.bits == 256 else { return fail(errSecParam, error) }
        do throws(SecKeyFailure) {
            secret = try SecureEnclaveToken.use(key) { try $0.sharedSecret(peer: publicKey.publicBytes) }
        } catch let failure {
            failure.report(error)
            return nil
        }
    default:
        return fail(errSecParam, error)
    }
    guard let kdf, let size else { return NSData(data: Data(secret.bytes)) }
    let info = (p[kSecKeyKeyExchangeParameterSharedInfo] as? Data) ?? (p[kSecKeyKeyExchangeParameterSharedInfo] as? NSData).map { Data($0) }
        ?? Data()
    let derived = info.withUnsafeBytes { shared in
        try? X963KDFEngine.deriveKey(secret: secret.bytes, sharedInfo: shared, outputByteCount: size, digest: kdf)
    }
    guard let derived else { return fail(errSecParam, error) }
    return NSData(data: Data(derived.bytes))
}
#endif
