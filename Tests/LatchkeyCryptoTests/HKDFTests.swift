#if !LATCHKEY_APPLE_FRAMEWORKS  // checked against OpenSSL itself, which the Apple build does not link
import COpenSSL
import Foundation
import LatchkeyTestSupport
import LatchkeyCrypto
import LatchkeyOpenSSL
import Testing

private func hexBytes(_ hex: String) -> Data { Data(hexString: hex) ?? Data() }
private func keyHex(_ key: SymmetricKey) -> String { key.withUnsafeBytes { Data($0).hexString } }

/// HKDF with the hash chosen at run time (CryptoKit's `HKDF<H>` fixes it at compile time).
private func hkdf(inputKeyMaterial ikm: SymmetricKey, salt: Data = Data(), info: Data = Data(), outputByteCount: Int,
                  algorithm: HashAlgorithm = .sha256) -> SymmetricKey {
    switch algorithm {
    case .sha256: HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: outputByteCount)
    case .sha384: HKDF<SHA384>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: outputByteCount)
    case .sha512: HKDF<SHA512>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: outputByteCount)
    }
}

/// RFC 5869 Appendix A, test cases 1–3 (HKDF-SHA-256).
@Suite struct HKDFTests {
    @Test func rfc5869Case1() throws {
        let okm = hkdf(inputKeyMaterial: SymmetricKey(data: Data(repeating: 0x0b, count: 22)), salt: hexBytes("000102030405060708090a0b0c"), info: hexBytes("f0f1f2f3f4f5f6f7f8f9"), outputByteCount: 42)
        #expect(keyHex(okm)
            == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    @Test func rfc5869Case2LongInputs() throws {
        let okm = hkdf(inputKeyMaterial: SymmetricKey(data: Data(0x00...0x4f)), salt: Data(0x60...0xaf), info: Data(0xb0...0xff), outputByteCount: 82, algorithm: .sha256)
        #expect(keyHex(okm)
            == "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
            + "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
            + "cc30c58179ec3e87c14c01d5c1f3434f1d87")
    }

    @Test func rfc5869Case3EmptySaltAndInfo() throws {
        let okm = hkdf(inputKeyMaterial: SymmetricKey(data: Data(repeating: 0x0b, count: 22)), outputByteCount: 42)
        #expect(keyHex(okm)
            == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
        // An empty salt is the same as HashLen zero bytes (RFC 5869 §2.2).
        let zeros = hkdf(inputKeyMaterial: SymmetricKey(data: Data(repeating: 0x0b, count: 22)), salt: Data(repeating: 0, count: 32), outputByteCount: 42)
        #expect(zeros == okm)
    }

    /// RFC 5869 bounds the output to 255 hash lengths: the engine refuses more (CryptoKit's `HKDF` stops the
    /// program there, as Apple's does).
    @Test func outputLengthBounds() throws {
        let ikm = Data(repeating: 7, count: 32)
        let empty = Data()
        func engine(_ count: Int, _ digest: OpenSSLDigest = .sha256) throws(CryptoError) -> Int {
            try ContiguousInput.with(ikm) { (key) throws(CryptoError) in
                try ContiguousInput.with(empty) { (none) throws(CryptoError) in
                    try HKDFEngine.deriveKey(ikm: key, salt: none, info: none, outputByteCount: count, digest: digest).byteCount
                }
            }
        }
        #expect(throws: CryptoError.self) { try engine(0) }
        #expect(throws: CryptoError.self) { try engine(255 * 32 + 1) }
        #expect(try engine(255 * 32) == 255 * 32)
        #expect(try engine(255 * 64, .sha512) == 255 * 64)
        #expect(hkdf(inputKeyMaterial: SymmetricKey(data: ikm), outputByteCount: 255 * 32).bitCount == 255 * 32 * 8)
    }

    @Test func infoAndAlgorithmSeparateKeys() throws {
        let ikm = SymmetricKey(size: .bits256)
        let a = hkdf(inputKeyMaterial: ikm, info: Data("a".utf8), outputByteCount: 32)
        let b = hkdf(inputKeyMaterial: ikm, info: Data("b".utf8), outputByteCount: 32)
        let c = hkdf(inputKeyMaterial: ikm, info: Data("a".utf8), outputByteCount: 32, algorithm: .sha384)
        #expect(a != b)
        #expect(a != c)
        #expect(a == (hkdf(inputKeyMaterial: ikm, info: Data("a".utf8), outputByteCount: 32)))
    }

