import Foundation
import LatchkeyCrypto
import Testing

private func hexBytes(_ hex: String) -> Data { Data(hexString: hex) ?? Data() }

/// AES-GCM: McGrew–Viega GCM specification test cases (also NIST SP 800-38D examples) and CAVP gcmEncryptExtIV256.
/// ChaCha20-Poly1305: RFC 8439 §2.8.2.
@Suite struct AESGCMTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: String
        let iv: String
        let plaintext: String
        let aad: String
        let ciphertext: String
        let tag: String
        var testDescription: String { name }
    }

    static let gcmP = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
    static let gcmA = "feedfacedeadbeeffeedfacedeadbeefabaddad2"
    static let k128 = "feffe9928665731c6d6a8f9467308308"

    static let vectors: [Vector] = [
        Vector(name: "GCM TC1 (AES-128, empty)", key: String(repeating: "00", count: 16), iv: String(repeating: "00", count: 12),
               plaintext: "", aad: "", ciphertext: "", tag: "58e2fccefa7e3061367f1d57a4e7455a"),
        Vector(name: "GCM TC2 (AES-128, one block)", key: String(repeating: "00", count: 16),
               iv: String(repeating: "00", count: 12), plaintext: String(repeating: "00", count: 16), aad: "",
               ciphertext: "0388dace60b6a392f328c2b971b2fe78", tag: "ab6e47d42cec13bdf53a67b21257bddf"),
        Vector(name: "GCM TC4 (AES-128, AAD)", key: k128, iv: "cafebabefacedbaddecaf888", plaintext: gcmP, aad: gcmA,
               ciphertext: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                   + "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
               tag: "5bc94fbc3221a5db94fae95ae7121a47"),
        Vector(name: "GCM TC13 (AES-256, empty)", key: String(repeating: "00", count: 32),
               iv: String(repeating: "00", count: 12), plaintext: "", aad: "", ciphertext: "",
               tag: "530f8afbc74536b9a963b4f1c4cb738b"),
        Vector(name: "GCM TC14 (AES-256, one block)", key: String(repeating: "00", count: 32),
               iv: String(repeating: "00", count: 12), plaintext: String(repeating: "00", count: 16), aad: "",
               ciphertext: "cea7403d4d606b6e074ec5d3baf39d18", tag: "d0d1c8a799996bf0265b98b5d48ab919"),
        Vector(name: "GCM TC15 (AES-256, 64 bytes)", key: k128 + k128, iv: "cafebabefacedbaddecaf888",
               plaintext: gcmP + "1aafd255", aad: "",
               ciphertext: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                   + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
               tag: "b094dac5d93471bdec1a502270e3cc6c"),
        Vector(name: "GCM TC16 (AES-256, 60 bytes, AAD)", key: k128 + k128, iv: "cafebabefacedbaddecaf888",
               plaintext: gcmP, aad: gcmA,
               ciphertext: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                   + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
               tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
        Vector(name: "CAVP gcmEncryptExtIV256 PTlen=128 AADlen=128 Count=0",
               key: "92e11dcdaa866f5ce790fd24501f92509aacf4cb8b1339d50c9c1240935dd08b", iv: "ac93a1a6145299bde902f21a",
               plaintext: "2d71bcfa914e4ac045b2aa60955fad24", aad: "1e0889016f67601c8ebea4943bc23ad6",
               ciphertext: "8995ae2e6df3dbf96fac7b7137bae67f", tag: "eca5aa77d51d4a0a14d9c51e1da474ab"),
    ]

    @Test(arguments: vectors)
    func knownAnswer(_ v: Vector) throws {
        let key = SymmetricKey(data: hexBytes(v.key))
        let nonce = try AES.GCM.Nonce(data: hexBytes(v.iv))
        let box = try AES.GCM.seal(hexBytes(v.plaintext), using: key, nonce: nonce, authenticating: hexBytes(v.aad))
        #expect(box.ciphertext.hexString == v.ciphertext)
        #expect(box.tag.hexString == v.tag)
        #expect(box.bytes.hexString == v.iv + v.ciphertext + v.tag)
        let reopened = try AES.GCM.SealedBox(combined: hexBytes(v.iv + v.ciphertext + v.tag))
        #expect(try AES.GCM.open(reopened, using: key, authenticating: hexBytes(v.aad)).hexString == v.plaintext)
    }

    static let tc16 = vectors[6]

    private func tc16Box() throws -> (SymmetricKey, AES.GCM.SealedBox, Data) {
        let v = Self.tc16
        let box = try AES.GCM.SealedBox(combined: hexBytes(v.iv + v.ciphertext + v.tag))
        return (SymmetricKey(data: hexBytes(v.key)), box, hexBytes(v.aad))
    }

    @Test func wrongKeyFails() throws {
        let (_, box, aad) = try tc16Box()
        expectCryptoKitError(.authenticationFailure) {
            try AES.GCM.open(box, using: SymmetricKey(size: .bits256), authenticating: aad)
        }
    }

    @Test(arguments: [0, 11, 12, 40, 71, 72, 87])
    func flippedBitAnywhereInCombinedFails(_ index: Int) throws {
        let (key, box, aad) = try tc16Box()
        var combined = box.bytes
        combined[index] ^= 0x80
        let tampered = try AES.GCM.SealedBox(combined: combined)
        expectCryptoKitError(.authenticationFailure) { try AES.GCM.open(tampered, using: key, authenticating: aad) }
    }

    @Test func flippedAADOrMissingAADFails() throws {
        let (key, box, aad) = try tc16Box()
        var wrong = aad
        wrong[wrong.startIndex] ^= 0x01
        expectCryptoKitError(.authenticationFailure) { try AES.GCM.open(box, using: key, authenticating: wrong) }
        expectCryptoKitError(.authenticationFailure) { try AES.GCM.open(box, using: key) }
        expectCryptoKitError(.authenticationFailure) {
            try AES.GCM.open(box, using: key, authenticating: aad + Data([0]))
        }
    }

    #if !LATCHKEY_APPLE_FRAMEWORKS  // the Linux module's package API (Apple's CryptoKit has no raw-buffer forms)
    /// The package's raw-buffer forms (the vault's row buffers) open what the `Data` forms seal, and fail where they
    /// fail.
    @Test func rawBufferFormsMatchDataForms() throws {
        let (key, box, aad) = try tc16Box()
        let plaintext = try AES.GCM.open(box, using: key, authenticating: aad)
        let opened = try box.bytes.withUnsafeBytes { c in
            try aad.withUnsafeBytes { a in try AES.GCM.open(combinedBytes: c, using: key, authenticatingBytes: a) }
        }
        #expect(opened == plaintext)
        let resealed = try plaintext.withUnsafeBytes { p in
            try aad.withUnsafeBytes { a in try AES.GCM.seal(p, using: key, authenticatingBytes: a) }
        }
        #expect(try AES.GCM.open(AES.GCM.SealedBox(combined: resealed), using: key, authenticating: aad) == plaintext)
        var wrong = aad
        wrong[wrong.startIndex] ^= 0x01
        #expect(throws: CryptoError.authenticationFailure) {
            try box.bytes.withUnsafeBytes { c in
                try wrong.withUnsafeBytes { a in try AES.GCM.open(combinedBytes: c, using: key, authenticatingBytes: a) }
            }
        }
        #expect(throws: CryptoError.self) {
            try box.bytes.prefix(27).withUnsafeBytes { c in
                try aad.withUnsafeBytes { a in try AES.GCM.open(combinedBytes: c, using: key, authenticatingBytes: a) }
            }
        }
    }
    #endif

    @Test func truncatedBoxes() throws {
        let (key, box, aad) = try tc16Box()
        let combined = box.bytes
        // Shorter than nonce + tag: malformed.
        #expect(throws: (any Error).self) { try AES.GCM.SealedBox(combined: combined.prefix(27)) }
        #expect(throws: (any Error).self) { try AES.GCM.SealedBox(combined: Data()) }
        // Long enough to parse, but a byte short: does not authenticate.
        let short = try AES.GCM.SealedBox(combined: combined.dropLast())
        expectCryptoKitError(.authenticationFailure) { try AES.GCM.open(short, using: key, authenticating: aad) }
        // A tag of the wrong size cannot be assembled.
        #expect(throws: (any Error).self) {
            try AES.GCM.SealedBox(nonce: box.nonce, ciphertext: box.ciphertext, tag: box.tag.prefix(15))
        }
        #expect(throws: (any Error).self) { try AES.GCM.SealedBox(nonce: box.nonce, ciphertext: box.ciphertext, tag: Data()) }
    }

    @Test func nonceAndKeySizes() throws {
        expectCryptoKitError(.incorrectParameterSize) { try AES.GCM.Nonce(data: Data(count: 8)) }
        // GCM takes longer nonces too (CryptoKit: 12 bytes or more); such a box has no combined form.
        let long = try AES.GCM.Nonce(data: Data(count: 16))
        let key = SymmetricKey(size: .bits256)
        let longBox = try AES.GCM.seal(Data("x".utf8), using: key, nonce: long)
        #expect(longBox.combined == nil)
        #expect(try AES.GCM.open(longBox, using: key) == Data("x".utf8))
        expectCryptoKitError(.incorrectKeySize) {
            try AES.GCM.seal(Data("x".utf8), using: SymmetricKey(data: Data(count: 31)))
        }
        expectCryptoKitError(.incorrectKeySize) {
            try AES.GCM.seal(Data("x".utf8), using: SymmetricKey(data: Data()))
        }
        let box = try AES.GCM.seal(Data("x".utf8), using: SymmetricKey(size: .bits256))
        expectCryptoKitError(.incorrectKeySize) {
            try AES.GCM.open(box, using: SymmetricKey(data: Data(count: 33)))
        }
        // 192-bit keys work too.
        let key192 = SymmetricKey(size: .bits192)
        let box192 = try AES.GCM.seal(Data("x".utf8), using: key192)
        #expect(try AES.GCM.open(box192, using: key192) == Data("x".utf8))
    }

    @Test func roundTripWithRandomNonces() throws {
        let key = SymmetricKey(size: .bits256)
        let message = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0) })
        let a = try AES.GCM.seal(message, using: key, authenticating: Data("hdr".utf8))
        let b = try AES.GCM.seal(message, using: key, authenticating: Data("hdr".utf8))
        #expect(Data(a.nonce) != Data(b.nonce))
        #expect(a.ciphertext != b.ciphertext)
        #expect(Data(a.nonce).count == 12 && a.tag.count == 16 && a.ciphertext.count == 1000)
        #expect(try AES.GCM.open(a, using: key, authenticating: Data("hdr".utf8)) == message)
        // Non-Data plaintext and a sliced combined buffer.
        let arrayBox = try AES.GCM.seal([UInt8](message), using: key)
        let sliced = (Data([0xff, 0xff]) + arrayBox.bytes).dropFirst(2)
        #expect(try AES.GCM.open(AES.GCM.SealedBox(combined: sliced), using: key) == message)
        // Empty plaintext.
        let empty = try AES.GCM.seal(Data(), using: key)
        #expect(empty.ciphertext.isEmpty)
        #expect(try AES.GCM.open(empty, using: key).isEmpty)
    }
}

