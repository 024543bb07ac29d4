import CryptoKit
import Foundation
import LatchkeyTestSupport
import LatchkeyKeychain
import LatchkeyTPM
import LocalAuthentication
import Security
import Testing

/// `SecKeyCreateRandomKey` with `kSecAttrTokenIDSecureEnclave`: the key is made and used in a swtpm of each test's own,
/// its keychain item (a vault file of the test's own) holds the TPM's blob; Apple's documented code runs unchanged
/// (AppCode/SecureEnclaveKeychainKey.swift).
@Suite(.offCooperativePool) struct SecKeySecureEnclaveTests {
    static let message = Data("POST /v1/transfer".utf8)

    @Test func applesDocumentedCodeRuns() async throws {
        try await KeychainOnTPM.run { _ in
            let stored = SecureEnclaveKeychainKey(tag: Data("com.example.keys.signing".utf8))
            let created = try stored.create()
            let key = try stored.load()
            #expect(key == created)
            let signature = try SecureEnclaveKeychainKey.sign(Self.message, with: key)
            #expect(try SecureEnclaveKeychainKey.verify(signature, of: Self.message, by: key))
            #expect(try !SecureEnclaveKeychainKey.verify(signature, of: Data("another".utf8), by: key))

            // ECDH with a software key: both sides derive the same 32 bytes.
            let peer = try #require(SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                                                          kSecAttrKeySizeInBits: 256] as NSDictionary, nil))
            let info = Data("session".utf8)
            let ours = try SecureEnclaveKeychainKey.sharedKey(key, with: try #require(SecKeyCopyPublicKey(peer)), sharedInfo: info)
            let theirs = try SecureEnclaveKeychainKey.sharedKey(peer, with: try #require(SecKeyCopyPublicKey(key)), sharedInfo: info)
            #expect(ours.count == 32 && ours == theirs)

            try stored.delete()
            #expect(throws: SecureEnclaveKeychainKey.Failure.keychain(errSecItemNotFound)) { try stored.load() }
        }
    }

    /// The item's attributes as Apple's keychain returns a Secure Enclave key's.
    @Test func itemAttributesAreApples() async throws {
        try await KeychainOnTPM.run { _ in
            let stored = SecureEnclaveKeychainKey(tag: Data("com.example.keys.attributes".utf8))
            let key = try stored.create()
            let attributes = try stored.attributes()
            #expect(attributes[kSecAttrTokenID as String] as? String == kSecAttrTokenIDSecureEnclave as String)
            #expect(attributes[kSecAttrApplicationTag as String] as? Data == stored.tag)
            let publicKey = try #require(SecKeyCopyPublicKey(key))
            let publicBytes = try #require(SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)
            #expect(attributes[kSecAttrApplicationLabel as String] as? Data == Data(Insecure.SHA1.hash(data: publicBytes)))
            #expect((attributes[kSecAttrKeyClass as String] as? NSNumber)?.intValue == 1)  // kSecAttrKeyClassPrivate
            #expect((attributes[kSecAttrKeyType as String] as? NSNumber)?.intValue == 73)  // kSecAttrKeyTypeECSECPrimeRandom
            #expect((attributes[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == 256)
            let access = try #require(attributes[kSecAttrAccessControl as String] as? SecAccessControl)
            #expect(access == SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil))
            #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String)

            // The key's own attributes say the same, and give its token object.
            let own = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            #expect(own[kSecAttrTokenID as String] as? String == kSecAttrTokenIDSecureEnclave as String)
            #expect(own[kSecAttrApplicationLabel as String] as? Data == attributes[kSecAttrApplicationLabel as String] as? Data)
            #expect(own[kSecAttrAccessControl as String] as? SecAccessControl == access)
            #expect(SecKeyGetBlockSize(key) == 32)
            // Found by its token too.
            let query: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                                        kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnRef as String: true]
            var found: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            #expect((found as? [SecKey]) == [key])
        }
    }

    /// The private key never leaves: no external representation (Apple's error), and the vault keeps the TPM's blob,
    /// which a second TPM cannot load.
    @Test func thePrivateKeyStaysInTheTPM() async throws {
        guard let other = try SoftwareTPM.start() else { return }
        let blob = try await KeychainOnTPM.run { keychain -> Data in
            let stored = SecureEnclaveKeychainKey(tag: Data("com.example.keys.blob".utf8))
            let key = try stored.create()
            var error: Unmanaged<CFError>?
            #expect(SecKeyCopyExternalRepresentation(key, &error) == nil)
            let failure = nsError(error)
            #expect(failure?.domain == NSOSStatusErrorDomain && failure?.code == Int(errSecUnimplemented))
            #expect(SecKeyCopyExternalRepresentation(try #require(SecKeyCopyPublicKey(key)), nil) != nil)

            // The item's value, as the vault keeps it: the TPM's blob, which CryptoKit's SecureEnclave keys also open
            // (Apple's "toid" bridge), here on the same TPM.
            var data: CFTypeRef?
            let query: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: stored.tag,
                                        kSecReturnData as String: true]
            #expect(SecItemCopyMatching(query as CFDictionary, &data) == errSecSuccess)
            let blob = try #require(data as? Data)
            #expect(blob.prefix(4) == Data("LKSE".utf8))
            #expect((SecKeyCopyAttributes(key) as? [String: Any])?["toid"] as? Data == blob)
            let signing = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
            let signature = try signing.signature(for: Self.message)
            #expect(SecKeyVerifySignature(try #require(SecKeyCopyPublicKey(key)), .ecdsaSignatureMessageX962SHA256,
                                          Self.message as CFData, signature.derRepresentation as CFData, nil))
            let agreement = try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: blob)
            #expect(agreement.publicKey.x963Representation == SecKeyCopyExternalRepresentation(SecKeyCopyPublicKey(key)!, nil) as Data?)
            _ = keychain
            return blob
        }
        guard let blob else { return }
        LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue(other.tcti) {
            #expect(throws: CryptoKitError.underlyingCoreCryptoError(error: errSecItemNotFound)) {
                try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
            }
        }
    }

    /// Every ECDSA form Apple's Secure Enclave keys sign — messages and digests of SHA-1, SHA-256, SHA-384, SHA-512 —
    /// verifies with OpenSSL through the public key; a digest of the wrong length is errSecParam.
    @Test func signsEveryECDSAForm() async throws {
        try await KeychainOnTPM.run { _ in
            let key = try SecureEnclaveKeychainKey(tag: Data("com.example.keys.forms".utf8)).create()
            let publicKey = try #require(SecKeyCopyPublicKey(key))
            let digests: [(SecKeyAlgorithm, Data)] = [
                (.ecdsaSignatureDigestX962SHA1, Data(Insecure.SHA1.hash(data: Self.message))),
                (.ecdsaSignatureDigestX962SHA256, Data(SHA256.hash(data: Self.message))),
                (.ecdsaSignatureDigestX962SHA384, Data(SHA384.hash(data: Self.message))),
                (.ecdsaSignatureDigestX962SHA512, Data(SHA512.hash(data: Self.message))),
            ]
            let messages: [SecKeyAlgorithm] = [.ecdsaSignatureMessageX962SHA1, .ecdsaSignatureMessageX962SHA256,
                                               .ecdsaSignatureMessageX962SHA384, .ecdsaSignatureMessageX962SHA512]
            for (algorithm, data) in digests.map({ ($0.0, $0.1) }) + messages.map({ ($0, Self.message) }) {
                #expect(SecKeyIsAlgorithmSupported(key, .sign, algorithm))
                var error: Unmanaged<CFError>?
                let signature = try #require(SecKeyCreateSignature(key, algorithm, data as CFData, &error), "\(algorithm.rawValue)")
                #expect(SecKeyVerifySignature(publicKey, algorithm, data as CFData, signature, nil), "\(algorithm.rawValue)")
                #expect(SecKeyVerifySignature(key, algorithm, data as CFData, signature, nil), "\(algorithm.rawValue)")
            }
            var error: Unmanaged<CFError>?
            #expect(SecKeyCreateSignature(key, .ecdsaSignatureDigestX962SHA256, Data(count: 20) as CFData, &error) == nil)
            #expect((nsError(error))?.code == Int(errSecParam))
        }
    }

    /// Only 256-bit EC keys exist in the Secure Enclave (errSecParam, as Apple), a permanent key is the default, and
    /// `.privateKeyUsage` outside it is errSecParam (Apple: "an attempt to use this constraint while generating a key
    /// pair outside the Secure Enclave fails").
    @Test func whatTheSecureEnclaveMakes() async throws {
        try await KeychainOnTPM.run { _ in
            for (type, bits) in [(kSecAttrKeyTypeRSA, 2048), (kSecAttrKeyTypeECSECPrimeRandom, 384)] {
                var error: Unmanaged<CFError>?
                let made = SecKeyCreateRandomKey([kSecAttrKeyType: type, kSecAttrKeySizeInBits: bits,
                                                  kSecAttrTokenID: kSecAttrTokenIDSecureEnclave] as NSDictionary, &error)
                #expect(made == nil && (nsError(error))?.code == Int(errSecParam))
            }
            // No kSecAttrIsPermanent: kept (Apple's default for token keys); false: not kept, until added by reference.
            let tag = Data("com.example.keys.default".utf8)
            let kept = try #require(SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeEC, kSecAttrKeySizeInBits: 256,
                                                           kSecAttrTokenID: kSecAttrTokenIDSecureEnclave,
                                                           kSecAttrApplicationTag: tag] as NSDictionary, nil))
            #expect(try SecureEnclaveKeychainKey(tag: tag).load() == kept)
            let ephemeralTag = Data("com.example.keys.ephemeral".utf8)
            let ephemeral = try #require(SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeEC, kSecAttrKeySizeInBits: 256,
                                                                kSecAttrTokenID: kSecAttrTokenIDSecureEnclave,
                                                                kSecPrivateKeyAttrs: [kSecAttrIsPermanent: false,
                                                                                      kSecAttrApplicationTag: ephemeralTag] as NSDictionary]
                                                               as NSDictionary, nil))
            #expect(throws: SecureEnclaveKeychainKey.Failure.keychain(errSecItemNotFound)) {
                try SecureEnclaveKeychainKey(tag: ephemeralTag).load()
            }
            let add: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: ephemeralTag,
                                      kSecValueRef as String: ephemeral]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let loaded = try SecureEnclaveKeychainKey(tag: ephemeralTag).load()
            #expect(try SecureEnclaveKeychainKey.verify(try SecureEnclaveKeychainKey.sign(Self.message, with: loaded),
                                                        of: Self.message, by: ephemeral))
            // A dictionary naming the token itself is refused: only the Secure Enclave's keys carry it.
            let forged: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                                         kSecValueData as String: Data("not a key".utf8)]
            #expect(SecItemAdd(forged as CFDictionary, nil) == errSecParam)

            var error: Unmanaged<CFError>?
            let access = try TestDevice.access(.privateKeyUsage)
            #expect(SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeEC, kSecAttrKeySizeInBits: 256,
                                           kSecPrivateKeyAttrs: [kSecAttrAccessControl: access] as NSDictionary] as NSDictionary,
                                          &error) == nil)
            #expect((nsError(error))?.code == Int(errSecParam))
        }
    }
}

