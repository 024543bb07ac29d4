import CSQLite
import Foundation
import LatchkeyKeychainCore

/// The vault file's layout, version 2 (docs/ARCHITECTURE.md, "FileVault"), and the move from version 1.
///
/// A write costs the pages the commit must write anyway: an add writes the new row (at the right edge of the rowid
/// table) and one entry of the one index, an update of a value writes its row alone. Version 1 wrote two index
/// entries per add and the `meta` page of its generation counter on every commit: 4.8 WAL frames per add against the
/// raw-SQLite baseline's 2.1 (docs/PERFORMANCE.md).
///
/// - `items_lookup` (lookup, pk) is unique and serves every lookup: `lookup` is the service's (generic passwords) or
///   the server's (internet passwords) lookup MAC followed by the account's — empty for the classes without them —
///   and `pk` the primary-key MAC, which covers the class: so the index is also the uniqueness of (class, primary
///   key), the lookup MACs being functions of the primary key. A lookup by service and account is one key; by service
///   alone, a range of keys; a lookup MAC covers its attribute's name (a service MAC is never a server MAC), so neither
///   needs the class. Lookup MACs are stored as their first 16 bytes (LookupMAC). With the service and the account in
///   one column, each comparison of the index's search is one `memcmp` (1,700 fewer instructions per read than two
///   columns with the class in front, measured on the bench's 10,000 items).
/// - **The generation lives in the rows a commit writes**: every write transaction takes the next generation, and
///   stores it in `gen` of each row it writes, or, when it writes no row (a delete, a change of a wrapping), in the
///   `meta` row `generation`. The file's generation is the largest of both. A transaction lost to a cut or a damaged
///   log takes its generation with it (the log is replayed in order: the newest commits go first), so the file's
///   generation falls below the one recorded after the commit in `<vault>.generation`, and the vault is refused as in
///   version 1. Writers learn the current generation once and keep it while SQLite's data version says no other
///   connection has committed (`SQLITE_FCNTL_DATA_VERSION`); after another's commit they read it again.
enum VaultFormat {
    static let version1 = Data("latchkey-vault-1".utf8)
    static let version2 = Data("latchkey-vault-2".utf8)

    static let schema = """
        CREATE TABLE meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);
        CREATE TABLE items (
            id INTEGER PRIMARY KEY, class TEXT NOT NULL, lookup BLOB NOT NULL, pk BLOB NOT NULL, uid BLOB NOT NULL,
            pdmn TEXT NOT NULL, accc INTEGER NOT NULL, gen INTEGER NOT NULL, value BLOB NOT NULL, agrp BLOB,
            sync INTEGER NOT NULL, attrs BLOB NOT NULL, gate BLOB);
        CREATE UNIQUE INDEX items_lookup ON items (lookup, pk);
        """

    /// The file's generation: the `meta` row and the newest row (0 for a file with neither).
    static func generation(_ db: SQLiteDatabase, format: Data) throws(KeychainStoreError) -> Int64 {
        let sql = format == version1 ? "SELECT value FROM meta WHERE name = 'generation'"
            : "SELECT max(coalesce((SELECT value FROM meta WHERE name = 'generation'), 0), coalesce((SELECT max(gen) FROM items), 0))"
        return try db.using(sql) { s throws(KeychainStoreError) in try s.step() ? s.int(0) : 0 }
    }

    /// Moves a version-1 file to version 2 in one transaction: a crash or power cut leaves version 1 or version 2 with
    /// every item, never neither. Pure SQL: no item is opened (the sealed parts' associated data does not change), so
    /// a locked vault migrates. Returns the generation the move committed (nil when another connection moved it first).
    static func migrate(_ db: SQLiteDatabase) throws(KeychainStoreError) -> Int64? {
        try db.immediateTransaction { () throws(KeychainStoreError) -> Int64? in
            guard try FileVault.meta(db, "format") == version1 else { return nil }
            let generation = try self.generation(db, format: version1) + 1
            try db.execute("""
                CREATE TABLE items_v2 (
                    id INTEGER PRIMARY KEY, class TEXT NOT NULL, lookup BLOB NOT NULL, pk BLOB NOT NULL, uid BLOB NOT NULL,
                    pdmn TEXT NOT NULL, accc INTEGER NOT NULL, gen INTEGER NOT NULL, value BLOB NOT NULL, agrp BLOB,
                    sync INTEGER NOT NULL, attrs BLOB NOT NULL, gate BLOB);
                INSERT INTO items_v2 (id, class, lookup, pk, uid, pdmn, accc, gen, value, agrp, sync, attrs, gate)
                    SELECT id, class,
                        CASE WHEN coalesce(svce, srvr) IS NOT NULL AND acct IS NOT NULL
                            THEN CAST(substr(coalesce(svce, srvr), 1, 16) || substr(acct, 1, 16) AS BLOB) ELSE x'' END,
                        pk, uid, pdmn, accc, \(generation), value, substr(agrp, 1, 16), sync, attrs, gate FROM items;
                DROP TABLE items;
                ALTER TABLE items_v2 RENAME TO items;
                CREATE UNIQUE INDEX items_lookup ON items (lookup, pk);
                """)
            try FileVault.setMeta(db, "format", version2)
            try db.using("INSERT OR REPLACE INTO meta (name, value) VALUES ('generation', ?1)") { s throws(KeychainStoreError) in
                s.bind(1, generation); try s.run()
            }
            return generation
        }
    }
}
