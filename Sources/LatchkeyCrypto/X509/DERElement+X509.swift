import Foundation

/// Strict DER readings of single elements for the certificate parser (ITU-T X.690 §10–11, RFC 5280).
/// Each answers nil when the element is not exactly the DER form of its type.
extension DERElement {
    // Universal tag numbers of the certificate's primitive types.
    static let bitString: UInt32 = 3, objectIdentifier: UInt32 = 6
    static let utcTime: UInt32 = 23, generalizedTime: UInt32 = 24

    /// A primitive element of the universal class with this tag number.
    func isPrimitive(_ number: UInt32) -> Bool { tagClass == .universal && !isConstructed && tagNumber == number }

    /// A constructed SEQUENCE's children.
    var sequenceItems: [DERElement]? { isConstructed && isUniversal(Self.sequence) ? children : nil }

    /// A BOOLEAN: one octet, 0x00 or 0xFF (DER).
    var booleanValue: Bool? {
        guard isPrimitive(Self.boolean), contents.count == 1 else { return nil }
        switch contents[contents.startIndex] {
        case 0x00: return false
        case 0xff: return true
        default: return nil
        }
    }

    /// The two's-complement contents of an INTEGER in its shortest form (no redundant leading 0x00 or 0xFF).
    var integerBytes: Data? { isPrimitive(Self.integer) && Self.isShortestInteger(contents) ? contents : nil }

    static func isShortestInteger(_ contents: Data) -> Bool {
        guard let first = contents.first else { return false }
        guard contents.count > 1 else { return true }
        let second = contents[contents.startIndex + 1]
        return !(first == 0x00 && second & 0x80 == 0) && !(first == 0xff && second & 0x80 != 0)
    }

    /// Whether the element is acceptable as an `ANY` value (algorithm parameters): its outer level in DER form,
    /// checked by type as OpenSSL's decoder checks it (BOOLEAN, INTEGER, ENUMERATED, NULL, OID, BIT STRING), a
    /// SEQUENCE or SET constructed and any other universal type primitive. Other classes are taken as they are.
    var isWellFormedAnyValue: Bool {
        guard tagClass == .universal else { return true }
        switch tagNumber {
        case 0: return false
        case Self.boolean: return booleanValue != nil
        case Self.integer: return integerBytes != nil
        case Self.enumerated: return !isConstructed && Self.isShortestInteger(contents)
        case Self.null: return !isConstructed && contents.isEmpty
        case Self.objectIdentifier: return objectIdentifierValue != nil
        case Self.bitString: return bitStringValue != nil
        case Self.sequence, Self.set: return isConstructed
        default: return !isConstructed
        }
    }

    /// A BIT STRING: the count of unused bits of the last octet (0…7, 0 when there is no octet) and the octets;
    /// DER makes the unused bits zero.
    var bitStringValue: (unusedBits: Int, bytes: Data)? {
        isPrimitive(Self.bitString) ? Self.bitString(contents) : nil
    }

    /// The unused-bit count and octets of BIT STRING contents (any tag), in their DER form.
    static func bitString(_ contents: Data) -> (unusedBits: Int, bytes: Data)? {
        guard let first = contents.first, first <= 7 else { return nil }
        let bytes = contents.dropFirst()
        if let last = bytes.last {
            guard last & UInt8((1 << Int(first)) - 1) == 0 else { return nil }
        } else if first != 0 {
            return nil
        }
        return (Int(first), Data(bytes))
    }

    /// An OBJECT IDENTIFIER in dotted form ("2.5.4.3"); nil for a malformed one or an arc above 224 bits.
    var objectIdentifierValue: String? {
        guard isPrimitive(Self.objectIdentifier) else { return nil }
        return Self.dottedObjectIdentifier(contents)
    }

    /// The dotted form of an OBJECT IDENTIFIER's contents (X.690 §8.19): base-128 arcs without a leading
    /// 0x80, the first arc holding the first two numbers.
    static func dottedObjectIdentifier(_ contents: Data) -> String? {
        guard let last = contents.last, last & 0x80 == 0 else { return nil }
        var text = ""
        var arc = DecimalAccumulator()
        var arcLength = 0
        for byte in contents {
            if arcLength == 0 && byte == 0x80 { return nil }
            arcLength += 1
            guard arcLength <= 32 else { return nil }
            arc.multiplyAdd(128, UInt32(byte & 0x7f))
            guard byte & 0x80 == 0 else { continue }
            if text.isEmpty {
                // The first subidentifier is 40 × first + second (first ≤ 2).
                let small = arc.smallValue
                switch small {
                case .some(let v) where v < 40: text = "0.\(v)"
                case .some(let v) where v < 80: text = "1.\(v - 40)"
                default:
                    arc.subtract(80)
                    text = "2." + arc.description
                }
            } else {
                text += "." + arc.description
            }
            arc = DecimalAccumulator()
            arcLength = 0
        }
        return text
    }

    /// The element's own DER encoding: identifier octets, the shortest length, the contents.
    var derEncoding: Data {
        var out = Data()
        let head = tagClass.rawValue << 6 | (isConstructed ? 0x20 : 0)
        if tagNumber < 0x1f {
            out.append(head | UInt8(tagNumber))
        } else {
            out.append(head | 0x1f)
            var groups: [UInt8] = []
            var n = tagNumber
            repeat { groups.insert(UInt8(n & 0x7f), at: 0); n >>= 7 } while n > 0
            for i in groups.indices.dropLast() { groups[i] |= 0x80 }
            out.append(contentsOf: groups)
        }
        out.append(contentsOf: Self.lengthOctets(contents.count))
        out.append(contents)
        return out
    }

    static func lengthOctets(_ length: Int) -> [UInt8] {
        guard length >= 0x80 else { return [UInt8(length)] }
        var octets: [UInt8] = []
        var n = length
        while n > 0 { octets.insert(UInt8(n & 0xff), at: 0); n >>= 8 }
        return [0x80 | UInt8(octets.count)] + octets
    }
}

/// A non-negative integer of any size in base 10⁹ limbs (least significant first), for OID arcs such as
/// the 128-bit UUID arcs of 2.25.
struct DecimalAccumulator: CustomStringConvertible {
    private var limbs: [UInt64] = [0]
    private static let base: UInt64 = 1_000_000_000

    mutating func multiplyAdd(_ factor: UInt64, _ addend: UInt32) {
        var carry = UInt64(addend)
        for i in limbs.indices {
            let v = limbs[i] * factor + carry
            limbs[i] = v % Self.base
            carry = v / Self.base
        }
        while carry > 0 { limbs.append(carry % Self.base); carry /= Self.base }
    }

    /// Subtracts a value the accumulator is known to hold at least.
    mutating func subtract(_ value: UInt64) {
        var borrow = value
        for i in limbs.indices where borrow > 0 {
            let take = borrow % Self.base
            borrow /= Self.base
            if limbs[i] >= take { limbs[i] -= take } else { limbs[i] += Self.base - take; borrow += 1 }
        }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
    }

    /// The value when it is below 10⁹.
    var smallValue: UInt64? { limbs.count == 1 ? limbs[0] : nil }

    var description: String {
        var text = String(limbs[limbs.count - 1])
        for limb in limbs.dropLast().reversed() {
            let digits = String(limb)
            text += String(repeating: "0", count: 9 - digits.count) + digits
        }
        return text
    }
}
