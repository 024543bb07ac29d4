#if os(Linux)
import Foundation

// Encryption and key agreement with `SecKey`. They exist so code that has such paths compiles unchanged;
// LatchkeyCrypto offers no ECDH/ECIES, so each call fails with errSecUnimplemented and
// `SecKeyIsAlgorithmSupported` answers false for these operations (the check Apple's documentation asks for).

private func unimplemented(_ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    error?.pointee = Unmanaged.passRetained(SecurityErrors.error(errSecUnimplemented))
    return nil
}

/// `SecKeyCreateEncryptedData`: not supported on Linux (nil, errSecUnimplemented).
public func SecKeyCreateEncryptedData(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: CFData,
                                      _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    unimplemented(error)
}

/// `SecKeyCreateDecryptedData`: not supported on Linux (nil, errSecUnimplemented).
public func SecKeyCreateDecryptedData(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData,
                                      _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    unimplemented(error)
}

/// `SecKeyCopyKeyExchangeResult`: not supported on Linux (nil, errSecUnimplemented).
public func SecKeyCopyKeyExchangeResult(_ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey,
                                        _ parameters: CFDictionary,
                                        _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    unimplemented(error)
}
#endif
