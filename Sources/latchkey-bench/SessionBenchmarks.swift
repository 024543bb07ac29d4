import CSQLite
import Foundation
import LatchkeyServer
import LatchkeySupport

// Issue 32's figures, each beside the same statements run straight on SQLite's C API in the same run:
//  - the session list of GET /v1/sessions (the live sessions with their last use, as summaries encoded to JSON) for
//    an account with 1 and with 100 sessions, vs the raw SELECT stepping the same rows;
//  - deleting an account with 100 sessions (Database.deleteAccount: one fully durable transaction) vs the same
//    DELETE statements in one BEGIN IMMEDIATE … COMMIT at synchronous=FULL, never checkpointing.
// Both databases have the server's schema (SchemaMigrations) and the same rows, written by `SessionSeed`.

enum SessionBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "sessions list, 1 session (storage + JSON)", baselineName: "raw SQLite SELECT of the same rows",
                  unit: .timePerOperation, target: 3.0) { try list(sessions: 1) },
        Benchmark(name: "sessions list, 100 sessions (storage + JSON)", baselineName: "raw SQLite SELECT of the same rows",
                  unit: .timePerOperation, target: 3.0) { try list(sessions: 100) },
        Benchmark(name: "account deletion, 100 sessions (one durable transaction)",
                  baselineName: "raw SQLite DELETEs of the same rows", unit: .timePerOperation, target: 1.5) { try deletion() },
    ]

    /// Sessions of one account, each with three refresh tokens (two rotated away), so the last use is a real lookup.
    static func list(sessions: Int) throws -> Benchmark.Pair {
        let seed = try SessionSeed(accounts: 1, sessionsPerAccount: sessions, tokensPerSession: 3)
        let database = try seed.serverDatabase()
        let raw = try RawSQLite(path: seed.rawPath)
        let select = try raw.prepare("""
            SELECT id, account_id, client_id, created_at, expires_at, revoked_at, device_name, user_agent, client_address,
                sign_in_method, auth_time, amr,
                (SELECT MAX(created_at) FROM refresh_tokens WHERE refresh_tokens.family_id = sessions.id)
            FROM sessions WHERE account_id = ?1 AND revoked_at IS NULL AND expires_at > ?2
            """)
        let account = seed.accountID(0)
        let now = seed.now
        return Benchmark.Pair(
            baseline: {
                raw.bind(select, 1, account)
                raw.bind(select, 2, now)
                let rows = raw.readAll(select, textColumns: [0, 1, 2, 6, 7, 8, 9], integerColumns: [3, 4, 10, 11, 12])
                guard rows == sessions else { throw SessionSeed.Failure.rows(rows) }
            },
            subject: {
                let listed = try database.liveSessions(accountID: account, now: now)
                    .map { SessionSummary($0, current: false) }
                    .sorted { ($0.lastUsedAt, $0.id) > ($1.lastUsedAt, $1.id) }
                guard listed.count == sessions else { throw SessionSeed.Failure.rows(listed.count) }
                _ = SessionSummary.listBody(listed)
            },
            tearDown: {
                raw.close()
                seed.remove()
            })
    }

    /// Each call deletes the next account of a pool (100 sessions, one refresh token each, a passkey, an audit event).
    static func deletion() throws -> Benchmark.Pair {
        let pool = 3_000
        let seed = try SessionSeed(accounts: pool, sessionsPerAccount: 100, tokensPerSession: 1)
        let database = try seed.serverDatabase()
        let raw = try RawSQLite(path: seed.rawPath)
        // The server's settings (SQLiteDatabase: FULL, foreign keys, a 4 MiB page cache); its commits hand the WAL's
        // copying to a checkpointer thread of their own (WALCheckpointer), and the floor does not checkpoint at all.
        for pragma in ["PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON", "PRAGMA cache_size=-4096", "PRAGMA wal_autocheckpoint=0"] {
            try raw.execute(pragma)
        }
        let statements = try [
            "BEGIN IMMEDIATE",
            "UPDATE accounts SET failed_count = failed_count WHERE id = ?1 RETURNING username_key",
            "SELECT sub, client_id, refresh_token_sealed FROM apple_identities WHERE account_id = ?1 AND refresh_token_sealed IS NOT NULL",
            "DELETE FROM apple_identities WHERE account_id = ?1 RETURNING sub",
            "DELETE FROM passkeys WHERE account_id = ?1 RETURNING id",
            "DELETE FROM webauthn_users WHERE account_id = ?1 RETURNING user_handle",
            "DELETE FROM refresh_tokens WHERE family_id IN (SELECT id FROM sessions WHERE account_id = ?1)",
            "DELETE FROM sessions WHERE account_id = ?1 RETURNING revoked_at, expires_at",
            "DELETE FROM login_throttle WHERE throttle_key = 'user:' || ?1",
            "DELETE FROM audit_events WHERE account_id = ?1",
            "DELETE FROM accounts WHERE id = ?1",
            "INSERT INTO audit_events (id, at, account_id, event, ip, detail) VALUES (?2, 0, ?1, 'account_deleted', NULL, 'counts')",
            "COMMIT",
        ].map(raw.prepare)
        let next = (subject: Locked(0), baseline: Locked(0))
        return Benchmark.Pair(
            baseline: {
                let index = next.baseline.withLock { $0 += 1; return $0 - 1 }
                guard index < pool else { throw SessionSeed.Failure.poolExhausted }
                let account = seed.accountID(index)
                for statement in statements {
                    if raw.parameterCount(statement) >= 1 { raw.bind(statement, 1, account) }
                    if raw.parameterCount(statement) >= 2 { raw.bind(statement, 2, "deleted-\(index)") }
                    try raw.runToEnd(statement)
                }
            },
            subject: {
                let index = next.subject.withLock { $0 += 1; return $0 - 1 }
                guard index < pool else { throw SessionSeed.Failure.poolExhausted }
                guard try database.deleteAccount(id: seed.accountID(index), now: seed.now)?.sessions == 100 else {
                    throw SessionSeed.Failure.rows(0)
                }
            },
            tearDown: {
                raw.close()
                seed.remove()
            })
    }
}