@Suite struct AEADConcurrencyTests {
    #if !LATCHKEY_APPLE_FRAMEWORKS  // one key shared by tasks (Apple's keys are Sendable from the iOS 18.4 SDK on)
    /// Nothing mutable is shared between calls: many tasks sealing and opening at once all round-trip.
    @Test func concurrentSealAndOpen() async throws {
        let key = SymmetricKey(size: .bits256)
        let ok = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<32 {
                group.addTask {
                    let message = Data(repeating: UInt8(i), count: 100 + i)
                    guard let gcm = try? AES.GCM.seal(message, using: key, authenticating: Data([UInt8(i)])),
                          let chacha = try? ChaChaPoly.seal(message, using: key)
                    else { return false }
                    return (try? AES.GCM.open(gcm, using: key, authenticating: Data([UInt8(i)]))) == message
                        && (try? ChaChaPoly.open(chacha, using: key)) == message
                        && HMAC<SHA256>.isValidAuthenticationCode(HMAC<SHA256>.authenticationCode(for: message, using: key),
                                                                  authenticating: message, using: key)
                }
            }
            var all = true
            for await result in group { all = all && result }
            return all
        }
        #expect(ok)
    }
    #endif
}

@Suite struct ChaChaPolyTests {
    static let key = Data(0x80...0x9f)
    static let nonce = "070000004041424344454647"
    static let aad = "50515253c0c1c2c3c4c5c6c7"
    static let plaintext = Data(("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for "
        + "the future, sunscreen would be it.").utf8)
    static let ciphertext = "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
        + "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
        + "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
        + "3ff4def08e4b7a9de576d26586cec64b6116"
    static let tag = "1ae10b594f09e26a7e902ecbd0600691"

