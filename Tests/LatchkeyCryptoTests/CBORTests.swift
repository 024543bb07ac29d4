import Foundation
import Testing
import LatchkeyCrypto

/// RFC 8949 Appendix A examples (those in the deterministic subset) and CTAP2 canonical-form rules.
@Suite struct CBORTests {
    static let appendixA: [(CBOR, String)] = [
        (0, "00"), (1, "01"), (10, "0a"), (23, "17"), (24, "1818"), (25, "1819"), (100, "1864"),
        (1000, "1903e8"), (1_000_000, "1a000f4240"), (1_000_000_000_000, "1b000000e8d4a51000"),
        (.unsigned(18_446_744_073_709_551_615), "1bffffffffffffffff"),
        (.negative(18_446_744_073_709_551_615), "3bffffffffffffffff"),
        (-1, "20"), (-10, "29"), (-100, "3863"), (-1000, "3903e7"),
        (.float(0.0), "f90000"), (.float(-0.0), "f98000"), (.float(1.0), "f93c00"),
        (.float(1.1), "fb3ff199999999999a"), (.float(1.5), "f93e00"), (.float(65504.0), "f97bff"),
        (.float(100000.0), "fa47c35000"), (.float(3.4028234663852886e+38), "fa7f7fffff"),
        (.float(1.0e+300), "fb7e37e43c8800759c"), (.float(5.960464477539063e-8), "f90001"),
        (.float(0.00006103515625), "f90400"), (.float(-4.0), "f9c400"), (.float(-4.1), "fbc010666666666666"),
        (.float(.infinity), "f97c00"), (.float(-.infinity), "f9fc00"),
        (false, "f4"), (true, "f5"), (nil, "f6"), (.undefined, "f7"), (.simple(16), "f0"), (.simple(255), "f8ff"),
        (.tagged(0, "2013-03-21T20:04:00Z"), "c074323031332d30332d32315432303a30343a30305a"),
        (.tagged(1, 1_363_896_240), "c11a514b67b0"),
        (.byteString(Data()), "40"), (.byteString(Data([1, 2, 3, 4])), "4401020304"),
        ("", "60"), ("a", "6161"), ("IETF", "6449455446"), ("\"\\", "62225c"), ("\u{00fc}", "62c3bc"),
        ("\u{6c34}", "63e6b0b4"),
        ([], "80"), ([1, 2, 3], "83010203"), ([1, [2, 3], [4, 5]], "8301820203820405"),
        (.map([]), "a0"), (.map([1: 2, 3: 4]), "a201020304"), (.map(["a": 1, "b": [2, 3]]), "a26161016162820203"),
        (["a", .map(["b": "c"])], "826161a161626163"),
    ]

    @Test func encodesAppendixAExamples() {
        for (item, hex) in Self.appendixA {
            #expect(item.encoded.hexString == hex, "\(item)")
        }
    }