/// Two SQLite files with the server's schema and the same accounts, sessions and refresh tokens: one for the server's
/// `Database`, one for the raw C API.
struct SessionSeed: Sendable {
    enum Failure: Error { case rows(Int), poolExhausted, sqlite(Int32) }

    let directory: URL
    let now: Int64
    var serverPath: String { directory.appendingPathComponent("server.sqlite").path }
    var rawPath: String { directory.appendingPathComponent("raw.sqlite").path }

    init(accounts: Int, sessionsPerAccount: Int, tokensPerSession: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-bench-sessions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        now = Int64(Date().timeIntervalSince1970)
        for path in [serverPath, rawPath] {
            try SchemaMigrations.migrate(try SQLiteDatabase(path: path), now: now)
            let raw = try RawSQLite(path: path)
            defer { raw.close() }
            try raw.execute("BEGIN")
            let account = try raw.prepare("INSERT INTO accounts VALUES (?1, ?1, ?1, '!', ?2, NULL, 0)")
            let session = try raw.prepare("""
                INSERT INTO sessions (id, account_id, client_id, created_at, expires_at, revoked_at, device_name, user_agent,
                    client_address, sign_in_method, auth_time, amr)
                VALUES (?1, ?2, 'app', ?3, ?4, NULL, 'Laptop', 'Bench/1.0', '198.51.100.7', 'passkey', ?3, 26)
                """)
            let token = try raw.prepare("""
                INSERT INTO refresh_tokens (token_hash, family_id, parent_hash, account_id, client_id, scope, created_at,
                    expires_at, used_at, revoked_at, auth_time, amr)
                VALUES (?1, ?2, NULL, ?3, 'app', 'openid', ?4, ?5, ?6, NULL, ?4, 26)
                """)
            let passkey = try raw.prepare("""
                INSERT INTO passkeys VALUES (?1, ?2, ?1, 'key', -7, 0, 'internal', 0, 0, 1, '00', 'none', 'none', 'Key', ?3, NULL)
                """)
            let audit = try raw.prepare("INSERT INTO audit_events VALUES (?1, ?2, ?3, 'login_success', '198.51.100.7', NULL)")
            for a in 0..<accounts {
                let id = accountID(a)
                try raw.run(account, [.text(id), .integer(now)])
                try raw.run(passkey, [.text("pk-\(a)"), .text(id), .integer(now)])
                try raw.run(audit, [.text("audit-\(a)"), .integer(now), .text(id)])
                for s in 0..<sessionsPerAccount {
                    let sessionID = "s-\(a)-\(s)"
                    try raw.run(session, [.text(sessionID), .text(id), .integer(now - 3_600), .integer(now + 86_400)])
                    for t in 0..<tokensPerSession {
                        let used: SQLValue = t + 1 < tokensPerSession ? .integer(now - 60) : .null
                        try raw.run(token, [.text("t-\(a)-\(s)-\(t)"), .text(sessionID), .text(id),
                                            .integer(now - 3_600 + Int64(t * 60)), .integer(now + 86_400), used])
                    }
                }
            }
            try raw.execute("COMMIT")
        }
    }

