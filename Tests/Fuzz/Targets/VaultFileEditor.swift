import CSQLite
import Foundation

/// Damage with SQLite's own hands: overwrites columns of a real vault's `items` and `meta` rows with values the
/// fuzz input chooses (blobs, text, integers, NULL, of any type), or deletes rows. This reaches what a byte-level
/// mutation rarely does while the file stays a valid database: every unsealed column and meta row the vault
/// reads before (or instead of) opening a sealed blob.
enum VaultFileEditor {
    static let itemColumns = ["uid", "class", "pk", "agrp", "lookup", "sync", "pdmn", "accc", "gen", "attrs", "value", "gate"]
    static let metaNames = ["format", "vault_id", "wrap.provider", "wrap.passphrase", "wrap.device", "wrap.session"]

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Applies the edits `input` describes to the database at `path`. Returns false when it cannot be opened.
    static func apply(_ input: inout FuzzInput, to path: String) -> Bool {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else {
            if let db { sqlite3_close_v2(db) }
            return false
        }
        defer { sqlite3_close_v2(db) }
        let count = Int(input.byte() % 8) + 1
        for _ in 0..<count {
            let operation = input.byte()
            let sql: String
            switch operation % 4 {
            case 0, 1:
                let column = itemColumns[Int(input.byte()) % itemColumns.count]
                sql = "UPDATE items SET \(column) = ?1 WHERE id = \(1 + Int(input.byte() % 8))"
            case 2:
                let selector = input.byte()
                let name = Int(selector) < metaNames.count ? metaNames[Int(selector)] : input.string()
                bindAndRun(db, "INSERT OR REPLACE INTO meta (name, value) VALUES (?2, ?1)", &input, name: name)
                continue
            default:
                sql = operation & 4 == 0 ? "DELETE FROM items WHERE id = \(1 + Int(input.byte() % 8))"
                    : "DELETE FROM meta WHERE name = '\(metaNames[Int(input.byte()) % metaNames.count])'"
            }
            bindAndRun(db, sql, &input, name: nil)
        }
        return true
    }

    /// Runs one statement with ?1 bound to a value of the kind the input picks (and ?2 to `name`).
    private static func bindAndRun(_ db: OpaquePointer, _ sql: String, _ input: inout FuzzInput, name: String?) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return }
        defer { sqlite3_finalize(statement) }
        if sqlite3_bind_parameter_count(statement) >= 1 {
            switch input.byte() % 4 {
            case 0:
                let blob = input.data()
                blob.withUnsafeBytes { raw in
                    _ = sqlite3_bind_blob64(statement, 1, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                            sqlite3_uint64(raw.count), transient)
                }
            case 1: sqlite3_bind_text(statement, 1, input.string(), -1, transient)
            case 2: sqlite3_bind_int64(statement, 1, Int64(bitPattern: input.uint64()))
            default: sqlite3_bind_null(statement, 1)
            }
        }
        if let name { sqlite3_bind_text(statement, 2, name, -1, transient) }
        _ = sqlite3_step(statement)
    }
}
