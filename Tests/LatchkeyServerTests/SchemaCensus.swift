import Foundation
import Testing
@testable import LatchkeyServer

/// Every table of the server's schema, read from the database itself (SQLite's catalogue, PostgreSQL's
/// information_schema) — so a table a future migration adds is counted without anyone listing it here — with its
/// rows counted, and the rows whose text holds a given value found.
struct SchemaCensus: Equatable, CustomStringConvertible {
    /// Rows per table.
    var rows: [String: Int]

    static func tables(_ database: any Database) throws -> [String] {
        let sql = switch database.dialect {
        case .sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        case .postgres:
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
        }
        return try database.withConnection { conn in try conn.execute(sql).map { try $0.text(0) } }
    }

    init(_ database: any Database) throws {
        var rows: [String: Int] = [:]
        for table in try Self.tables(database) {
            // Table names come from the catalogue, not from input.
            rows[table] = Int(try database.withConnection { try $0.execute("SELECT COUNT(*) FROM \(table)") }.first?.integer(0) ?? -1)
        }
        self.rows = rows
    }

    /// Per table, the rows in which some column's text contains one of `values` (an id, a name, a handle...).
    static func rows(containing values: [String], in database: any Database) throws -> [String: [SQLRow]] {
        var found: [String: [SQLRow]] = [:]
        for table in try tables(database) {
            let matching = try database.withConnection { try $0.execute("SELECT * FROM \(table)") }.filter { row in
                row.values.contains { value in
                    guard case .text(let text) = value else { return false }
                    return values.contains { !$0.isEmpty && text.contains($0) }
                }
            }
            if !matching.isEmpty { found[table] = matching }
        }
        return found
    }

    /// The tables whose counts differ, as `table: before → after`.
    func changes(to after: SchemaCensus) -> [String: String] {
        var changed: [String: String] = [:]
        for table in Set(rows.keys).union(after.rows.keys) where rows[table] != after.rows[table] {
            changed[table] = "\(rows[table].map(String.init) ?? "none") → \(after.rows[table].map(String.init) ?? "none")"
        }
        return changed
    }

    var description: String { rows.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
}
