import Foundation

/// A CBOR data item (RFC 8949), restricted to what WebAuthn, CTAP2 and COSE use:
/// integers, byte and text strings, arrays, maps, booleans, null, undefined, tags and floats.
///
/// Maps keep their entries in order; `CBOREncoder` writes them in CTAP2 canonical order and
/// `CBORDecoder` in strict mode rejects any other order, duplicate keys and non-shortest encodings.
public indirect enum CBOR: Sendable, Hashable {
    /// A non-negative integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer `-1 - n` (major type 1), holding `n`.
    case negative(UInt64)
    case byteString(Data)
    case textString(String)
    case array([CBOR])
    case map([MapEntry])
    case tagged(UInt64, CBOR)
    case bool(Bool)
    case null
    case undefined
    case simple(UInt8)
    case float(Double)

    /// One key/value pair of a map, in the order it was read or written.
    public struct MapEntry: Sendable, Hashable {
        public var key: CBOR
        public var value: CBOR
        public init(key: CBOR, value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    /// An integer item for any `Int` (negative values use major type 1).
    public static func int(_ value: Int64) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// A map from key/value pairs, in the given order.
    public static func map(_ pairs: KeyValuePairs<CBOR, CBOR>) -> CBOR {
        .map(pairs.map { MapEntry(key: $0.key, value: $0.value) })
    }
}

extension CBOR {
    /// The integer value when it fits in `Int64`.
    public var int64Value: Int64? {
        switch self {
        case let .unsigned(n): n <= UInt64(Int64.max) ? Int64(n) : nil
        case let .negative(n): n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: nil
        }
    }

    /// The integer value when it fits in `Int`.
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    public var bytesValue: Data? {
        if case let .byteString(d) = self { return d }
        return nil
    }

    public var textValue: String? {
        if case let .textString(s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case let .bool(b) = self { return b }
        return nil
    }

    public var arrayValue: [CBOR]? {
        if case let .array(a) = self { return a }
        return nil
    }

    public var mapEntries: [MapEntry]? {
        if case let .map(m) = self { return m }
        return nil
    }

    /// The value stored under `key` in a map (nil for other items or a missing key).
    public subscript(key: CBOR) -> CBOR? {
        mapEntries?.first { $0.key == key }?.value
    }

    /// The value stored under an integer key (COSE labels).
    public subscript(int key: Int64) -> CBOR? { self[CBOR.int(key)] }

    /// The value stored under a text key (attestation objects).
    public subscript(text key: String) -> CBOR? { self[CBOR.textString(key)] }
}

extension CBOR: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByNilLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(stringLiteral value: String) { self = .textString(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: CBOR...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}
