import Foundation
import Security
import XCTest

/// Apple's guide to encrypting with a key says: check `SecKeyIsAlgorithmSupported` first, then call
/// `SecKeyCreateEncryptedData`. On Linux the check answers false and the calls fail cleanly.
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
        XCTAssertFalse(SecKeyIsAlgorithmSupported(privateKey, .keyExchange, .ecdhKeyExchangeStandard))
        XCTAssertNil(SecKeyCopyKeyExchangeResult(privateKey, .ecdhKeyExchangeStandard, publicKey, [:] as CFDictionary, &error))
        XCTAssertEqual((error?.takeRetainedValue() as Error? as NSError?)?.code, Int(errSecUnimplemented))
    }
}