    @Test func rfc8439Section282() throws {
        let key = SymmetricKey(data: Self.key)
        let box = try ChaChaPoly.seal(Self.plaintext, using: key, nonce: ChaChaPoly.Nonce(data: hexBytes(Self.nonce)),
                                      authenticating: hexBytes(Self.aad))
        #expect(box.ciphertext.hexString == Self.ciphertext)
        #expect(box.tag.hexString == Self.tag)
        #expect(box.bytes.hexString == Self.nonce + Self.ciphertext + Self.tag)
        let parsed = try ChaChaPoly.SealedBox(combined: hexBytes(Self.nonce + Self.ciphertext + Self.tag))
        #expect(try ChaChaPoly.open(parsed, using: key, authenticating: hexBytes(Self.aad)) == Self.plaintext)
    }

    @Test(arguments: [0, 5, 11, 12, 60, 125, 126, 141])
    func tamperingFails(_ index: Int) throws {
        let key = SymmetricKey(data: Self.key)
        var combined = hexBytes(Self.nonce + Self.ciphertext + Self.tag)
        combined[index] ^= 0x01
        let box = try ChaChaPoly.SealedBox(combined: combined)
        expectCryptoKitError(.authenticationFailure) {
            try ChaChaPoly.open(box, using: key, authenticating: hexBytes(Self.aad))
        }
    }

