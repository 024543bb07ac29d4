import Foundation
import Testing
@testable import LatchkeyCrypto

@Suite struct DERReaderTests {
    @Test func parsesNestedElementsAndHighTagNumbers() throws {
        // SEQUENCE { [702] EXPLICIT INTEGER 0, [600] EXPLICIT NULL, [1] EXPLICIT SET { INTEGER 2 }, OCTET STRING 'ab' }
        let fixed = Data([0x30, 0x18, 0xbf, 0x85, 0x3e, 0x03, 0x02, 0x01, 0x00, 0xbf, 0x84, 0x58, 0x02, 0x05, 0x00,
                          0xa1, 0x05, 0x31, 0x03, 0x02, 0x01, 0x02, 0x04, 0x02, 0x61, 0x62])
        let root = try DERReader.parse(fixed)
        #expect(root.isUniversal(DERElement.sequence) && root.children.count == 4)
        #expect(root.children[0].isContext(702) && root.children[0].children.first?.smallIntegerValue == 0)
        #expect(root.children[1].isContext(600))
        #expect(root.children[2].children.first?.children.first?.smallIntegerValue == 2)
        #expect(root.children[3].octetStringValue == Data("ab".utf8))
    }

    @Test func longLengthsAndIntegers() throws {
        let long = Data([0x04, 0x81, 0x80]) + Data(repeating: 7, count: 128)
        #expect(try DERReader.parse(long).contents.count == 128)
        #expect(try DERReader.parse(Data([0x02, 0x02, 0x00, 0xff])).smallIntegerValue == 255)
        #expect(try DERReader.parse(Data([0x02, 0x01, 0xff])).smallIntegerValue == nil) // negative
        #expect(try DERReader.parseAll(Data([0x05, 0x00, 0x05, 0x00])).count == 2)
    }

    @Test func refusesHostileInput() {
        let cases: [Data] = [
            Data(),                                   // empty
            Data([0x30]),                             // no length
            Data([0x30, 0x05, 0x02, 0x01]),           // length past the end
            Data([0x30, 0x80, 0x00, 0x00]),           // indefinite length
            Data([0x04, 0x81, 0x05, 1, 2, 3, 4, 5]),  // non-minimal long length
            Data([0x04, 0x82, 0x00, 0x80]) + Data(count: 128), // long length with a leading zero octet
            Data([0x04, 0x85, 1, 0, 0, 0, 0]),        // five length bytes
            Data([0xbf, 0x80, 0x01, 0x00]),           // tag number with a leading 0x80
            Data([0xbf, 0x81, 0x81, 0x81, 0x81, 0x01, 0x00]), // tag number too long
            Data([0x05, 0x00, 0x00]),                 // trailing bytes
            Data([0x30, 0x03, 0x30, 0x01, 0x00]),     // child overruns its parent
        ]
        for bytes in cases {
            #expect(throws: CryptoError.self, "\(bytes.hexString)") { try DERReader.parse(bytes) }
        }
        // BER's longer definite forms are read only when asked; indefinite lengths and overruns never are.
        let longLength = try? DERReader.parse(Data([0x04, 0x81, 0x05, 1, 2, 3, 4, 5]), requireMinimalEncoding: false)
        #expect(longLength?.octetStringValue == Data([1, 2, 3, 4, 5]))
        let zeroLed = try? DERReader.parse(Data([0x04, 0x82, 0x00, 0x80]) + Data(count: 128), requireMinimalEncoding: false)
        #expect(zeroLed?.octetStringValue?.count == 128)
        let shortTag = try? DERReader.parse(Data([0xbf, 0x05, 0x00]), requireMinimalEncoding: false)
        #expect(shortTag?.tagNumber == 5 && shortTag?.tagClass == .contextSpecific)
        for bytes in [Data([0x30, 0x80, 0x00, 0x00]), Data([0x30, 0x05, 0x02, 0x01]), Data([0x04, 0x85, 1, 0, 0, 0, 0])] {
            #expect(throws: CryptoError.self, "\(bytes.hexString)") { try DERReader.parse(bytes, requireMinimalEncoding: false) }
        }
        // 40 nested SEQUENCEs exceed the depth limit.
        var nested = Data([0x05, 0x00])
        for _ in 0..<40 { nested = Data([0x30, UInt8(nested.count)]) + nested }
        #expect(throws: CryptoError.self) { try DERReader.parse(nested) }
        #expect((try? DERReader.parse(nested, maxDepth: 64)) != nil)
    }
}

@Suite struct DERReaderRobustnessTests {
    /// Random and mutated inputs only ever parse or throw (a deterministic generator, so failures repeat).
    @Test func randomInputNeverTraps() {
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        func next() -> UInt8 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        let seed = Data([0x30, 0x18, 0xbf, 0x85, 0x3e, 0x03, 0x02, 0x01, 0x00, 0xbf, 0x84, 0x58, 0x02, 0x05, 0x00,
                         0xa1, 0x05, 0x31, 0x03, 0x02, 0x01, 0x02, 0x04, 0x02, 0x61, 0x62])
        var parsed = 0
        for round in 0..<5000 {
            var bytes: Data
            if round % 2 == 0 {
                bytes = seed
                for _ in 0..<(1 + Int(next() % 4)) { bytes[Int(next()) % bytes.count] = next() }
            } else {
                bytes = Data((0..<Int(next() % 48)).map { _ in next() })
            }
            if let element = try? DERReader.parse(bytes) {
                parsed += 1
                _ = element.smallIntegerValue
                _ = element.octetStringValue
            }
            _ = try? DERReader.parseAll(bytes)
        }
        #expect(parsed > 0)
    }
}
