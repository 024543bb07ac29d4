import Foundation
import Security
import XCTest

/// P-256 keys the way CryptoKit-less tutorials use SecKey. (Secure Enclave keys, `kSecAttrTokenIDSecureEnclave`, are made
/// in a TPM: Tests/SecureEnclaveTests/Security, on swtpm.)
final class SecKeyTests: XCTestCase {
    override func setUpWithError() throws {
        TestEnvironment.useMemoryKeychain()
        try TestEnvironment.useSimulator()
    }

    func makeKey(permanent: Bool = false, tag: String = "com.example.key") throws -> SecKey {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: permanent,
                kSecAttrApplicationTag as String: tag.data(using: .utf8)!,
            ],
        ]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
            throw error!.takeRetainedValue() as Error
        }
        return key
    }

    func testSignAndVerify() throws {
        let privateKey = try makeKey()
        let publicKey = SecKeyCopyPublicKey(privateKey)!
        let message = "hello".data(using: .utf8)!
        let algorithm: SecKeyAlgorithm = .ecdsaSignatureMessageX962SHA256
        XCTAssertTrue(SecKeyIsAlgorithmSupported(privateKey, .sign, algorithm))
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(privateKey, algorithm, message as CFData, &error) as Data? else {
            return XCTFail("signing failed")
        }
        XCTAssertTrue(SecKeyVerifySignature(publicKey, algorithm, message as CFData, signature as CFData, &error))
        XCTAssertFalse(SecKeyVerifySignature(publicKey, algorithm, "other".data(using: .utf8)! as CFData,
                                             signature as CFData, &error))
        XCTAssertEqual((error!.takeRetainedValue() as Error as NSError).code, Int(errSecVerifyFailed))
    }

    func testExternalRepresentationRoundTrip() throws {
        let privateKey = try makeKey()
        var error: Unmanaged<CFError>?
        let privateData = SecKeyCopyExternalRepresentation(privateKey, &error)! as Data
        XCTAssertEqual(privateData.count, 97)
        XCTAssertEqual(privateData.first, 0x04)
        let publicData = SecKeyCopyExternalRepresentation(SecKeyCopyPublicKey(privateKey)!, &error)! as Data
        XCTAssertEqual(publicData.count, 65)
        XCTAssertEqual(publicData, privateData.prefix(65))

        let publicAttributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeEC,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
            kSecAttrKeySizeInBits as String: 256,
        ]
        let restoredPublic = SecKeyCreateWithData(publicData as CFData, publicAttributes as CFDictionary, &error)!
        let privateAttributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
        ]
        let restoredPrivate = SecKeyCreateWithData(privateData as CFData, privateAttributes as CFDictionary, &error)!
        let message = Data("m".utf8)
        let signature = SecKeyCreateSignature(restoredPrivate, .ecdsaSignatureMessageX962SHA256, message as CFData, &error)!
        XCTAssertTrue(SecKeyVerifySignature(restoredPublic, .ecdsaSignatureMessageX962SHA256, message as CFData, signature, &error))
        XCTAssertNil(SecKeyCreateWithData(Data([1, 2, 3]) as CFData, publicAttributes as CFDictionary, &error))
    }

    func testPermanentKeyFoundByTag() throws {
        let key = try makeKey(permanent: true, tag: "com.example.signing")
        let query: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: "com.example.signing".data(using: .utf8)!,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecReturnRef as String: true,
        ]
        var item: CFTypeRef?
        XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &item), errSecSuccess)
        XCTAssertEqual(CFGetTypeID(item), SecKeyGetTypeID())
        let found = item as! SecKey
        XCTAssertEqual(found, key)
        XCTAssertEqual(CFGetTypeID(Data() as CFData), CFDataGetTypeID())
        XCTAssertNotEqual(CFGetTypeID(Data() as CFData), SecKeyGetTypeID())
        var error: Unmanaged<CFError>?
        let signature = SecKeyCreateSignature(found, .ecdsaSignatureMessageX962SHA256, Data("x".utf8) as CFData, &error)
        XCTAssertNotNil(signature)
    }

    func testAddKeyWithValueRef() throws {
        let key = try makeKey()
        let add: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: Data("ref".utf8),
            kSecValueRef as String: key,
        ]
        XCTAssertEqual(SecItemAdd(add as CFDictionary, nil), errSecSuccess)
        let query: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: Data("ref".utf8),
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
            kSecReturnRef as String: true,
        ]
        var item: CFTypeRef?
        XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &item), errSecSuccess)
        XCTAssertEqual(item as? SecKey, key)
    }
}
