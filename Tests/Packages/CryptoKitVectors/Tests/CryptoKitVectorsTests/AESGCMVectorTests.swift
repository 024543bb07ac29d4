// AES-GCM against the test cases of "The Galois/Counter Mode of Operation (GCM)" (McGrew & Viega, the submission
// NIST SP 800-38D specifies), appendix B: test cases 1–4 (AES-128), 10 (AES-192), 13–16 (AES-256) with 96-bit IVs,
// and 6 and 18 with a 60-byte IV (the "longer nonces" CryptoKit accepts). Test case 5 uses a 64-bit IV, which
// CryptoKit refuses (`AES.GCM.Nonce(data:)` needs 12 bytes or more). A changed tag, ciphertext, nonce or AAD must
// fail with `CryptoKitError.authenticationFailure`.
import CryptoKit
import Foundation
import Testing

struct GCMVector: Sendable {
    let testCase: Int
    let key: String
    let iv: String
    let plaintext: String
    let aad: String
    let ciphertext: String
    let tag: String
}

@Suite("AES-GCM: GCM specification test cases (SP 800-38D)")
struct AESGCMVectorTests {
    static let k = "feffe9928665731c6d6a8f9467308308"
    static let iv96 = "cafebabefacedbaddecaf888"
    static let iv480 = "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b5254"
        + "16aedbf5a0de6a57a637b39b"
    static let p = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525"
        + "b16aedf5aa0de657ba637b39"
    static let a = "feedfacedeadbeeffeedfacedeadbeefabaddad2"
    static let zero16 = String(repeating: "00", count: 16)
    static let zero32 = String(repeating: "00", count: 32)
    static let zeroIV = String(repeating: "00", count: 12)

