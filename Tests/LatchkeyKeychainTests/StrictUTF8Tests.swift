import Foundation
import LatchkeyTestSupport
import LatchkeySupport
import Testing
@testable import LatchkeyKeychainCore

/// `String(validatingUTF8Bytes:)` (LatchkeySupport) replaced `String(validating:as:)`, which is above the
/// package's floor on Apple platforms. Both of its paths must answer exactly as `String(validating:as:)`:
/// the text for valid UTF-8, nil for anything else (never a repaired string).
@Suite(.offCooperativePool) struct StrictUTF8Tests {
    static let valid: [[UInt8]] = [
        [], Array("acct".utf8), Array("안녕하세요".utf8), Array("emoji 🔑 key".utf8), [0x00, 0x41],
        [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
        [0xEF, 0xBF, 0xBD], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
    ]
    static let invalid: [[UInt8]] = [
        [0xFF], [0x61, 0xFE, 0x62], [0x80], [0xC2], [0xC0, 0x80], [0xC1, 0xBF],       // stray, truncated, overlong
        [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],                   // overlong, surrogates
        [0xF0, 0x90, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],       // truncated, above U+10FFFF
        [0xF0, 0x90, 0x80, 0x61], Array("ok".utf8) + [0xE2, 0x82],
    ]

    @Test(arguments: valid + invalid)
    func bothPathsAnswerAsStringValidating(_ bytes: [UInt8]) {
        let expected = String(validating: bytes, as: UTF8.self)
        #expect(String(validatingUTF8Bytes: bytes) == expected)
        #expect(String(validatingUTF8Bytes: Data(bytes)) == expected)
        #expect(String.decodingWithoutRepair(bytes) == expected)
        #expect(String.decodingWithoutRepair(Data(bytes)) == expected)
        #expect(String.decodingWithoutRepair(bytes.lazy.map { $0 }) == expected)   // not contiguous
    }

    @Test func invalidBytesAreRefusedNotRepaired() {
        for bytes in Self.invalid {
            #expect(String(validatingUTF8Bytes: bytes) == nil, "\(bytes)")
            #expect(String.decodingWithoutRepair(bytes) == nil, "\(bytes)")
        }
    }

    @Test func keychainValuesKeepRefusingInvalidUTF8() {
        #expect(AttributeValue.data(Data([0x61, 0xFF])).textValue == nil)
        #expect(AttributeValue.data(Data("acct".utf8)).textValue == "acct")
    }
}
