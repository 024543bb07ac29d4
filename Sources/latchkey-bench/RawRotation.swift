import CSQLite
import Foundation

/// The floor of a refresh-token rotation: the server's own two statements (the claiming `UPDATE … RETURNING`
/// with the session's end, and the successor's `INSERT`), prepared once, in one `BEGIN IMMEDIATE … COMMIT`
/// at `synchronous=NORMAL` in WAL mode, on the server's schema — straight on SQLite's C API, with none of
/// the server's record types, errors, durability switch or group commit.
final class RawRotation: @unchecked Sendable { // used from the harness thread only
    private var db: OpaquePointer?
    private var statements: [OpaquePointer?] = []
    private let directory: URL
    private var current = "raw-0"
    private var counter = 0
    private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-bench-rawrot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard sqlite3_open(directory.appendingPathComponent("raw.sqlite").path, &db) == SQLITE_OK else { throw VaultBenchmarks.BenchError.sqlite(-1) }
        for sql in [
            "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL",
            "CREATE TABLE sessions (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, client_id TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, revoked_at BIGINT, device_name TEXT, user_agent TEXT, client_address TEXT, sign_in_method TEXT, auth_time BIGINT NOT NULL DEFAULT 0, amr BIGINT NOT NULL DEFAULT 0)",
            "CREATE TABLE refresh_tokens (token_hash TEXT PRIMARY KEY, family_id TEXT NOT NULL REFERENCES sessions (id), parent_hash TEXT, account_id TEXT NOT NULL, client_id TEXT NOT NULL, scope TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, used_at BIGINT, revoked_at BIGINT, auth_time BIGINT NOT NULL DEFAULT 0, amr BIGINT NOT NULL DEFAULT 0)",
            "CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id, created_at)",
            "INSERT INTO sessions VALUES ('s', 'a', 'c', 0, 9000000000, NULL, NULL, NULL, NULL, 'password', 0, 1)",
            "INSERT INTO refresh_tokens VALUES ('raw-0', 's', NULL, 'a', 'c', 'openid', 0, 9000000000, NULL, NULL, 0, 1)",
        ] {
            let rc = sqlite3_exec(db, sql, nil, nil, nil)
            guard rc == SQLITE_OK else { throw VaultBenchmarks.BenchError.sqlite(rc) }
        }
        for sql in [
            "BEGIN IMMEDIATE",
            """
            UPDATE refresh_tokens SET used_at = ?1 WHERE token_hash = ?2 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?1
            RETURNING family_id, account_id, client_id, scope, amr, auth_time,
                (SELECT expires_at FROM sessions WHERE sessions.id = refresh_tokens.family_id)
            """,
            "INSERT INTO refresh_tokens VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, NULL, NULL, ?9, ?10)",
            "COMMIT",
        ] {
            var statement: OpaquePointer?
            let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
            guard rc == SQLITE_OK else { throw VaultBenchmarks.BenchError.sqlite(rc) }
            statements.append(statement)
        }
    }

    /// Rotates the chain's current token once.
    func rotate() throws {
        let (begin, claim, insert, commit) = (statements[0], statements[1], statements[2], statements[3])
        let now = Int64(Date().timeIntervalSince1970)
        counter += 1
        let next = "raw-\(counter)"
        try step(begin)
        sqlite3_bind_int64(claim, 1, now)
        sqlite3_bind_text(claim, 2, current, -1, transient)
        guard sqlite3_step(claim) == SQLITE_ROW else { throw VaultBenchmarks.BenchError.sqlite(-2) }
        let columns = (0..<4).map { String(cString: sqlite3_column_text(claim, $0)) }
        let amr = sqlite3_column_int64(claim, 4)
        let authTime = sqlite3_column_int64(claim, 5)
        let sessionEnd = sqlite3_column_int64(claim, 6)
        sqlite3_reset(claim)
        for (index, text) in [next, columns[0], current, columns[1], columns[2], columns[3]].enumerated() {
            sqlite3_bind_text(insert, Int32(index + 1), text, -1, transient)
        }
        sqlite3_bind_int64(insert, 7, now)
        sqlite3_bind_int64(insert, 8, min(now + 3_600, sessionEnd))
        sqlite3_bind_int64(insert, 9, authTime)
        sqlite3_bind_int64(insert, 10, amr)
        try step(insert)
        try step(commit)
        current = next
    }

    private func step(_ statement: OpaquePointer?) throws {
        defer { sqlite3_reset(statement) }
        let rc = sqlite3_step(statement)
        guard rc == SQLITE_DONE else { throw VaultBenchmarks.BenchError.sqlite(rc) }
    }

    func close() {
        for statement in statements { sqlite3_finalize(statement) }
        sqlite3_close(db)
        try? FileManager.default.removeItem(at: directory)
    }
}
