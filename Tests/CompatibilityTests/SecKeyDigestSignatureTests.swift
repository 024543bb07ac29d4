import Foundation
import Security
import XCTest

/// `.ecdsaSignatureDigestX962SHA256`: code that hashes first (in pieces, or on a server) and signs the digest.
final class SecKeyDigestSignatureTests: XCTestCase {
    let message = Data("pay 10 EUR to Alice".utf8)

    override func setUpWithError() throws {
        TestEnvironment.useMemoryKeychain()
    }

    func makeKey() throws -> SecKey {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
        ]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
            throw error!.takeRetainedValue() as Error
        }
        return key
    }

    /// SHA-256 by the `openssl` command (the Security module has no digest API of its own).
    func sha256(_ data: Data, in dir: URL) throws -> Data {
        try data.write(to: dir.appendingPathComponent("message"))
        try TestPKI.openssl(["dgst", "-sha256", "-binary", "-out", "digest", "message"], in: dir)
        return try Data(contentsOf: dir.appendingPathComponent("digest"))
    }

    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-sig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    func testDigestSignatureVerifiesAsAMessageSignatureHereAndInOpenSSL() throws {
        let dir = try temporaryDirectory()
        let privateKey = try makeKey()
        let publicKey = try XCTUnwrap(SecKeyCopyPublicKey(privateKey))
        let digest = try sha256(message, in: dir)
        XCTAssertEqual(digest.count, 32)
        let algorithm: SecKeyAlgorithm = .ecdsaSignatureDigestX962SHA256
        XCTAssertTrue(SecKeyIsAlgorithmSupported(privateKey, .sign, algorithm))
        XCTAssertTrue(SecKeyIsAlgorithmSupported(publicKey, .verify, algorithm))
        XCTAssertFalse(SecKeyIsAlgorithmSupported(publicKey, .sign, algorithm))

        var error: Unmanaged<CFError>?
        let signature = try XCTUnwrap(SecKeyCreateSignature(privateKey, algorithm, digest as CFData, &error) as Data?)
        XCTAssertEqual(signature.first, 0x30, "DER X9.62 ECDSA-Sig-Value")
        XCTAssertTrue(SecKeyVerifySignature(publicKey, algorithm, digest as CFData, signature as CFData, &error))
        XCTAssertTrue(SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData,
                                            signature as CFData, &error))

        // openssl dgst -sha256 -verify over the original message, with the key as SubjectPublicKeyInfo DER.
        let point = try XCTUnwrap(SecKeyCopyExternalRepresentation(publicKey, &error) as Data?)
        let p256SPKIPrefix = Data([0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
                                   0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00])
        try (p256SPKIPrefix + point).write(to: dir.appendingPathComponent("key.der"))
        try signature.write(to: dir.appendingPathComponent("sig.der"))
        let verdict = try TestPKI.openssl(["dgst", "-sha256", "-verify", "key.der", "-keyform", "DER",
                                           "-signature", "sig.der", "message"], in: dir)
        XCTAssertTrue(verdict.contains("Verified OK"), verdict)

        // And a message signature verifies over its digest.
        let messageSignature = try XCTUnwrap(SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256,
                                                                   message as CFData, &error) as Data?)
        XCTAssertTrue(SecKeyVerifySignature(publicKey, algorithm, digest as CFData, messageSignature as CFData, &error))
        var tampered = digest
        tampered[31] ^= 0x80
        XCTAssertFalse(SecKeyVerifySignature(publicKey, algorithm, tampered as CFData, signature as CFData, &error))
        XCTAssertEqual((error!.takeRetainedValue() as Error as NSError).code, Int(errSecVerifyFailed))
    }

    func testPublishedSignatureVerifies() throws {
        // RFC 6979 A.2.5: P-256 key, ECDSA-SHA-256 signature of "sample" (DER of r, s), and SHA-256("sample").
        let point = Data(hex: "04" + "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
            + "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299")
        let signature = Data(hex: "3046022100" + "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716"
            + "022100" + "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8")
        let digest = Data(hex: "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf")
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ]
        var error: Unmanaged<CFError>?
        let key = try XCTUnwrap(SecKeyCreateWithData(point as CFData, attributes as CFDictionary, &error))
        XCTAssertTrue(SecKeyVerifySignature(key, .ecdsaSignatureDigestX962SHA256, digest as CFData, signature as CFData, &error))
        XCTAssertTrue(SecKeyVerifySignature(key, .ecdsaSignatureMessageX962SHA256, Data("sample".utf8) as CFData,
                                            signature as CFData, &error))
        XCTAssertFalse(SecKeyVerifySignature(key, .ecdsaSignatureMessageX962SHA256, Data("Sample".utf8) as CFData,
                                             signature as CFData, &error))
    }

    func testWrongDigestLengthIsAParameterError() throws {
        let privateKey = try makeKey()
        let publicKey = try XCTUnwrap(SecKeyCopyPublicKey(privateKey))
        for length in [0, 20, 31, 33, 64] {
            var error: Unmanaged<CFError>?
            XCTAssertNil(SecKeyCreateSignature(privateKey, .ecdsaSignatureDigestX962SHA256,
                                               Data(count: length) as CFData, &error))
            let nsError = try XCTUnwrap(error?.takeRetainedValue()) as Error as NSError
            XCTAssertEqual(nsError.domain, NSOSStatusErrorDomain)
            XCTAssertEqual(nsError.code, Int(errSecParam), "length \(length)")
            error = nil
            XCTAssertFalse(SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestX962SHA256, Data(count: length) as CFData,
                                                 Data([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]) as CFData, &error))
            XCTAssertEqual((try XCTUnwrap(error?.takeRetainedValue()) as Error as NSError).code, Int(errSecParam))
        }
    }

    func testOtherDigestAlgorithmsStayUnsupported() throws {
        let privateKey = try makeKey()
        XCTAssertFalse(SecKeyIsAlgorithmSupported(privateKey, .sign, .ecdsaSignatureDigestX962))
        var error: Unmanaged<CFError>?
        XCTAssertNil(SecKeyCreateSignature(privateKey, .ecdsaSignatureDigestX962, Data(count: 32) as CFData, &error))
        XCTAssertEqual((try XCTUnwrap(error?.takeRetainedValue()) as Error as NSError).code, Int(errSecUnimplemented))
    }
}

private extension Data {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }
}