    func accountID(_ index: Int) -> String { "bench-account-\(index)" }

    func serverDatabase() throws -> any Database { try SQLiteDatabase(path: serverPath) }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// The few calls of SQLite's C API the raw baselines make; statements are named by the handle `prepare` returns and
/// finalized by `close()`. Used from the harness thread only.
final class RawSQLite: @unchecked Sendable { // one harness thread at a time
    private var db: OpaquePointer?
    private var statements: [OpaquePointer?] = []
    private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws {
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw SessionSeed.Failure.sqlite(-1) }
        try execute("PRAGMA journal_mode=WAL")
    }

    func execute(_ sql: String) throws {
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SessionSeed.Failure.sqlite(rc) }
    }

    func prepare(_ sql: String) throws -> Int {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard rc == SQLITE_OK else { throw SessionSeed.Failure.sqlite(rc) }
        statements.append(statement)
        return statements.count - 1
    }

    func parameterCount(_ statement: Int) -> Int32 { sqlite3_bind_parameter_count(statements[statement]) }

    func bind(_ statement: Int, _ index: Int32, _ text: String) {
        sqlite3_bind_text(statements[statement], index, text, -1, transient)
    }

    func bind(_ statement: Int, _ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(statements[statement], index, value)
    }

    /// Steps the statement to its end, ignoring its rows.
    func runToEnd(_ statement: Int) throws {
        let pointer = statements[statement]
        var rc = sqlite3_step(pointer)
        while rc == SQLITE_ROW { rc = sqlite3_step(pointer) }
        sqlite3_reset(pointer)
        guard rc == SQLITE_DONE else { throw SessionSeed.Failure.sqlite(rc) }
    }

    /// Steps through every row, reading the given columns; returns the number of rows.
    func readAll(_ statement: Int, textColumns: [Int32], integerColumns: [Int32]) -> Int {
        let pointer = statements[statement]
        var rows = 0
        while sqlite3_step(pointer) == SQLITE_ROW {
            for column in textColumns { _ = sqlite3_column_text(pointer, column) }
            for column in integerColumns { _ = sqlite3_column_int64(pointer, column) }
            rows += 1
        }
        sqlite3_reset(pointer)
        return rows
    }

    /// Binds `values` (1-based, in order) and steps the statement to its end.
    func run(_ statement: Int, _ values: [SQLValue]) throws {
        for (offset, value) in values.enumerated() {
            switch value {
            case .text(let text): bind(statement, Int32(offset + 1), text)
            case .integer(let number): bind(statement, Int32(offset + 1), number)
            case .null: sqlite3_bind_null(statements[statement], Int32(offset + 1))
            }
        }
        try runToEnd(statement)
    }

    func close() {
        for statement in statements { sqlite3_finalize(statement) }
        statements = []
        sqlite3_close(db)
    }
}
