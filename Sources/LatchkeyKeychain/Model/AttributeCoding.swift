import Foundation

/// A compact, deterministic binary form of attribute values and whole attribute sets, used for primary
/// keys and for sealing attributes in a vault. Decoding checks every bound and throws `errSecDecode`.
enum AttributeCoding {
    static func appendLength(_ n: Int, to out: inout Data) {
        let v = UInt32(truncatingIfNeeded: n)
        out.append(contentsOf: [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)])
    }

    static func appendBytes<C: Collection>(_ bytes: C, to out: inout Data) where C.Element == UInt8 {
        appendLength(bytes.count, to: &out)
        out.append(contentsOf: bytes)
    }

    static func appendUInt64(_ v: UInt64, to out: inout Data) {
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((v >> UInt64(shift)) & 0xff)) }
    }

    static func append(_ value: AttributeValue, to out: inout Data) {
        switch value {
        case let .string(s): out.append(1); appendBytes(Array(s.utf8), to: &out)
        case let .data(d): out.append(2); appendBytes(d, to: &out)
        case let .int(i): out.append(3); appendUInt64(UInt64(bitPattern: i), to: &out)
        case let .bool(b): out.append(4); out.append(b ? 1 : 0)
        }
    }

    /// Encodes a whole attribute set.
    static func encode(_ a: ItemAttributes) -> Data {
        var out = Data([1]) // format version
        appendBytes(Array(a.itemClass.rawValue.utf8), to: &out)
        out.append(a.synchronizable ? 1 : 0)
        appendBytes(Array((a.accessibility?.rawValue ?? "").utf8), to: &out)
        if let ac = a.accessControl {
            out.append(1)
            appendBytes(Array(ac.accessibility.rawValue.utf8), to: &out)
            appendUInt64(UInt64(ac.flags.rawValue), to: &out)
        } else {
            out.append(0)
        }
        appendUInt64(a.creationDate.map { $0.timeIntervalSinceReferenceDate.bitPattern } ?? 0, to: &out)
        appendUInt64(a.modificationDate.map { $0.timeIntervalSinceReferenceDate.bitPattern } ?? 0, to: &out)
        let keys = a.values.keys.sorted()
        appendLength(keys.count, to: &out)
        for key in keys {
            appendBytes(Array(key.rawValue.utf8), to: &out)
            if let v = a.values[key] { append(v, to: &out) }
        }
        return out
    }

    /// Decodes what `encode` wrote.
    static func decode(_ data: Data) throws(KeychainStoreError) -> ItemAttributes {
        var r = Reader(bytes: [UInt8](data))
        guard try r.byte() == 1 else { throw KeychainStoreError(.decode, .corruptItem) }
        guard let cls = ItemClass(rawValue: try r.string()) else { throw KeychainStoreError(.decode, .corruptItem) }
        var a = ItemAttributes(itemClass: cls)
        a.synchronizable = try r.byte() == 1
        let acc = try r.string()
        if !acc.isEmpty {
            guard let level = Accessibility(rawValue: acc) else { throw KeychainStoreError(.decode, .corruptItem) }
            a.accessibility = level
        }
        if try r.byte() == 1 {
            guard let level = Accessibility(rawValue: try r.string()) else { throw KeychainStoreError(.decode, .corruptItem) }
            a.accessControl = AccessControl(accessibility: level, flags: AccessControlFlags(rawValue: UInt(try r.uint64())))
        }
        let c = try r.uint64(), m = try r.uint64()
        if c != 0 { a.creationDate = Date(timeIntervalSinceReferenceDate: Double(bitPattern: c)) }
        if m != 0 { a.modificationDate = Date(timeIntervalSinceReferenceDate: Double(bitPattern: m)) }
        let count = try r.length()
        for _ in 0..<count {
            guard let key = AttributeKey(rawValue: try r.string()) else { throw KeychainStoreError(.decode, .corruptItem) }
            a.values[key] = try r.value()
        }
        return a
    }

    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws(KeychainStoreError) -> UInt8 {
            guard offset < bytes.count else { throw KeychainStoreError(.decode, .corruptItem) }
            defer { offset += 1 }
            return bytes[offset]
        }
        mutating func length() throws(KeychainStoreError) -> Int {
            var v = 0
            for _ in 0..<4 { v = (v << 8) | Int(try byte()) }
            guard v <= bytes.count - offset || v == 0 else { throw KeychainStoreError(.decode, .corruptItem) }
            return v
        }
        mutating func uint64() throws(KeychainStoreError) -> UInt64 {
            var v: UInt64 = 0
            for _ in 0..<8 { v = (v << 8) | UInt64(try byte()) }
            return v
        }
        mutating func raw() throws(KeychainStoreError) -> [UInt8] {
            let n = try length()
            guard n <= bytes.count - offset else { throw KeychainStoreError(.decode, .corruptItem) }
            defer { offset += n }
            return Array(bytes[offset..<offset + n])
        }
        mutating func string() throws(KeychainStoreError) -> String {
            guard let s = String(validating: try raw(), as: UTF8.self) else { throw KeychainStoreError(.decode, .corruptItem) }
            return s
        }
        mutating func value() throws(KeychainStoreError) -> AttributeValue {
            switch try byte() {
            case 1: return .string(try string())
            case 2: return .data(Data(try raw()))
            case 3: return .int(Int64(bitPattern: try uint64()))
            case 4: return .bool(try byte() == 1)
            default: throw KeychainStoreError(.decode, .corruptItem)
            }
        }
    }
}
