import Foundation

/// A value bound to, or read from, a SQL statement. The server's schema uses only integers and text,
/// so both engines store exactly the same thing (hashes as hex, keys as base64url text).
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case text(String)

    /// `nil` becomes `.null`.
    public static func optional(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }
    /// `nil` becomes `.null`.
    public static func optional(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
}

/// One result row. Accessors convert between integer and text (PostgreSQL returns text for
/// columns that are not integers) and throw `DatabaseError.unexpectedValue` instead of trapping.
public struct SQLRow: Sendable, Equatable {
    public var values: [SQLValue]

    public init(_ values: [SQLValue]) { self.values = values }

    public func isNull(_ index: Int) -> Bool {
        guard values.indices.contains(index) else { return true }
        return values[index] == .null
    }

    public func integer(_ index: Int) throws -> Int64 {
        guard let value = optionalInteger(index) else { throw DatabaseError.unexpectedValue(column: index) }
        return value
    }

    public func optionalInteger(_ index: Int) -> Int64? {
        guard values.indices.contains(index) else { return nil }
        switch values[index] {
        case .integer(let v): return v
        case .text(let s): return Int64(s)
        case .null: return nil
        }
    }

    public func text(_ index: Int) throws -> String {
        guard let value = optionalText(index) else { throw DatabaseError.unexpectedValue(column: index) }
        return value
    }

    public func optionalText(_ index: Int) -> String? {
        guard values.indices.contains(index) else { return nil }
        switch values[index] {
        case .text(let s): return s
        case .integer(let v): return String(v)
        case .null: return nil
        }
    }
}
