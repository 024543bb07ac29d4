import Foundation

/// One DER element (ITU-T X.690): its tag and contents, with the children of a constructed element
/// already parsed. Produced by `DERReader`; holds no pointers into the input.
public struct DERElement: Sendable, Hashable {
    public enum TagClass: UInt8, Sendable, Hashable {
        case universal = 0, application = 1, contextSpecific = 2, `private` = 3
    }

    public let tagClass: TagClass
    public let isConstructed: Bool
    /// The tag number, including high tag numbers (`[600]`, `[702]`).
    public let tagNumber: UInt32
    /// The contents octets (zero-based).
    public let contents: Data
    /// The parsed contents of a constructed element; empty for a primitive one.
    public let children: [DERElement]

    // Universal tag numbers used by callers.
    public static let boolean: UInt32 = 1, integer: UInt32 = 2, octetString: UInt32 = 4, null: UInt32 = 5
    public static let enumerated: UInt32 = 10, sequence: UInt32 = 16, set: UInt32 = 17

    public func isUniversal(_ number: UInt32) -> Bool { tagClass == .universal && tagNumber == number }
    public func isContext(_ number: UInt32) -> Bool { tagClass == .contextSpecific && tagNumber == number }

    /// The value of a primitive INTEGER or ENUMERATED that is non-negative and fits 63 bits.
    public var smallIntegerValue: Int64? {
        guard !isConstructed, tagClass == .universal, tagNumber == Self.integer || tagNumber == Self.enumerated,
              !contents.isEmpty, contents.count <= 9, contents[contents.startIndex] & 0x80 == 0 else { return nil }
        let trimmed = contents.drop { $0 == 0 }
        guard trimmed.count < 8 || (trimmed.count == 8 && (trimmed.first ?? 0) & 0x80 == 0) else { return nil }
        return trimmed.reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    /// The contents of a primitive OCTET STRING.
    public var octetStringValue: Data? {
        guard !isConstructed, isUniversal(Self.octetString) else { return nil }
        return contents
    }
}

/// A bounded reader of DER: definite lengths only, at most `maxDepth` nested constructed elements,
/// every length checked against the bytes left. For parsing certificate extension values (hostile input).
///
/// `requireMinimalEncoding: false` also reads BER's unambiguous definite-length forms — lengths and high tag
/// numbers written longer than needed — which some Android keystore firmware writes into its attestation
/// extension (inside a certificate the keystore signs). Indefinite lengths are refused in both modes.
public enum DERReader {
    /// Deepest nesting accepted by default.
    public static let defaultMaxDepth = 16

    /// Parses exactly one element that spans all of `data`.
    public static func parse(_ data: Data, maxDepth: Int = defaultMaxDepth,
                             requireMinimalEncoding: Bool = true) throws(CryptoError) -> DERElement {
        let bytes = [UInt8](data)
        var offset = 0
        let element = try parseElement(bytes, &offset, end: bytes.count, depth: 0, maxDepth: maxDepth,
                                       minimal: requireMinimalEncoding)
        guard offset == bytes.count else { throw .malformedInput("DER: trailing bytes") }
        return element
    }

    /// Parses a sequence of elements that spans all of `data` (the contents of a constructed element).
    public static func parseAll(_ data: Data, maxDepth: Int = defaultMaxDepth,
                                requireMinimalEncoding: Bool = true) throws(CryptoError) -> [DERElement] {
        let bytes = [UInt8](data)
        var offset = 0
        var out: [DERElement] = []
        while offset < bytes.count {
            out.append(try parseElement(bytes, &offset, end: bytes.count, depth: 0, maxDepth: maxDepth,
                                        minimal: requireMinimalEncoding))
        }
        return out
    }

    static func parseElement(_ bytes: [UInt8], _ offset: inout Int, end: Int, depth: Int,
                             maxDepth: Int, minimal: Bool) throws(CryptoError) -> DERElement {
        guard depth <= maxDepth else { throw .malformedInput("DER: nested too deeply") }
        guard offset < end else { throw .malformedInput("DER: truncated tag") }
        let first = bytes[offset]
        offset += 1
        guard let tagClass = DERElement.TagClass(rawValue: first >> 6) else { throw .malformedInput("DER: tag class") }
        let constructed = first & 0x20 != 0
        var number = UInt32(first & 0x1f)
        if number == 0x1f {
            // High tag number: base-128, most significant first, no leading 0x80, at most 4 bytes.
            number = 0
            var count = 0
            while true {
                guard offset < end else { throw .malformedInput("DER: truncated tag number") }
                let b = bytes[offset]
                offset += 1
                count += 1
                guard count <= 4, !(minimal && count == 1 && b == 0x80) else { throw .malformedInput("DER: tag number") }
                number = number << 7 | UInt32(b & 0x7f)
                if b & 0x80 == 0 { break }
            }
            guard number >= 0x1f || !minimal else { throw .malformedInput("DER: non-minimal tag number") }
        }
        guard offset < end else { throw .malformedInput("DER: truncated length") }
        let lengthByte = bytes[offset]
        offset += 1
        var length = 0
        if lengthByte < 0x80 {
            length = Int(lengthByte)
        } else {
            let count = Int(lengthByte & 0x7f)
            guard count >= 1, count <= 4 else { throw .malformedInput("DER: indefinite or oversized length") }
            guard end - offset >= count else { throw .malformedInput("DER: truncated length") }
            // DER writes a long-form length in as few octets as it needs: no leading zero octet.
            guard bytes[offset] != 0 || !minimal else { throw .malformedInput("DER: non-minimal length") }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[offset])
                offset += 1
            }
            guard length >= 0x80 || !minimal else { throw .malformedInput("DER: non-minimal length") }
        }
        guard length <= end - offset else { throw .malformedInput("DER: length exceeds the input") }
        let contentEnd = offset + length
        let contents = Data(bytes[offset..<contentEnd])
        var children: [DERElement] = []
        if constructed {
            var inner = offset
            while inner < contentEnd {
                children.append(try parseElement(bytes, &inner, end: contentEnd, depth: depth + 1, maxDepth: maxDepth,
                                                 minimal: minimal))
            }
        }
        offset = contentEnd
        return DERElement(tagClass: tagClass, isConstructed: constructed, tagNumber: number, contents: contents,
                          children: children)
    }
}
