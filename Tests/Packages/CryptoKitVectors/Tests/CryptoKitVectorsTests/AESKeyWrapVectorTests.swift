// AES key wrap against RFC 3394 §4.1–§4.6 (128/192/256-bit key data under 128/192/256-bit KEKs).
import CryptoKit
import Foundation
import Testing

@Suite("AES.KeyWrap: RFC 3394 §4")
struct AESKeyWrapVectorTests {
    static let kek128 = "000102030405060708090a0b0c0d0e0f"
    static let kek192 = "000102030405060708090a0b0c0d0e0f1011121314151617"
    static let kek256 = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    static let key128 = "00112233445566778899aabbccddeeff"
    static let key192 = "00112233445566778899aabbccddeeff0001020304050607"
    static let key256 = "00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f"

    static let vectors: [(String, String, String, String)] = [
        ("4.1", kek128, key128, "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5"),
        ("4.2", kek192, key128, "96778b25ae6ca435f92b5b97c050aed2468ab8a17ad84e5d"),
        ("4.3", kek256, key128, "64e8c3f9ce0f5ba263e9777905818a2a93c8191e7d6e8ae7"),
        ("4.4", kek192, key192, "031d33264e15d33268f24ec260743edce1c6c7ddee725a936ba814915c6762d2"),
        ("4.5", kek256, key192, "a8f9bc1612c68b3ff6e6f4fbe30e71e4769c8b80a32cb8958cd5d17d6b254da1"),
        ("4.6", kek256, key256, "28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21"),
    ]

    @Test("Wrap and unwrap the published examples", arguments: vectors)
    func vector(_ vector: (String, String, String, String)) throws {
        let (section, kekHex, keyHex, wrappedHex) = vector
        let kek = SymmetricKey(data: Data(hex: kekHex))
        let key = SymmetricKey(data: Data(hex: keyHex))
        let wrapped = try AES.KeyWrap.wrap(key, using: kek)
        #expect(wrapped == Data(hex: wrappedHex), "RFC 3394 §\(section)")
        #expect(try AES.KeyWrap.unwrap(Data(hex: wrappedHex), using: kek) == key)
        #expect(try AES.KeyWrap.unwrap(split(Data(hex: wrappedHex)), using: kek) == key)

        // The integrity check: any changed bit, or the wrong KEK, is refused.
        for index in [0, 8, wrapped.count - 1] {
            var tampered = wrapped
            tampered[index] ^= 0x01
            #expect(throws: (any Error).self) { try AES.KeyWrap.unwrap(tampered, using: kek) }
        }
        #expect(throws: (any Error).self) { try AES.KeyWrap.unwrap(wrapped, using: SymmetricKey(size: .bits256)) }
        #expect(throws: (any Error).self) { try AES.KeyWrap.unwrap(wrapped.dropLast(8), using: kek) }
    }

    @Test("Empty keys and KEKs of the wrong size are refused")
    func badSizes() {
        let kek = SymmetricKey(data: Data(hex: Self.kek256))
        #expect(throws: (any Error).self) { try AES.KeyWrap.wrap(SymmetricKey(data: Data()), using: kek) }
        #expect(throws: (any Error).self) { try AES.KeyWrap.unwrap(Data(), using: kek) }
        #expect(throws: (any Error).self) {
            try AES.KeyWrap.wrap(SymmetricKey(data: Data(hex: Self.key128)), using: SymmetricKey(data: Data()))
        }
        #expect(throws: (any Error).self) {
            try AES.KeyWrap.unwrap(Data(hex: "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5"),
                                   using: SymmetricKey(data: Data(repeating: 1, count: 20)))
        }
    }
}
