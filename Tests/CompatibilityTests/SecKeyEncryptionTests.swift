import Foundation
import Security
import XCTest

/// Apple's guide to encrypting with a key says: check `SecKeyIsAlgorithmSupported` first, then call
/// `SecKeyCreateEncryptedData`. On Linux ECIES is not implemented: the check answers false and the calls fail
/// cleanly; RSA encryption and ECDH are implemented.
final class SecKeyEncryptionTests: XCTestCase {
    func encrypt(_ message: String, to publicKey: SecKey) -> (Data?, OSStatus?) {
        let algorithm: SecKeyAlgorithm = .eciesEncryptionCofactorVariableIVX963SHA256AESGCM
        guard SecKeyIsAlgorithmSupported(publicKey, .encrypt, algorithm) else { return (nil, nil) }
        var error: Unmanaged<CFError>?
        let sealed = SecKeyCreateEncryptedData(publicKey, algorithm, Data(message.utf8) as CFData, &error)
        return (sealed as Data?, error.map { OSStatus(($0.takeRetainedValue() as Error as NSError).code) })
    }

    func testUnsupportedOperationsFailCleanly() throws {
        var error: Unmanaged<CFError>?
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                         kSecAttrKeySizeInBits as String: 256]
        let privateKey = try XCTUnwrap(SecKeyCreateRandomKey(attributes as CFDictionary, &error))
        let publicKey = try XCTUnwrap(SecKeyCopyPublicKey(privateKey))
        let (sealed, status) = encrypt("hello", to: publicKey)
        XCTAssertNil(sealed)
        XCTAssertNil(status, "the support check must stop the caller before it encrypts")

        let algorithm: SecKeyAlgorithm = .eciesEncryptionCofactorVariableIVX963SHA256AESGCM
        XCTAssertNil(SecKeyCreateEncryptedData(publicKey, algorithm, Data("x".utf8) as CFData, &error))
        XCTAssertEqual((error?.takeRetainedValue() as Error? as NSError?)?.code, Int(errSecUnimplemented))
        error = nil
        XCTAssertNil(SecKeyCreateDecryptedData(privateKey, algorithm, Data("x".utf8) as CFData, &error))
        XCTAssertNotNil(error?.takeRetainedValue())
        error = nil
        // ECDH is implemented: both sides of an exchange get the same secret.
        XCTAssertTrue(SecKeyIsAlgorithmSupported(privateKey, .keyExchange, .ecdhKeyExchangeStandard))
        let other = try XCTUnwrap(SecKeyCreateRandomKey(attributes as CFDictionary, &error))
        let otherPublic = try XCTUnwrap(SecKeyCopyPublicKey(other))
        let mine = try XCTUnwrap(SecKeyCopyKeyExchangeResult(privateKey, .ecdhKeyExchangeStandard, otherPublic,
                                                            [:] as CFDictionary, &error)) as Data
        let theirs = try XCTUnwrap(SecKeyCopyKeyExchangeResult(other, .ecdhKeyExchangeStandard, publicKey,
                                                              [:] as CFDictionary, &error)) as Data
        XCTAssertEqual(mine, theirs)
        XCTAssertEqual(mine.count, 32)
        let parameters = [kSecKeyKeyExchangeParameterRequestedSize as String: 48] as CFDictionary
        let derived = try XCTUnwrap(SecKeyCopyKeyExchangeResult(privateKey, .ecdhKeyExchangeStandardX963SHA256,
                                                               otherPublic, parameters, &error)) as Data
        XCTAssertEqual(derived.count, 48)
        // Apple's Swift spelling of the same parameter.
        let swiftParameters = [SecKeyKeyExchangeParameter.requestedSize.rawValue as String: 48] as CFDictionary
        XCTAssertEqual(try XCTUnwrap(SecKeyCopyKeyExchangeResult(privateKey, .ecdhKeyExchangeStandardX963SHA256,
                                                                 otherPublic, swiftParameters, &error)) as Data, derived)
    }

    func testRSAEncryptionAndSignatures() throws {
        var error: Unmanaged<CFError>?
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048]
        let privateKey = try XCTUnwrap(SecKeyCreateRandomKey(attributes as CFDictionary, &error))
        let publicKey = try XCTUnwrap(SecKeyCopyPublicKey(privateKey))
        XCTAssertEqual(SecKeyGetBlockSize(privateKey), 256)
        for algorithm in [SecKeyAlgorithm.rsaEncryptionOAEPSHA256, .rsaEncryptionOAEPSHA1, .rsaEncryptionPKCS1] {
            XCTAssertTrue(SecKeyIsAlgorithmSupported(publicKey, .encrypt, algorithm))
            let sealed = try XCTUnwrap(SecKeyCreateEncryptedData(publicKey, algorithm, Data("secret".utf8) as CFData, &error))
            let opened = try XCTUnwrap(SecKeyCreateDecryptedData(privateKey, algorithm, sealed, &error))
            XCTAssertEqual(opened as Data, Data("secret".utf8))
        }
        for algorithm in [SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256, .rsaSignatureMessagePSSSHA256,
                          .rsaSignatureMessagePKCS1v15SHA512] {
            let message = Data("signed".utf8) as CFData
            let signature = try XCTUnwrap(SecKeyCreateSignature(privateKey, algorithm, message, &error))
            XCTAssertTrue(SecKeyVerifySignature(publicKey, algorithm, message, signature, &error))
            XCTAssertFalse(SecKeyVerifySignature(publicKey, algorithm, Data("other".utf8) as CFData, signature, &error))
        }
        // The external representation is PKCS#1, and imports back to an equal key.
        let exported = try XCTUnwrap(SecKeyCopyExternalRepresentation(privateKey, &error))
        let imported = try XCTUnwrap(SecKeyCreateWithData(exported, [kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
                                                                     kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
                                                          as CFDictionary, &error))
        XCTAssertEqual(imported, privateKey)
    }
}
