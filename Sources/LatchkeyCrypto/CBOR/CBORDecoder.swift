import Foundation

/// Reads CBOR with size and depth limits. In the default strict mode it also enforces the
/// CTAP2 deterministic form (shortest encodings, definite lengths, sorted unique map keys), so
/// that a signed structure has exactly one byte representation.
public struct CBORDecoder: Sendable {
    /// Bounds that keep a hostile input from using unbounded time or memory.
    public struct Limits: Sendable, Hashable {
        /// Largest accepted input, in bytes.
        public var maxInputBytes: Int
        /// Deepest accepted nesting of arrays, maps and tags.
        public var maxDepth: Int
        /// Most elements in one array or map.
        public var maxContainerCount: Int

        public init(maxInputBytes: Int = 1 << 20, maxDepth: Int = 16, maxContainerCount: Int = 4096) {
            self.maxInputBytes = maxInputBytes
            self.maxDepth = maxDepth
            self.maxContainerCount = maxContainerCount
        }
    }

    public var limits: Limits
    /// Enforce CTAP2 canonical form (shortest heads, sorted map keys). Duplicate keys and
    /// indefinite lengths are refused in either mode.
    public var requireCanonical: Bool

    public init(limits: Limits = Limits(), requireCanonical: Bool = true) {
        self.limits = limits
        self.requireCanonical = requireCanonical
    }

    /// Decodes exactly one item; bytes after it are an error.
    public func decode(_ data: Data) throws(CBORError) -> CBOR {
        let (item, consumed) = try decodePrefix(data)
        guard consumed == data.count else { throw .trailingBytes(count: data.count - consumed) }
        return item
    }

    /// Decodes the first item and returns how many bytes it took (for authenticator data, where
    /// extensions follow the credential public key).
    public func decodePrefix(_ data: Data) throws(CBORError) -> (item: CBOR, consumed: Int) {
        guard data.count <= limits.maxInputBytes else { throw .tooLarge(limit: limits.maxInputBytes) }
        var reader = Reader(bytes: [UInt8](data), decoder: self)
        let item = try reader.item(depth: 0)
        return (item, reader.position)
    }
}

extension CBOR {
    /// Decodes one canonical CBOR item with the default limits.
    public init(decoding data: Data) throws(CBORError) {
        self = try CBORDecoder().decode(data)
    }
}

private struct Reader {
    let bytes: [UInt8]
    let decoder: CBORDecoder
    var position = 0

    init(bytes: [UInt8], decoder: CBORDecoder) {
        self.bytes = bytes
        self.decoder = decoder
    }

    mutating func byte() throws(CBORError) -> UInt8 {
        guard position < bytes.count else { throw .truncated }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func take(_ count: Int) throws(CBORError) -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - position >= count else { throw .truncated }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func uint(_ size: Int) throws(CBORError) -> UInt64 {
        var value: UInt64 = 0
        for b in try take(size) { value = value << 8 | UInt64(b) }
        return value
    }

    /// The argument of a head; rejects indefinite lengths and, in strict mode, non-shortest forms.
    mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
        let value: UInt64
        switch info {
        case 0..<24: return UInt64(info)
        case 24: value = try uint(1); if value < 24 { try nonCanonical("integer or length not in shortest form") }
        case 25: value = try uint(2); if value <= 0xff { try nonCanonical("integer or length not in shortest form") }
        case 26: value = try uint(4); if value <= 0xffff { try nonCanonical("integer or length not in shortest form") }
        case 27: value = try uint(8); if value <= 0xffff_ffff { try nonCanonical("integer or length not in shortest form") }
        case 31: throw .indefiniteLength
        default: throw .malformed("reserved additional information \(info)")
        }
        return value
    }

    func nonCanonical(_ what: String) throws(CBORError) {
        if decoder.requireCanonical { throw .nonCanonical(what) }
    }

    func length(_ value: UInt64) throws(CBORError) -> Int {
        // A length can never exceed what is left of the input: checking here bounds allocations.
        guard value <= UInt64(bytes.count - position) else { throw .truncated }
        return Int(value)
    }

    func count(_ value: UInt64) throws(CBORError) -> Int {
        guard value <= UInt64(decoder.limits.maxContainerCount) else {
            throw .tooLarge(limit: decoder.limits.maxContainerCount)
        }
        return Int(value)
    }

    mutating func item(depth: Int) throws(CBORError) -> CBOR {
        guard depth <= decoder.limits.maxDepth else { throw .tooDeep(limit: decoder.limits.maxDepth) }
        let initial = try byte()
        let major = initial >> 5, info = initial & 0x1f
        switch major {
        case 0: return .unsigned(try argument(info))
        case 1: return .negative(try argument(info))
        case 2:
            return .byteString(Data(try take(try length(try argument(info)))))
        case 3:
            let raw = try take(try length(try argument(info)))
            guard let text = String(validatingUTF8Bytes: raw) else { throw .invalidUTF8 }
            return .textString(text)
        case 4:
            let n = try count(try argument(info))
            var items: [CBOR] = []
            items.reserveCapacity(min(n, bytes.count - position))
            for _ in 0..<n { items.append(try item(depth: depth + 1)) }
            return .array(items)
        case 5:
            let n = try count(try argument(info))
            var entries: [CBOR.MapEntry] = []
            var previousKey: ArraySlice<UInt8>?
            // Keys are compared by their canonical encoding, not `==`: a NaN is not equal to itself, so two NaN
            // keys would both pass (and encode to one repeated key).
            var seen = Set<Data>()
            for _ in 0..<n {
                let keyStart = position
                let key = try item(depth: depth + 1)
                let keyBytes = bytes[keyStart..<position]
                guard seen.insert(key.encoded).inserted else { throw .duplicateMapKey }
                // The order matters only in canonical mode (the comparison copies both keys).
                if decoder.requireCanonical, let previous = previousKey,
                   !CBOREncoder.canonicalOrder(Data(previous), Data(keyBytes)) {
                    try nonCanonical("map keys out of canonical order")
                }
                previousKey = keyBytes
                entries.append(CBOR.MapEntry(key: key, value: try item(depth: depth + 1)))
            }
            return .map(entries)
        case 6:
            let tag = try argument(info)
            return .tagged(tag, try item(depth: depth + 1))
        default:
            return try simpleOrFloat(info)
        }
    }

    mutating func simpleOrFloat(_ info: UInt8) throws(CBORError) -> CBOR {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 0..<20: return .simple(info)
        case 24:
            let v = try byte()
            guard v >= 32 else { throw .malformed("simple value \(v) in two-byte form") }
            return .simple(v)
        case 25:
            let bits = UInt16(try uint(2))
            let value = Double(Float16(bitPattern: bits))
            // The one canonical NaN is the half-precision quiet NaN 0xf97e00 (what the encoder writes).
            if value.isNaN, bits != 0x7e00 { try nonCanonical("NaN not in canonical form") }
            return .float(value)
        case 26:
            let value = Double(Float(bitPattern: UInt32(try uint(4))))
            if value.isNaN || Float16(exactly: value) != nil { try nonCanonical("float not in shortest form") }
            return .float(value)
        case 27:
            let value = Double(bitPattern: try uint(8))
            if value.isNaN || Float(exactly: value) != nil { try nonCanonical("float not in shortest form") }
            return .float(value)
        case 31: throw .malformed("unexpected break")
        default: throw .malformed("reserved additional information \(info)")
        }
    }
}
