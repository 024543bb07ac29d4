// HKDF against RFC 5869 appendix A: test cases 1–3 (SHA-256) and 4–7 (SHA-1), each checked through the one-call
// `deriveKey`, and through `extract` (compared with the published PRK) then `expand` (compared with the OKM).
// Test case 7 has no salt at all (`nil`), which RFC 5869 §2.2 defines as HashLen zero bytes.
import CryptoKit
import Foundation
import Testing

struct HKDFVector: Sendable {
    let testCase: Int
    let ikm: Data
    let salt: Data?
    let info: Data
    let length: Int
    let prk: String
    let okm: String
}

@Suite("HKDF: RFC 5869")
struct HKDFVectorTests {
    static let longIKM = Data(0x00...0x4f)
    static let longSalt = Data(0x60...0xaf)
    static let longInfo = Data(0xb0...0xff)

    static let sha256: [HKDFVector] = [
        HKDFVector(testCase: 1, ikm: Data(repeating: 0x0b, count: 22), salt: Data(hex: "000102030405060708090a0b0c"),
                   info: Data(hex: "f0f1f2f3f4f5f6f7f8f9"), length: 42,
                   prk: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
                   okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        HKDFVector(testCase: 2, ikm: longIKM, salt: longSalt, info: longInfo, length: 82,
                   prk: "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
                   okm: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09"
                       + "da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        HKDFVector(testCase: 3, ikm: Data(repeating: 0x0b, count: 22), salt: Data(), info: Data(), length: 42,
                   prk: "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
                   okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    static let sha1: [HKDFVector] = [
        HKDFVector(testCase: 4, ikm: Data(repeating: 0x0b, count: 11), salt: Data(hex: "000102030405060708090a0b0c"),
                   info: Data(hex: "f0f1f2f3f4f5f6f7f8f9"), length: 42,
                   prk: "9b6c18c432a7bf8f0e71c8eb88f4b30baa2ba243",
                   okm: "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896"),
        HKDFVector(testCase: 5, ikm: longIKM, salt: longSalt, info: longInfo, length: 82,
                   prk: "8adae09a2a307059478d309b26c4115a224cfaf6",
                   okm: "0bd770a74d1160f7c9f12cd5912a06ebff6adcae899d92191fe4305673ba2ffe8fa3f1a4e5ad79f3f334b3b202b2173c"
                       + "486ea37ce3d397ed034c7f9dfeb15c5e927336d0441f4c4300e2cff0d0900b52d3b4"),
        HKDFVector(testCase: 6, ikm: Data(repeating: 0x0b, count: 22), salt: Data(), info: Data(), length: 42,
                   prk: "da8c8a73c7fa77288ec6f5e7c297786aa0d32d01",
                   okm: "0ac1af7002b3d761d1e55298da9d0506b9ae52057220a306e07b6b87e8df21d0ea00033de03984d34918"),
        HKDFVector(testCase: 7, ikm: Data(repeating: 0x0c, count: 22), salt: nil, info: Data(), length: 42,
                   prk: "2adccada18779e7c2077ad2eb19d3f3e731385dd",
                   okm: "2c91117204d745f3500d636a62f64f0ab3bae548aa53d423b0d1f27ebba6f5e5673a081d70cce7acfc48"),
    ]

    static func check<H: HashFunction>(_: H.Type, _ vector: HKDFVector) {
        let ikm = SymmetricKey(data: vector.ikm)
        let okm = Data(hex: vector.okm)
        let derived = HKDF<H>.deriveKey(inputKeyMaterial: ikm, salt: vector.salt ?? Data(), info: vector.info,
                                        outputByteCount: vector.length)
        #expect(derived.withUnsafeBytes { Data($0) } == okm, "test case \(vector.testCase): deriveKey")
        #expect(derived == SymmetricKey(data: okm))
        let splitInputs = HKDF<H>.deriveKey(inputKeyMaterial: ikm, salt: split(vector.salt ?? Data()),
                                            info: split(vector.info), outputByteCount: vector.length)
        #expect(splitInputs == derived, "test case \(vector.testCase): non-contiguous salt and info")

        let prk = HKDF<H>.extract(inputKeyMaterial: ikm, salt: vector.salt)
        #expect(prk.hexString == vector.prk, "test case \(vector.testCase): extract")
        let expanded = HKDF<H>.expand(pseudoRandomKey: prk, info: vector.info, outputByteCount: vector.length)
        #expect(expanded == SymmetricKey(data: okm), "test case \(vector.testCase): expand")
        let fromBytes = HKDF<H>.expand(pseudoRandomKey: Data(hex: vector.prk), info: vector.info,
                                       outputByteCount: vector.length)
        #expect(fromBytes == SymmetricKey(data: okm), "test case \(vector.testCase): expand from PRK bytes")
        if vector.info.isEmpty {
            let noInfo = HKDF<H>.expand(pseudoRandomKey: prk, info: Optional<Data>.none, outputByteCount: vector.length)
            #expect(noInfo == SymmetricKey(data: okm), "test case \(vector.testCase): expand with nil info")
            let shortForm = HKDF<H>.deriveKey(inputKeyMaterial: ikm, salt: vector.salt ?? Data(),
                                              outputByteCount: vector.length)
            #expect(shortForm == SymmetricKey(data: okm), "test case \(vector.testCase): deriveKey without info")
        }
        if vector.salt?.isEmpty ?? true {
            let noSalt = HKDF<H>.deriveKey(inputKeyMaterial: ikm, info: vector.info, outputByteCount: vector.length)
            #expect(noSalt == SymmetricKey(data: okm), "test case \(vector.testCase): deriveKey without salt")
        }
    }

    @Test("HKDF-SHA256 (RFC 5869 A.1–A.3)", arguments: sha256)
    func hkdfSHA256(_ vector: HKDFVector) { Self.check(SHA256.self, vector) }

    @Test("HKDF-SHA1 (RFC 5869 A.4–A.7)", arguments: sha1)
    func hkdfSHA1(_ vector: HKDFVector) { Self.check(Insecure.SHA1.self, vector) }

    @Test("Output lengths: one byte, and the maximum 255 × HashLen")
    func lengths() {
        let ikm = SymmetricKey(data: Data(repeating: 0x0b, count: 22))
        let longest = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, outputByteCount: 255 * 32)
        #expect(longest.bitCount == 255 * 32 * 8)
        let one = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, outputByteCount: 1)
        #expect(one.withUnsafeBytes { Data($0) } == longest.withUnsafeBytes { Data($0.prefix(1)) })
        #expect(HKDF<SHA512>.deriveKey(inputKeyMaterial: ikm, outputByteCount: 255 * 64).bitCount == 255 * 64 * 8)
    }
}
