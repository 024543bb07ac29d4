import Foundation

/// Any JSON value: JOSE header members and JWT claims that have no dedicated property.
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .string(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        }
    }

    /// The string, when this is a string.
    public var stringValue: String? { if case let .string(v) = self { v } else { nil } }
    /// The boolean, when this is a boolean.
    public var boolValue: Bool? { if case let .bool(v) = self { v } else { nil } }
    /// The number as an integer, when it is one.
    public var intValue: Int64? {
        switch self {
        case let .integer(v): v
        case let .number(v): v.rounded() == v && abs(v) < 9.2e18 ? Int64(v) : nil
        default: nil
        }
    }
    /// The number, when this is a number.
    public var doubleValue: Double? {
        switch self {
        case let .integer(v): Double(v)
        case let .number(v): v
        default: nil
        }
    }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? { if case let .array(v) = self { v } else { nil } }
    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? { if case let .object(v) = self { v } else { nil } }

    /// The member `key` of an object (nil for other values).
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// Compact JSON text.
    public var description: String {
        (try? JSONCoding.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

/// A coding key for any member name.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The JSON encoder and decoder settings JOSE uses: compact, sorted keys, no escaped slashes.
enum JSONCoding {
    static func encode(_ value: some Encodable) throws(CryptoError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return try encoder.encode(value) } catch { throw .malformedInput("JSON encoding") }
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(CryptoError) -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch { throw .malformedInput("JSON") }
    }

    /// A JSON object (anything else is malformed).
    static func object(from data: Data) throws(CryptoError) -> [String: JSONValue] {
        try decode([String: JSONValue].self, from: data)
    }
}
