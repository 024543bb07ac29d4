import Foundation
import LatchkeyCrypto
import Testing

private func hexBytes(_ hex: String) -> Data { Data(hexString: hex) ?? Data() }

/// A key reuses its own keyed OpenSSL contexts (one for sealing, one for opening, one HMAC context per
/// digest): the known answers must hold on the second and later calls too, after failures, and when one
/// key is used with several algorithms in turn or from several threads at once.
@Suite struct KeyedContextTests {
    @Test(arguments: AESGCMTests.vectors)
    func gcmKnownAnswerOnReusedKey(_ v: AESGCMTests.Vector) throws {
        let key = SymmetricKey(data: hexBytes(v.key))
        let nonce = try AES.GCM.Nonce(data: hexBytes(v.iv))
        let other = AES.GCM.Nonce()
        for _ in 0..<3 {
            // Another message in between: the reused context must take the new nonce and AAD each time.
            _ = try AES.GCM.seal(Data(repeating: 7, count: 33), using: key, nonce: other, authenticating: Data([1, 2]))
            let box = try AES.GCM.seal(hexBytes(v.plaintext), using: key, nonce: nonce, authenticating: hexBytes(v.aad))
            #expect(box.bytes.hexString == v.iv + v.ciphertext + v.tag)
            var tampered = box.bytes
            tampered[tampered.count - 1] ^= 1
            expectCryptoKitError(.authenticationFailure) {
                try AES.GCM.open(AES.GCM.SealedBox(combined: tampered), using: key, authenticating: hexBytes(v.aad))
            }
            // After a failed open the same key opens the genuine box.
            #expect(try AES.GCM.open(box, using: key, authenticating: hexBytes(v.aad)).hexString == v.plaintext)
        }
    }

    @Test func chaChaKnownAnswerOnReusedKeyAlsoUsedForGCMAndHMAC() throws {
        let key = SymmetricKey(data: ChaChaPolyTests.key)
        let nonce = try ChaChaPoly.Nonce(data: hexBytes(ChaChaPolyTests.nonce))
        let expected = ChaChaPolyTests.nonce + ChaChaPolyTests.ciphertext + ChaChaPolyTests.tag
        for _ in 0..<3 {
            let box = try ChaChaPoly.seal(ChaChaPolyTests.plaintext, using: key, nonce: nonce,
                                          authenticating: hexBytes(ChaChaPolyTests.aad))
            #expect(box.bytes.hexString == expected)
            // The same key through another cipher and through HMAC, then back.
            let gcm = try AES.GCM.seal(Data("x".utf8), using: key)
            #expect(try AES.GCM.open(gcm, using: key) == Data("x".utf8))
            _ = HashAlgorithm.sha256.authenticationCode(for: Data("y".utf8), using: key)
            #expect(try ChaChaPoly.open(box, using: key, authenticating: hexBytes(ChaChaPolyTests.aad))
                    == ChaChaPolyTests.plaintext)
            expectCryptoKitError(.authenticationFailure) {
                try ChaChaPoly.open(box, using: key, authenticating: Data())
            }
        }
    }

    @Test(arguments: HMACTests.vectors)
    func hmacKnownAnswerOnReusedKey(_ v: HMACTests.Vector) {
        let key = SymmetricKey(data: v.key)
        for _ in 0..<3 {
            #expect(HashAlgorithm.sha256.authenticationCode(for: v.data, using: key).hexString == v.sha256)
            #expect(HashAlgorithm.sha256.authenticationCode(for: Data("other".utf8), using: key).count == 32)
            #expect(HashAlgorithm.sha512.authenticationCode(for: v.data, using: key).hexString == v.sha512)
            #expect(HashAlgorithm.sha384.authenticationCode(for: v.data, using: key).hexString == v.sha384)
        }
    }

    #if !LATCHKEY_APPLE_FRAMEWORKS  // one key shared by tasks (Apple's keys are Sendable from the iOS 18.4 SDK on)
    /// Threads that find the key's context busy use a one-shot context: every result is still right.
    @Test func concurrentUseOfOneKey() async throws {
        let key = SymmetricKey(size: .bits256)
        let message = Data((0..<300).map { UInt8(truncatingIfNeeded: $0) })
        let expectedMAC = HashAlgorithm.sha256.authenticationCode(for: message, using: SymmetricKey(data: key.withUnsafeBytes { Data($0) }))
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<200 {
                        let box = try AES.GCM.seal(message, using: key, authenticating: Data([9]))
                        guard try AES.GCM.open(box, using: key, authenticating: Data([9])) == message,
                              HashAlgorithm.sha256.authenticationCode(for: message, using: key) == expectedMAC
                        else { return false }
                    }
                    return true
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
    #endif
}
