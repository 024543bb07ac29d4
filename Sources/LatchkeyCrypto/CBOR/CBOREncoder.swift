import Foundation

/// Writes CBOR in the deterministic form CTAP2 requires: shortest integers and lengths,
/// definite lengths only, map keys sorted (major type, then encoded length, then bytes).
public enum CBOREncoder {
    public static func encode(_ item: CBOR) -> Data {
        var out = Data()
        append(item, to: &out)
        return out
    }

    static func append(_ item: CBOR, to out: inout Data) {
        switch item {
        case let .unsigned(n): head(0, n, &out)
        case let .negative(n): head(1, n, &out)
        case let .byteString(d):
            head(2, UInt64(d.count), &out)
            out.append(d)
        case let .textString(s):
            let utf8 = Data(s.utf8)
            head(3, UInt64(utf8.count), &out)
            out.append(utf8)
        case let .array(items):
            head(4, UInt64(items.count), &out)
            for i in items { append(i, to: &out) }
        case let .map(entries):
            head(5, UInt64(entries.count), &out)
            let encoded = entries.map { (key: encode($0.key), value: $0.value) }
                .sorted { canonicalOrder($0.key, $1.key) }
            for e in encoded {
                out.append(e.key)
                append(e.value, to: &out)
            }
        case let .tagged(tag, inner):
            head(6, tag, &out)
            append(inner, to: &out)
        case let .bool(b): out.append(b ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        case .undefined: out.append(0xf7)
        case let .simple(v):
            if v < 24 { out.append(0xe0 | v) } else { out.append(0xf8); out.append(v) }
        case let .float(d): appendFloat(d, &out)
        }
    }

    /// CTAP2 canonical key order over encoded keys.
    static func canonicalOrder(_ a: Data, _ b: Data) -> Bool {
        let ma = (a.first ?? 0) >> 5, mb = (b.first ?? 0) >> 5
        if ma != mb { return ma < mb }
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }

    static func head(_ major: UInt8, _ value: UInt64, _ out: inout Data) {
        let m = major << 5
        switch value {
        case 0..<24: out.append(m | UInt8(value))
        case 24...0xff: out.append(m | 24); out.append(UInt8(value))
        case 0x100...0xffff:
            out.append(m | 25)
            withUnsafeBytes(of: UInt16(value).bigEndian) { out.append(contentsOf: $0) }
        case 0x10000...0xffff_ffff:
            out.append(m | 26)
            withUnsafeBytes(of: UInt32(value).bigEndian) { out.append(contentsOf: $0) }
        default:
            out.append(m | 27)
            withUnsafeBytes(of: value.bigEndian) { out.append(contentsOf: $0) }
        }
    }

    /// Shortest of half, single and double precision that holds the value exactly.
    static func appendFloat(_ d: Double, _ out: inout Data) {
        if d.isNaN {
            out.append(contentsOf: [0xf9, 0x7e, 0x00])
        } else if let h = Float16(exactly: d) ?? (d.isInfinite ? Float16(d) : nil) {
            out.append(0xf9)
            withUnsafeBytes(of: h.bitPattern.bigEndian) { out.append(contentsOf: $0) }
        } else if let f = Float(exactly: d) {
            out.append(0xfa)
            withUnsafeBytes(of: f.bitPattern.bigEndian) { out.append(contentsOf: $0) }
        } else {
            out.append(0xfb)
            withUnsafeBytes(of: d.bitPattern.bigEndian) { out.append(contentsOf: $0) }
        }
    }
}

extension CBOR {
    /// The deterministic encoding of this item.
    public var encoded: Data { CBOREncoder.encode(self) }
}