    static let vectors: [GCMVector] = [
        GCMVector(testCase: 1, key: zero16, iv: zeroIV, plaintext: "", aad: "", ciphertext: "",
                  tag: "58e2fccefa7e3061367f1d57a4e7455a"),
        GCMVector(testCase: 2, key: zero16, iv: zeroIV, plaintext: zero16, aad: "",
                  ciphertext: "0388dace60b6a392f328c2b971b2fe78", tag: "ab6e47d42cec13bdf53a67b21257bddf"),
        GCMVector(testCase: 3, key: k, iv: iv96, plaintext: p + "1aafd255", aad: "",
                  ciphertext: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa05"
                      + "1ba30b396a0aac973d58e091473f5985",
                  tag: "4d5c2af327cd64a62cf35abd2ba6fab4"),
        GCMVector(testCase: 4, key: k, iv: iv96, plaintext: p, aad: a,
                  ciphertext: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa05"
                      + "1ba30b396a0aac973d58e091",
                  tag: "5bc94fbc3221a5db94fae95ae7121a47"),
        GCMVector(testCase: 6, key: k, iv: iv480, plaintext: p, aad: a,
                  ciphertext: "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca701e4a9a4fba43c90ccdcb281d48c7c6f"
                      + "d62875d2aca417034c34aee5",
                  tag: "619cc5aefffe0bfa462af43c1699d050"),
        GCMVector(testCase: 10, key: k + "feffe9928665731c", iv: iv96, plaintext: p, aad: a,
                  ciphertext: "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c7d773d00c144c525ac619d18c84a3f47"
                      + "18e2448b2fe324d9ccda2710",
                  tag: "2519498e80f1478f37ba55bd6d27618c"),
        GCMVector(testCase: 13, key: zero32, iv: zeroIV, plaintext: "", aad: "", ciphertext: "",
                  tag: "530f8afbc74536b9a963b4f1c4cb738b"),
        GCMVector(testCase: 14, key: zero32, iv: zeroIV, plaintext: zero16, aad: "",
                  ciphertext: "cea7403d4d606b6e074ec5d3baf39d18", tag: "d0d1c8a799996bf0265b98b5d48ab919"),
        GCMVector(testCase: 15, key: k + k, iv: iv96, plaintext: p + "1aafd255", aad: "",
                  ciphertext: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838"
                      + "c5f61e6393ba7a0abcc9f662898015ad",
                  tag: "b094dac5d93471bdec1a502270e3cc6c"),
        GCMVector(testCase: 16, key: k + k, iv: iv96, plaintext: p, aad: a,
                  ciphertext: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838"
                      + "c5f61e6393ba7a0abcc9f662",
                  tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
        GCMVector(testCase: 18, key: k + k, iv: iv480, plaintext: p, aad: a,
                  ciphertext: "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf40fc0c3b780f244452da3ebf1c5d82cde"
                      + "a2418997200ef82e44ae7e3f",
                  tag: "a44a8266ee1c8eb0c8b5d4cf5ae9f19a"),
    ]

    @Test("Seal and open the published test cases", arguments: vectors)
    func vector(_ v: GCMVector) throws {
        let key = SymmetricKey(data: Data(hex: v.key))
        let nonce = try AES.GCM.Nonce(data: Data(hex: v.iv))
        let plaintext = Data(hex: v.plaintext), aad = Data(hex: v.aad)
        let ciphertext = Data(hex: v.ciphertext), tag = Data(hex: v.tag)

        let sealed = try AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: aad)
        #expect(sealed.ciphertext == ciphertext, "test case \(v.testCase): ciphertext")
        #expect(sealed.tag == tag, "test case \(v.testCase): tag")
        #expect(Data(sealed.nonce) == Data(hex: v.iv))
        if v.iv.count == 24 {
            #expect(sealed.combined == Data(hex: v.iv) + ciphertext + tag)
        } else {
            #expect(sealed.combined == nil, "no combined representation with a nonce that is not 12 bytes")
        }
        let splitSeal = try AES.GCM.seal(split(plaintext), using: key, nonce: nonce, authenticating: split(aad))
        #expect(splitSeal.ciphertext == ciphertext && splitSeal.tag == tag)

        let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
        #expect(try AES.GCM.open(box, using: key, authenticating: aad) == plaintext)
        if let combined = box.combined {
            #expect(try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key, authenticating: aad) == plaintext)
        }
        if aad.isEmpty {
            #expect(try AES.GCM.open(box, using: key) == plaintext)
            let noAAD = try AES.GCM.seal(plaintext, using: key, nonce: nonce)
            #expect(noAAD.tag == tag)
        }

        // Any change is an authentication failure, and no plaintext comes out.
        var badTag = tag
        badTag[badTag.startIndex] ^= 0x01
        expectCryptoKitError(.authenticationFailure) {
            try AES.GCM.open(AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: badTag), using: key,
                             authenticating: aad)
        }
        expectCryptoKitError(.authenticationFailure) {
            try AES.GCM.open(box, using: key, authenticating: aad + Data([0x00]))
        }
        if !ciphertext.isEmpty {
            var badCiphertext = ciphertext
            badCiphertext[badCiphertext.index(before: badCiphertext.endIndex)] ^= 0x80
            expectCryptoKitError(.authenticationFailure) {
                try AES.GCM.open(AES.GCM.SealedBox(nonce: nonce, ciphertext: badCiphertext, tag: tag), using: key,
                                 authenticating: aad)
            }
        }
        var badNonce = Data(hex: v.iv)
        badNonce[badNonce.startIndex] ^= 0x01
        expectCryptoKitError(.authenticationFailure) {
            try AES.GCM.open(AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: badNonce), ciphertext: ciphertext, tag: tag),
                             using: key, authenticating: aad)
        }
        expectCryptoKitError(.authenticationFailure) {
            try AES.GCM.open(box, using: SymmetricKey(size: SymmetricKeySize(bitCount: key.bitCount)),
                             authenticating: aad)
        }
    }

    @Test("Test case 5's 64-bit IV is refused")
    func shortIV() {
        expectCryptoKitError(.incorrectParameterSize) { try AES.GCM.Nonce(data: Data(hex: "cafebabefacedbad")) }
        expectCryptoKitError(.incorrectParameterSize) { try AES.GCM.Nonce(data: Data()) }
    }

    @Test("Random nonces and keys round-trip; combined layout is nonce, ciphertext, tag")
    func roundTrip() throws {
        for size in [SymmetricKeySize.bits128, .bits192, .bits256] {
            let key = SymmetricKey(size: size)
            let message = Data("Hello, AES-GCM".utf8)
            let sealed = try AES.GCM.seal(message, using: key)
            let combined = try #require(sealed.combined)
            #expect(combined.count == 12 + message.count + 16)
            #expect(combined == Data(sealed.nonce) + sealed.ciphertext + sealed.tag)
            #expect(try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key) == message)
            #expect(Array(AES.GCM.Nonce()).count == 12)
        }
    }
}
