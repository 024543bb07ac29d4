import Foundation
import LatchkeyCrypto
import Testing

@Suite struct SymmetricKeyTests {
    // Bit counts as arguments: test arguments are Sendable, and Apple's SymmetricKeySize is only from iOS 18.4's SDK.
    @Test(arguments: [128, 192, 256, 512])
    func randomKeysHaveTheirSize(_ bitCount: Int) {
        let size: SymmetricKeySize = bitCount == 128 ? .bits128 : bitCount == 192 ? .bits192 : bitCount == 256 ? .bits256
            : SymmetricKeySize(bitCount: bitCount)
        let key = SymmetricKey(size: size)
        #expect(key.bitCount == size.bitCount)
        #expect(key.bitCount / 8 == size.bitCount / 8)
        #expect(key != SymmetricKey(size: size))
    }

    @Test func defaultIs256Bits() {
        #expect(SymmetricKey(size: .bits256).bitCount == 256)
        #expect(SymmetricKeySize.bits256.bitCount == 256)
        #expect(SymmetricKeySize.bits128.bitCount == SymmetricKeySize(bitCount: 128).bitCount)
    }

    @Test func holdsACopyOfTheGivenBytes() {
        var source = Data((0..<32).map { UInt8($0) })
        let key = SymmetricKey(data: source)
        source[0] = 0xff
        #expect(key.withUnsafeBytes { Data($0) } == Data((0..<32).map { UInt8($0) }))
        #expect(key.bitCount / 8 == 32 && key.bitCount == 256)
        let fromArray = SymmetricKey(data: [UInt8](repeating: 7, count: 16))
        #expect(fromArray.withUnsafeBytes { Array($0) } == [UInt8](repeating: 7, count: 16))
        // A key is itself ContiguousBytes, so it can be copied.
        #expect(SymmetricKey(data: key) == key)
    }

    @Test func equalityComparesBytesAndLength() {
        let a = SymmetricKey(data: Data(repeating: 1, count: 32))
        #expect(a == SymmetricKey(data: Data(repeating: 1, count: 32)))
        #expect(a != SymmetricKey(data: Data(repeating: 1, count: 31)))
        var differentLast = Data(repeating: 1, count: 32)
        differentLast[31] = 2
        #expect(a != SymmetricKey(data: differentLast))
        #expect(SymmetricKey(data: Data()) == SymmetricKey(data: Data()))
    }

    #if !LATCHKEY_APPLE_FRAMEWORKS  // the Linux module's storage (Apple's SymmetricKey has no description either)
    @Test func printingShowsOnlyTheSize() {
        let bytes = Data(repeating: 0xab, count: 32)
        let key = SymmetricKey(data: bytes)
        #expect("\(key)" == "SymmetricKey(secret: SecretBytes(32 bytes))")
        #expect(String(describing: key) == "SymmetricKey(secret: SecretBytes(32 bytes))")
        #expect(String(reflecting: key) == "CryptoKit.SymmetricKey(secret: SecretBytes(32 bytes))")
        var dumped = ""
        dump(key, to: &dumped)
        for text in ["\(key)", String(reflecting: key), dumped] {
            #expect(!text.lowercased().contains("abab"))
            #expect(!text.contains(bytes.base64EncodedString()))
        }
        #expect("\(SymmetricKey(size: .bits128))" == "SymmetricKey(secret: SecretBytes(16 bytes))")
    }
    #endif

    #if !LATCHKEY_APPLE_FRAMEWORKS  // Apple's SymmetricKey is Sendable only from the iOS 18.4 SDK on
    @Test func sendableAcrossTasks() async {
        let key = SymmetricKey(size: .bits256)
        let copies = await withTaskGroup(of: Data.self) { group in
            for _ in 0..<8 { group.addTask { key.withUnsafeBytes { Data($0) } } }
            var all: [Data] = []
            for await c in group { all.append(c) }
            return all
        }
        #expect(Set(copies).count == 1)
    }
    #endif
}
