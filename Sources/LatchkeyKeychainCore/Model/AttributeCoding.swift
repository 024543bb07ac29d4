import Foundation

/// A compact, deterministic binary form of attribute values and whole attribute sets, used for primary
/// keys and for sealing attributes in a vault. Decoding checks every bound and throws `errSecDecode`.
package enum AttributeCoding {
    package static func appendLength(_ n: Int, to out: inout Data) {
        var w = Writer(capacity: 4)
        w.length(n)
        out.append(contentsOf: w.bytes)
    }

    package static func appendBytes<C: Collection>(_ bytes: C, to out: inout Data) where C.Element == UInt8 {
        appendLength(bytes.count, to: &out)
        out.append(contentsOf: bytes)
    }

    package static func appendUInt64(_ v: UInt64, to out: inout Data) {
        var w = Writer(capacity: 8)
        w.uint64(v)
        out.append(contentsOf: w.bytes)
    }

    package static func append(_ value: AttributeValue, to out: inout Data) {
        var w = Writer(capacity: 16)
        w.value(value)
        out.append(contentsOf: w.bytes)
    }

    /// Encodes a whole attribute set.
    package static func encode(_ a: ItemAttributes) -> Data {
        var w = Writer(capacity: 128)
        w.byte(1) // format version
        w.string(a.itemClass.rawValue)
        w.byte(a.synchronizable ? 1 : 0)
        w.string(a.accessibility?.rawValue ?? "")
        if let ac = a.accessControl {
            w.byte(1)
            w.string(ac.accessibility.rawValue)
            w.uint64(UInt64(ac.flags.rawValue))
        } else {
            w.byte(0)
        }
        w.uint64(a.creationDate.map { $0.timeIntervalSinceReferenceDate.bitPattern } ?? 0)
        w.uint64(a.modificationDate.map { $0.timeIntervalSinceReferenceDate.bitPattern } ?? 0)
        let values = a.values.sorted { $0.key < $1.key }
        w.length(values.count)
        for (key, value) in values {
            w.string(key.rawValue)
            w.value(value)
        }
        return Data(w.bytes)
    }

    /// Builds an encoding in one growing byte array (no intermediate arrays or `Data` per field); the bytes
    /// are exactly those the `append…(to: &Data)` functions write.
    package struct Writer {
        package var bytes: [UInt8] = []

        package init(capacity: Int) { bytes.reserveCapacity(capacity) }

        package mutating func byte(_ b: UInt8) { bytes.append(b) }

        /// A 4-byte big-endian length.
        package mutating func length(_ n: Int) {
            let v = UInt32(truncatingIfNeeded: n)
            bytes.append(UInt8(v >> 24)); bytes.append(UInt8((v >> 16) & 0xff))
            bytes.append(UInt8((v >> 8) & 0xff)); bytes.append(UInt8(v & 0xff))
        }

        package mutating func uint64(_ v: UInt64) {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((v >> UInt64(shift)) & 0xff)) }
        }

        /// Length-prefixed bytes.
        package mutating func lengthPrefixed(_ d: Data) {
            length(d.count)
            bytes.append(contentsOf: d)
        }

        /// Length-prefixed UTF-8.
        package mutating func string(_ s: String) {
            var s = s
            s.withUTF8 { utf8 in
                length(utf8.count)
                bytes.append(contentsOf: utf8)
            }
        }

        package mutating func value(_ value: AttributeValue) {
            switch value {
            case let .string(s): byte(1); string(s)
            case let .data(d): byte(2); lengthPrefixed(d)
            case let .int(i): byte(3); uint64(UInt64(bitPattern: i))
            case let .bool(b): byte(4); byte(b ? 1 : 0)
            }
        }
    }

    /// Decodes what `encode` wrote.
    package static func decode(_ data: Data) throws(KeychainStoreError) -> ItemAttributes {
        var r = Reader(bytes: [UInt8](data))
        guard try r.byte() == 1 else { throw KeychainStoreError(.decode, .corruptItem) }
        guard let cls = try r.fourCC().flatMap(ItemClass.init(fourCC:)) else { throw KeychainStoreError(.decode, .corruptItem) }
        var a = ItemAttributes(itemClass: cls)
        a.synchronizable = try r.byte() == 1
        if let level = try r.accessibility(allowingNone: true) { a.accessibility = level }
        if try r.byte() == 1 {
            guard let level = try r.accessibility(allowingNone: false) else { throw KeychainStoreError(.decode, .corruptItem) }
            a.accessControl = AccessControl(accessibility: level, flags: AccessControlFlags(rawValue: UInt(try r.uint64())))
        }
        let c = try r.uint64(), m = try r.uint64()
        if c != 0 { a.creationDate = Date(timeIntervalSinceReferenceDate: Double(bitPattern: c)) }
        if m != 0 { a.modificationDate = Date(timeIntervalSinceReferenceDate: Double(bitPattern: m)) }
        let count = try r.length()
        for _ in 0..<count {
            guard let key = try r.fourCC().flatMap(AttributeKey.init(fourCC:)) else { throw KeychainStoreError(.decode, .corruptItem) }
            a.values[key] = try r.value()
        }
        return a
    }

    package struct Reader {
        package let bytes: [UInt8]
        package var offset = 0

        package init(bytes: [UInt8]) { self.bytes = bytes }

        package mutating func byte() throws(KeychainStoreError) -> UInt8 {
            guard offset < bytes.count else { throw KeychainStoreError(.decode, .corruptItem) }
            defer { offset += 1 }
            return bytes[offset]
        }
        package mutating func length() throws(KeychainStoreError) -> Int {
            var v = 0
            for _ in 0..<4 { v = (v << 8) | Int(try byte()) }
            guard v <= bytes.count - offset || v == 0 else { throw KeychainStoreError(.decode, .corruptItem) }
            return v
        }
        package mutating func uint64() throws(KeychainStoreError) -> UInt64 {
            var v: UInt64 = 0
            for _ in 0..<8 { v = (v << 8) | UInt64(try byte()) }
            return v
        }
        /// The bytes of a length-prefixed field, as a range of `bytes`; moves past it.
        package mutating func field() throws(KeychainStoreError) -> Range<Int> {
            let n = try length()
            guard n <= bytes.count - offset else { throw KeychainStoreError(.decode, .corruptItem) }
            defer { offset += n }
            return offset..<offset + n
        }
        package mutating func raw() throws(KeychainStoreError) -> [UInt8] {
            Array(bytes[try field()])
        }
        package mutating func string() throws(KeychainStoreError) -> String {
            guard let s = String(validating: bytes[try field()], as: UTF8.self) else { throw KeychainStoreError(.decode, .corruptItem) }
            return s
        }
        /// A length-prefixed string of exactly 4 bytes as a `FourCC` (nil for another length: no class or
        /// attribute name has one), read without making a `String`.
        package mutating func fourCC() throws(KeychainStoreError) -> FourCC? {
            let r = try field()
            return r.count == 4 ? FourCC(bytes[r.lowerBound], bytes[r.lowerBound + 1], bytes[r.lowerBound + 2], bytes[r.lowerBound + 3]) : nil
        }
        /// A length-prefixed accessibility raw value (empty: none, when `allowingNone`); corrupt otherwise.
        package mutating func accessibility(allowingNone: Bool) throws(KeychainStoreError) -> Accessibility? {
            let r = try field()
            if r.isEmpty && allowingNone { return nil }
            let level = bytes.withUnsafeBytes { Accessibility(utf8: UnsafeRawBufferPointer(rebasing: $0[r])) }
            guard let level else { throw KeychainStoreError(.decode, .corruptItem) }
            return level
        }
        package mutating func value() throws(KeychainStoreError) -> AttributeValue {
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