    @Test func decodesAppendixAExamplesStrictly() throws {
        for (item, hex) in Self.appendixA {
            let decoded = try CBOR(decoding: try #require(Data(hexString: hex)))
            #expect(decoded == item, "\(hex)")
        }
    }

    @Test func decodesNaN() throws {
        let value = try CBOR(decoding: Data([0xf9, 0x7e, 0x00]))
        guard case let .float(d) = value else { Issue.record("not a float"); return }
        #expect(d.isNaN)
    }

    @Test func strictDecodingHasOneNaN() throws {
        // Found by the cbor fuzz target: f97ef6 (a NaN with a payload) decoded in strict mode and re-encoded as
        // f97e00, so one value had two canonical encodings.
        for hex in ["f97ef6", "f9fe00", "fa7fc00000", "fb7ff8000000000000"] {
            let data = try #require(Data(hexString: hex))
            #expect(throws: CBORError.self, "\(hex)") { try CBORDecoder().decode(data) }
            #expect(try CBORDecoder(requireCanonical: false).decode(data).encoded == Data([0xf9, 0x7e, 0x00]))
        }
    }

    @Test func twoNaNKeysAreDuplicates() throws {
        // NaN != NaN, so a map with two NaN keys passed the duplicate check and encoded to a map with one key
        // twice, which the strict decoder refused (the cbor fuzz target's round-trip property).
        for hex in ["a2f97e0001f97e0002", "a2f97e0001f97e0102"] {
            let data = try #require(Data(hexString: hex))
            #expect(throws: CBORError.duplicateMapKey, "\(hex)") { try CBORDecoder(requireCanonical: false).decode(data) }
        }
    }

    @Test func sortsMapKeysCanonically() {
        // CTAP2: major type first, then shorter encodings, then bytewise.
        let map = CBOR.map([
            "b": 1, -1: 2, 10: 3, "aa": 4, 1: 5, .byteString(Data([0])): 6,
        ])
        #expect(map.encoded.hexString == "a6" + "0105" + "0a03" + "2002" + "410006" + "616201" + "62616104")
    }

    @Test func coseKeyAccessors() throws {
        let key = CBOR.map([1: 2, 3: -7, -1: 1, -2: .byteString(Data(repeating: 1, count: 32))])
        let decoded = try CBOR(decoding: key.encoded)
        #expect(decoded[int: 1]?.intValue == 2)
        #expect(decoded[int: 3]?.intValue == -7)
        #expect(decoded[int: -2]?.bytesValue?.count == 32)
        #expect(decoded[int: 99] == nil)
        #expect(CBOR.textString("x")[int: 1] == nil)
    }

    @Test(arguments: [
        ("18", CBORError.truncated),                     // head says one more byte
        ("4401", .truncated),                            // byte string shorter than its length
        ("5affffffff00", .truncated),                    // huge length: refused before any allocation
        ("8301", .truncated),                            // array missing elements
        ("a1", .truncated),
        ("0000", .trailingBytes(count: 1)),
        ("5f4101ff", .indefiniteLength),
        ("9fff", .indefiniteLength),
        ("1817", .nonCanonical("integer or length not in shortest form")),
        ("190017", .nonCanonical("integer or length not in shortest form")),
        ("5801ff", .nonCanonical("integer or length not in shortest form")),
        ("a203040102", .nonCanonical("map keys out of canonical order")),
        ("a201020103", .duplicateMapKey),
        ("62c328", .invalidUTF8),
        ("1c", .malformed("reserved additional information 28")),
        ("f818", .malformed("simple value 24 in two-byte form")),
        ("ff", .malformed("unexpected break")),
        ("fa3f800000", .nonCanonical("float not in shortest form")),
    ] as [(String, CBORError)])
    func rejectsMalformedInput(hex: String, expected: CBORError) throws {
        let data = try #require(Data(hexString: hex))
        #expect(throws: expected) { try CBOR(decoding: data) }
    }

    @Test func lenientModeAcceptsNonCanonicalButNotDuplicates() throws {
        let lenient = CBORDecoder(requireCanonical: false)
        #expect(try lenient.decode(Data([0x18, 0x17])) == 23)
        #expect(try lenient.decode(try #require(Data(hexString: "a203040102")))[int: 1] == 2)
        #expect(throws: CBORError.duplicateMapKey) { try lenient.decode(try #require(Data(hexString: "a201020103"))) }
    }

    @Test func enforcesDepthLimit() {
        var deep = Data(repeating: 0x81, count: 17)
        deep.append(0x00)
        #expect(throws: CBORError.tooDeep(limit: 16)) { try CBOR(decoding: deep) }
        let shallow = Data(repeating: 0x81, count: 16) + Data([0x00])
        #expect((try? CBOR(decoding: shallow)) != nil)
        // A very deep input must fail cleanly, not exhaust the stack.
        #expect(throws: CBORError.tooDeep(limit: 16)) { try CBOR(decoding: Data(repeating: 0x81, count: 100_000)) }
    }

    @Test func enforcesSizeLimits() {
        let decoder = CBORDecoder(limits: .init(maxInputBytes: 8, maxDepth: 4, maxContainerCount: 2))
        #expect(throws: CBORError.tooLarge(limit: 8)) { try decoder.decode(Data(count: 9)) }
        #expect(throws: CBORError.tooLarge(limit: 2)) { try decoder.decode(Data([0x83, 1, 2, 3])) }
    }

    @Test func decodePrefixReportsConsumedBytes() throws {
        let key = CBOR.map([1: 2]).encoded
        let (item, consumed) = try CBORDecoder().decodePrefix(key + Data([0xa0]))
        #expect(item[int: 1] == 2)
        #expect(consumed == key.count)
    }

    @Test func roundTripsNestedStructures() throws {
        let item: CBOR = .map([
            "fmt": "none", "attStmt": .map([]),
            "authData": .byteString(Data((0..<200).map { UInt8($0) })),
            "list": [.tagged(42, [1, -2, "x"]), .bool(true), nil],
        ])
        let decoded = try CBOR(decoding: item.encoded)
        #expect(decoded[text: "fmt"] == "none")
        #expect(decoded[text: "list"]?.arrayValue?.count == 3)
        #expect(decoded.encoded == item.encoded)
    }
}