    /// The three RFC 5869 cases in turn, several times, on the one context kept per digest: a salt or info of
    /// one derivation must never leak into the next (case 3, empty salt and info, right after case 2), and
    /// the key is replaced after each.
    @Test func rfc5869CasesInTurnOnTheKeptContext() throws {
        let expected1 = "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        let expected3 = "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
        for _ in 0..<4 {
            let case1 = hkdf(inputKeyMaterial: SymmetricKey(data: Data(repeating: 0x0b, count: 22)), salt: hexBytes("000102030405060708090a0b0c"), info: hexBytes("f0f1f2f3f4f5f6f7f8f9"), outputByteCount: 42)
            #expect(keyHex(case1) == expected1)
            _ = hkdf(inputKeyMaterial: SymmetricKey(data: Data(0x00...0x4f)), salt: Data(0x60...0xaf), info: Data(0xb0...0xff), outputByteCount: 82)
            // Case 3 right after a derivation with a salt and an info.
            let case3 = hkdf(inputKeyMaterial: SymmetricKey(data: Data(repeating: 0x0b, count: 22)), outputByteCount: 42)
            #expect(keyHex(case3) == expected3)
            // Salt only, then info only: each the same as on a fresh derivation order.
            let saltOnly = hkdf(inputKeyMaterial: SymmetricKey(data: Data(repeating: 0x0b, count: 22)), salt: hexBytes("000102030405060708090a0b0c"), outputByteCount: 42)
            let infoOnly = hkdf(inputKeyMaterial: SymmetricKey(data: Data(repeating: 0x0b, count: 22)), info: hexBytes("f0f1f2f3f4f5f6f7f8f9"), outputByteCount: 42)
            #expect(saltOnly != case1 && infoOnly != case1 && saltOnly != infoOnly && infoOnly != case3)
            // An empty salt after a longer one (OpenSSL 3.0 crashed on a zero-length salt or info replacing a
            // longer one): HashLen zeros, as RFC 5869 §2.2 defines it.
            let zeroSalt = hkdf(inputKeyMaterial: SymmetricKey(data: Data(repeating: 0x0b, count: 22)), salt: Data(count: 32), info: hexBytes("f0f1f2f3f4f5f6f7f8f9"), outputByteCount: 42)
            #expect(zeroSalt == infoOnly)
            #expect(keyHex(hkdf(inputKeyMaterial: SymmetricKey(data: Data(repeating: 0x0b, count: 22)), outputByteCount: 42)) == expected3)
        }
    }

    /// Eight threads deriving at once: the one that holds the kept context and those that make their own all
    /// get the right keys, for every digest.
    @Test func concurrentDerivations() async throws {
        let ikm = SymmetricKey(size: .bits256)
        var expected: [HashAlgorithm: SymmetricKey] = [:]
        for algorithm in HashAlgorithm.allCases {
            expected[algorithm] = hkdf(inputKeyMaterial: ikm, salt: Data("salt".utf8), info: Data("info".utf8), outputByteCount: 32, algorithm: algorithm)
        }
        let reference = expected
        let failures = await onThreads(8) { thread -> Int in
            var failed = 0
            for round in 0..<300 {
                let algorithm = HashAlgorithm.allCases[(thread + round) % 3]
                let other = Optional(hkdf(inputKeyMaterial: ikm, info: Data([UInt8(round % 256)]), outputByteCount: 16, algorithm: algorithm))
                guard let key = Optional(hkdf(inputKeyMaterial: ikm, salt: Data("salt".utf8), info: Data("info".utf8), outputByteCount: 32, algorithm: algorithm)),
                      key == reference[algorithm], other?.bitCount == 128
                else { failed += 1; continue }
            }
            return failed
        }
        #expect(failures.reduce(0, +) == 0)
    }

    /// A C string with static lifetime (OSSL_PARAM keeps the pointer to its key).
    static func cName(_ name: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// HKDF through a new OpenSSL context with the digest named and an empty salt left out (the oracle).
    static func openSSLHKDF(ikm: Data, salt: Data, info: Data, count: Int, digest: String) -> Data? {
        guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else { return nil }
        defer { EVP_KDF_free(kdf) }
        guard let ctx = EVP_KDF_CTX_new(kdf) else { return nil }
        defer { EVP_KDF_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: count)
        let ok = digest.withCString { name in
            ikm.withUnsafeBytes { k in
                salt.withUnsafeBytes { s in
                    info.withUnsafeBytes { i in
                        var params = [OSSL_PARAM_construct_utf8_string(cName("digest"), UnsafeMutablePointer(mutating: name), 0),
                                      OSSL_PARAM_construct_octet_string(cName("key"), UnsafeMutableRawPointer(mutating: k.baseAddress), k.count)]
                        if !salt.isEmpty {
                            params.append(OSSL_PARAM_construct_octet_string(cName("salt"), UnsafeMutableRawPointer(mutating: s.baseAddress), s.count))
                        }
                        if !info.isEmpty {
                            params.append(OSSL_PARAM_construct_octet_string(cName("info"), UnsafeMutableRawPointer(mutating: i.baseAddress), i.count))
                        }
                        params.append(OSSL_PARAM_construct_end())
                        return EVP_KDF_derive(ctx, &out, count, &params) == 1
                    }
                }
            }
        }
        return ok ? Data(out) : nil
    }

    /// Random inputs in a random order — salts and infos longer, shorter and empty after one another — give on
    /// the kept contexts exactly what a new OpenSSL context gives.
    @Test func keptContextsMatchANewOpenSSLContext() throws {
        let digests: [(HashAlgorithm, String)] = [(.sha256, "SHA2-256"), (.sha384, "SHA2-384"), (.sha512, "SHA2-512")]
        for _ in 0..<200 {
            let (algorithm, name) = digests.randomElement()!
            let ikm = SecureRandom.bytes(count: Int.random(in: 1...80))
            let salt = SecureRandom.bytes(count: [0, 0, 1, 13, 32, 80].randomElement()!)
            let info = SecureRandom.bytes(count: [0, 1, 10, 80].randomElement()!)
            let count = Int.random(in: 1...200)
            let ours = hkdf(inputKeyMaterial: SymmetricKey(data: ikm), salt: salt, info: info, outputByteCount: count, algorithm: algorithm)
            let theirs = try #require(Self.openSSLHKDF(ikm: ikm, salt: salt, info: info, count: count, digest: name))
            #expect(keyHex(ours) == theirs.hexString)
        }
    }
}
#endif
