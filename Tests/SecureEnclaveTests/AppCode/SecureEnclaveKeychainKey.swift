// App code as an iOS app keeps a Secure Enclave key with Security, after Apple's "Protecting keys with the Secure
// Enclave" and "Storing keys in the keychain": Foundation, Security and LocalAuthentication only, the same file for iOS
// and Linux (where the key lives in a TPM).
import Foundation
import LocalAuthentication
import Security

/// A P-256 key made in the Secure Enclave, kept in the keychain under an application tag, used to sign and to agree on
/// secrets.
struct SecureEnclaveKeychainKey {
    enum Failure: Error, Equatable {
        case keychain(OSStatus)
        case notAKey
    }

    let tag: Data

    /// Makes the key in the Secure Enclave and keeps it in the keychain; `flags` beyond `.privateKeyUsage` make each use
    /// ask (with `context`, when given, which is reused without asking again).
    @discardableResult
    func create(flags: SecAccessControlCreateFlags = .privateKeyUsage, context: LAContext? = nil) throws -> SecKey {
        let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                     flags, nil)!   // Ignore errors.
        let attributes: NSMutableDictionary = [
            kSecAttrKeyType: kSecAttrKeyTypeEC,
            kSecAttrKeySizeInBits: 256,
            kSecAttrTokenID: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs: [
                kSecAttrIsPermanent: true,
                kSecAttrApplicationTag: tag,
                kSecAttrAccessControl: access,
            ] as NSDictionary,
        ]
        if let context { attributes[kSecUseAuthenticationContext] = context }
        var error: Unmanaged<CFError>?
        guard let privateKey = SecKeyCreateRandomKey(attributes, &error) else {
            throw error!.takeRetainedValue() as any Error
        }
        return privateKey
    }

    /// The key from the keychain, by its tag.
    func load(context: LAContext? = nil, prompt: String? = nil) throws -> SecKey {
        var query: [String: Any] = [kSecClass as String: kSecClassKey,
                                    kSecAttrApplicationTag as String: tag,
                                    kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                    kSecReturnRef as String: true]
        if let context { query[kSecUseAuthenticationContext as String] = context }
        if let prompt { query[kSecUseOperationPrompt as String] = prompt }
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        guard status == errSecSuccess else { throw Failure.keychain(status) }
        guard let item, CFGetTypeID(item) == SecKeyGetTypeID() else { throw Failure.notAKey }
        return item as! SecKey
    }

    /// The key's attributes in the keychain.
    func attributes() throws -> [String: Any] {
        let query: [String: Any] = [kSecClass as String: kSecClassKey,
                                    kSecAttrApplicationTag as String: tag,
                                    kSecReturnAttributes as String: true]
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        guard status == errSecSuccess, let attributes = item as? [String: Any] else { throw Failure.keychain(status) }
        return attributes
    }

    /// Removes the key from the keychain.
    func delete() throws {
        let query: [String: Any] = [kSecClass as String: kSecClassKey,
                                    kSecAttrApplicationTag as String: tag]
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure.keychain(status) }
    }

    /// Signs `message` (ECDSA, SHA-256, X9.62 DER) with the private key.
    static func sign(_ message: Data, with privateKey: SecKey) throws -> Data {
        let algorithm: SecKeyAlgorithm = .ecdsaSignatureMessageX962SHA256
        guard SecKeyIsAlgorithmSupported(privateKey, .sign, algorithm) else { throw Failure.notAKey }
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(privateKey, algorithm, message as CFData, &error) as Data? else {
            throw error!.takeRetainedValue() as any Error
        }
        return signature
    }

    /// Whether `signature` is the private key's signature of `message`, checked with its public key.
    static func verify(_ signature: Data, of message: Data, by privateKey: SecKey) throws -> Bool {
        guard let publicKey = SecKeyCopyPublicKey(privateKey) else { throw Failure.notAKey }
        var error: Unmanaged<CFError>?
        return SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData,
                                     signature as CFData, &error)
    }

    /// 32 bytes agreed with `peer` (ECDH, then the ANSI X9.63 KDF with SHA-256).
    static func sharedKey(_ privateKey: SecKey, with peer: SecKey, sharedInfo: Data) throws -> Data {
        let parameters: [String: Any] = [SecKeyKeyExchangeParameter.requestedSize.rawValue as String: 32,
                                         SecKeyKeyExchangeParameter.sharedInfo.rawValue as String: sharedInfo]
        var error: Unmanaged<CFError>?
        guard let secret = SecKeyCopyKeyExchangeResult(privateKey, .ecdhKeyExchangeStandardX963SHA256, peer,
                                                       parameters as CFDictionary, &error) as Data? else {
            throw error!.takeRetainedValue() as any Error
        }
        return secret
    }
}
