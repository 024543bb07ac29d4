#if !LATCHKEY_APPLE_FRAMEWORKS  // the sender's ephemeral key is fixed through the Linux module's package initializer
import Foundation
import LatchkeyCrypto
import Testing

/// RFC 9180 Appendix A from the sender's side: with the vector's ephemeral key (which Apple's API always draws at
/// random, hence the package initializer), the encapsulated key, every listed ciphertext — the messages between them
/// sealed as the RFC's generator seals them, the same plaintext with "Count-<n>" as associated data — and every export
/// are the RFC's; the recipient opens all 257 messages in order.
@Suite struct HPKESenderVectorTests {
    @Test(arguments: HPKEVector.all)
    func senderReproducesTheVector(_ vector: HPKEVector) throws {
        try #require(HPKETestKeys.withKeyType(kemID: vector.kemID) { type in try Self.check(vector, type) } != nil)
    }

    static func check<SK: HPKEDiffieHellmanPrivateKeyGeneration>(_ vector: HPKEVector, _ type: SK.Type) throws {
        let bytes = HPKEVector.bytes
        let suite = vector.ciphersuite
        let recipientKey = try HPKETestKeys.privateKey(type, raw: bytes(vector.skRm))
        let ephemeral = try HPKETestKeys.privateKey(SK.PublicKey.EphemeralPrivateKey.self, raw: bytes(vector.skEm))
        let senderKey = try vector.skSm.map { try HPKETestKeys.privateKey(type, raw: bytes($0)) }
        let psk = vector.presharedKey
        var sender = try HPKE.Sender(recipientKey: recipientKey.publicKey, ciphersuite: suite, info: bytes(vector.info),
                                     ephemeralKey: ephemeral, authenticatedBy: senderKey, presharedKey: psk?.0,
                                     presharedKeyIdentifier: psk?.1)
        #expect(sender.encapsulatedKey == bytes(vector.enc))
        for export in vector.exports {
            let secret = try sender.exportSecret(context: bytes(export.context), outputByteCount: export.length)
            #expect(secret == SymmetricKey(data: bytes(export.value)), "export of \(export.context)")
        }
        guard let last = vector.encryptions.last, let plaintext = vector.encryptions.first.map({ bytes($0.pt) }) else {
            #expect(suite.aead == .exportOnly)
            return
        }
        var recipient = try vector.recipient(recipientKey, sender: senderKey?.publicKey)
        let listed = Dictionary(vector.encryptions.map { ($0.sequenceNumber, $0) }, uniquingKeysWith: { first, _ in first })
        for sequence in 0...last.sequenceNumber {
            let aad = Data("Count-\(sequence)".utf8)
            let sealed = try sender.seal(plaintext, authenticating: aad)
            if let expected = listed[sequence] {
                #expect(bytes(expected.aad) == aad && bytes(expected.pt) == plaintext)
                #expect(sealed == bytes(expected.ct), "sequence number \(sequence)")
            }
            #expect(try recipient.open(sealed, authenticating: aad) == plaintext, "sequence number \(sequence)")
        }
    }
}
#endif
