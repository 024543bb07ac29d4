// ChaCha20-Poly1305 against RFC 8439: §2.8.2 (the AEAD example, "Ladies and Gentlemen of the class of '99…") and
// appendix A.5 (the decryption example of an Internet-Draft boilerplate paragraph, 265 bytes).
import CryptoKit
import Foundation
import Testing

@Suite("ChaChaPoly: RFC 8439")
struct ChaChaPolyVectorTests {
    static let sunscreen = Data(("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
        + "sunscreen would be it.").utf8)

    @Test("§2.8.2 AEAD example")
    func section282() throws {
        let key = SymmetricKey(data: Data(0x80...0x9f))
        let nonce = try ChaChaPoly.Nonce(data: Data(hex: "070000004041424344454647"))
        let aad = Data(hex: "50515253c0c1c2c3c4c5c6c7")
        let ciphertext = Data(hex: "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b"
            + "1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576"
            + "d26586cec64b6116")
        let tag = Data(hex: "1ae10b594f09e26a7e902ecbd0600691")

        let sealed = try ChaChaPoly.seal(Self.sunscreen, using: key, nonce: nonce, authenticating: aad)
        #expect(sealed.ciphertext == ciphertext)
        #expect(sealed.tag == tag)
        #expect(sealed.combined == Data(hex: "070000004041424344454647") + ciphertext + tag)
        #expect(Data(sealed.nonce) == Data(hex: "070000004041424344454647"))
        #expect(try ChaChaPoly.open(sealed, using: key, authenticating: aad) == Self.sunscreen)
        #expect(try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: sealed.combined), using: key, authenticating: split(aad))
                == Self.sunscreen)

        var badTag = tag
        badTag[badTag.startIndex + 15] ^= 0x01
        expectCryptoKitError(.authenticationFailure) {
            try ChaChaPoly.open(ChaChaPoly.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: badTag), using: key,
                                authenticating: aad)
        }
        expectCryptoKitError(.authenticationFailure) { try ChaChaPoly.open(sealed, using: key) }
        var badCiphertext = ciphertext
        badCiphertext[badCiphertext.startIndex] ^= 0x01
        expectCryptoKitError(.authenticationFailure) {
            try ChaChaPoly.open(ChaChaPoly.SealedBox(nonce: nonce, ciphertext: badCiphertext, tag: tag), using: key,
                                authenticating: aad)
        }
    }

    @Test("Appendix A.5 decryption example")
    func appendixA5() throws {
        let key = SymmetricKey(data: Data(hex: "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"))
        let nonce = try ChaChaPoly.Nonce(data: Data(hex: "000000000102030405060708"))
        let aad = Data(hex: "f33388860000000000004e91")
        let ciphertext = Data(hex: "64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb24c6cfc18755d43eea09ee94e382d26b0"
            + "bdb7b73c321b0100d4f03b7f355894cf332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c8559797a06ef4f0ef61c1"
            + "86324e2b3506383606907b6a7c02b0f9f6157b53c867e4b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a1b0a06c523eaf45"
            + "34d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a0bb2316053fa76991955ebd63159434ecebb4e466dae5a1073a672"
            + "7627097a1049e617d91d361094fa68f0ff77987130305beaba2eda04df997b714d6c6f2c29a6ad5cb4022b02709b")
        let tag = Data(hex: "eead9d67890cbb22392336fea1851f38")
        let plaintext = try ChaChaPoly.open(ChaChaPoly.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag), using: key,
                                            authenticating: aad)
        #expect(plaintext.count == 265)
        #expect(String(decoding: plaintext, as: UTF8.self).hasPrefix("Internet-Drafts are draft documents valid for a maximum"))
        #expect(String(decoding: plaintext, as: UTF8.self).hasSuffix("other than as /\u{201C}work in progress./\u{201D}"))
        #expect(try ChaChaPoly.seal(plaintext, using: key, nonce: nonce, authenticating: aad).tag == tag)
    }

    @Test("Round trip with random keys and nonces")
    func roundTrip() throws {
        let key = SymmetricKey(size: .bits256)
        let sealed = try ChaChaPoly.seal(Data("hello".utf8), using: key)
        #expect(sealed.combined.count == 12 + 5 + 16)
        #expect(try ChaChaPoly.open(sealed, using: key) == Data("hello".utf8))
        #expect(Array(ChaChaPoly.Nonce()).count == 12)
    }
}