    @Test func wrongKeyAADAndSizes() throws {
        let key = SymmetricKey(data: Self.key)
        let box = try ChaChaPoly.SealedBox(combined: hexBytes(Self.nonce + Self.ciphertext + Self.tag))
        expectCryptoKitError(.authenticationFailure) {
            try ChaChaPoly.open(box, using: SymmetricKey(size: .bits256), authenticating: hexBytes(Self.aad))
        }
        expectCryptoKitError(.authenticationFailure) { try ChaChaPoly.open(box, using: key) }
        expectCryptoKitError(.incorrectKeySize) {
            try ChaChaPoly.seal(Data("x".utf8), using: SymmetricKey(size: .bits128))
        }
        expectCryptoKitError(.incorrectParameterSize) {
            try ChaChaPoly.Nonce(data: Data(count: 24))
        }
        #expect(throws: (any Error).self) { try ChaChaPoly.SealedBox(combined: Data(count: 20)) }
        let short = try ChaChaPoly.SealedBox(combined: box.bytes.dropLast())
        expectCryptoKitError(.authenticationFailure) {
            try ChaChaPoly.open(short, using: key, authenticating: hexBytes(Self.aad))
        }
    }

    @Test func roundTrip() throws {
        let key = SymmetricKey(size: .bits256)
        let box = try ChaChaPoly.seal(Data("hello".utf8), using: key, authenticating: Data("ad".utf8))
        #expect(try ChaChaPoly.open(box, using: key, authenticating: Data("ad".utf8)) == Data("hello".utf8))
        let empty = try ChaChaPoly.seal(Data(), using: key)
        #expect(try ChaChaPoly.open(empty, using: key).isEmpty)
    }
}
