import Foundation
import LatchkeyCrypto

/// CBOR decode (strict and lenient). Properties: a strictly decoded item re-encodes to exactly the input
/// (CTAP2 canonical form has one encoding per value); whatever the lenient decoder accepts encodes to a
/// canonical form the strict decoder accepts and re-encodes unchanged.
enum CBORFuzzing {
    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        if let item = try? CBORDecoder().decode(data) {
            try require(item.encoded == data, .cbor, "strict decode → encode gives different bytes")
        }
        if let item = try? CBORDecoder(requireCanonical: false).decode(data) {
            let canonical = item.encoded
            let again: CBOR
            do { again = try CBORDecoder().decode(canonical) } catch {
                throw FuzzPropertyViolation(.cbor, "the canonical encoding of a lenient decode is refused: \(error)")
            }
            try require(again.encoded == canonical, .cbor, "decode → encode → decode does not round-trip")
        }
        if let (item, used) = try? CBORDecoder(requireCanonical: false).decodePrefix(data) {
            try require(used > 0 && used <= data.count, .cbor, "decodePrefix consumed \(used) of \(data.count) bytes")
            _ = item.encoded
        }
    }

    /// RFC 8949 Appendix A items (the vectors of CBORTests) and WebAuthn-shaped maps.
    static func seeds() -> [Data] {
        let hex = [
            "00", "01", "0a", "17", "1818", "1819", "1864", "1903e8", "1a000f4240", "1b000000e8d4a51000",
            "1bffffffffffffffff", "20", "29", "3863", "3903e7", "f90000", "f98000", "f93c00", "fb3ff199999999999a",
            "f93e00", "f97bff", "fa47c35000", "fb7e37e43c8800759c", "f90001", "f90400", "f9c400",
            "fbc010666666666666", "f97c00", "f97e00", "f9fc00", "f4", "f5", "f6", "f7", "f0", "f8ff",
            "c074323031332d30332d32315432303a30343a30305a", "c11a514b67b0", "d82076687474703a2f2f7777772e6578616d706c652e636f6d",
            "40", "4401020304", "60", "6161", "6449455446", "62225c", "62c3bc", "63e6b0b4", "64f0908591",
            "80", "83010203", "8301820203820405", "a0", "a201020304", "a26161016162820203",
            "826161a161626163", "a56161614161626142616361436164614461656145",
        ]
        var seeds = hex.compactMap { Data(hexString: $0) }
        seeds.append(CBOR.map([1: 2, 3: -7, -1: 1, -2: .byteString(Data(count: 32)), -3: .byteString(Data(count: 32))]).encoded)
        seeds.append(CBOR.map(["fmt": "none", "attStmt": .map([]), "authData": .byteString(Data(count: 37))]).encoded)
        return seeds
    }
}