/// Where there is no TPM, `kSecAttrTokenIDSecureEnclave` fails as on a simulator — errSecUnimplemented, as CryptoKit's
/// `SecureEnclave` does there — and nothing is made or kept: never a software key.
@Suite(.offCooperativePool) struct SecKeySecureEnclaveWithoutTPMTests {
    @Test func refusedWithErrSecUnimplemented() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread {
                continuation.resume(with: Result {
                    let store = MemoryStore()
                    store.unlock()
                    LatchkeySecurityConfiguration.threadStore = store
                    defer { LatchkeySecurityConfiguration.threadStore = nil }
                    LatchkeySecureEnclaveConfiguration.$taskTCTI.withValue("none") {
                        #expect(!SecureEnclave.isAvailable)
                        let stored = SecureEnclaveKeychainKey(tag: Data("com.example.keys.simulator".utf8))
                        #expect {
                            try stored.create()
                        } throws: { error in
                            (error as NSError).domain == NSOSStatusErrorDomain && (error as NSError).code == Int(errSecUnimplemented)
                        }
                        #expect(throws: SecureEnclaveKeychainKey.Failure.keychain(errSecItemNotFound)) { try stored.load() }
                    }
                })
            }.start()
        }
    }
}

/// The error a failed `SecKey…` call set, as an `NSError`.
func nsError(_ error: Unmanaged<CFError>?) -> NSError? {
    error.map { $0.takeRetainedValue() as any Error as NSError }
}
