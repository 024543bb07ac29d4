import Foundation

/// The value of one attribute: a string, bytes, an integer or a flag.
public enum AttributeValue: Sendable, Hashable, Codable {
    case string(String)
    case data(Data)
    case int(Int64)
    case bool(Bool)

    /// The kinds of attribute values.
    public enum Kind: Sendable, Hashable { case string, data, int, bool }

    /// This value's kind.
    public var kind: Kind {
        switch self {
        case .string: .string
        case .data: .data
        case .int: .int
        case .bool: .bool
        }
    }

    /// The value an absent attribute has when it takes part in a primary key ("" / empty / 0 / false).
    public static func empty(_ kind: Kind) -> AttributeValue {
        switch kind {
        case .string: .string("")
        case .data: .data(Data())
        case .int: .int(0)
        case .bool: .bool(false)
        }
    }

    /// The string, if this is a string value.
    public var stringValue: String? { if case let .string(s) = self { s } else { nil } }
    /// The string, or bytes that are valid UTF-8 (a blob attribute such as the account given as `Data`).
    public var textValue: String? {
        switch self {
        case let .string(s): s
        case let .data(d): String(validating: d, as: UTF8.self)
        case .int, .bool: nil
        }
    }
    /// The bytes, if this is a data value.
    public var dataValue: Data? { if case let .data(d) = self { d } else { nil } }
    /// The integer, if this is an integer value.
    public var intValue: Int64? { if case let .int(i) = self { i } else { nil } }
    /// The flag, if this is a boolean value.
    public var boolValue: Bool? { if case let .bool(b) = self { b } else { nil } }
}
