import CSQLite
import Foundation
import Synchronization

/// `SQLITE_TRANSIENT` is a C cast macro Swift cannot import: SQLite copies the bound bytes.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// SQLite storage: one file in WAL mode, `synchronous=FULL` (every commit synced; `.relaxed` transactions
/// commit at `NORMAL`), a busy timeout, foreign keys on.
/// Access is serialized through one connection behind a `Mutex`; several `SQLiteDatabase` instances
/// (or processes) on the same file are safe too, because writes start with `BEGIN IMMEDIATE` and wait
/// up to the busy timeout for the lock.
///
/// Key protection: the file (and its `-wal`/`-shm` companions, which SQLite creates with the same mode)
/// is created with mode 0600, so the signing keys stored in it are readable only by the server's user.
public final class SQLiteDatabase: Database {
    public let dialect = SQLDialect.sqlite
    /// The database file.
    public let path: String
    private let connection: Mutex<SQLiteConnection>

    /// Opens (creating with mode 0600 if needed) the database at `path`.
    /// - Parameter busyTimeoutMilliseconds: how long a writer waits for another writer's lock.
    public init(path: String, busyTimeoutMilliseconds: Int32 = 5000) throws {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw DatabaseError.connectionFailed("cannot create \(path) (errno \(errno))") }
            close(fd)
        }
        let conn = try SQLiteConnection(path: path)
        sqlite3_busy_timeout(conn.handle, busyTimeoutMilliseconds)
        try conn.execute("PRAGMA journal_mode=WAL")
        try conn.execute("PRAGMA synchronous=FULL")
        try conn.execute("PRAGMA foreign_keys=ON")
        connection = Mutex(conn)
    }

    @discardableResult
    public func transaction<T: Sendable>(durability: TransactionDurability,
                                         _ body: (any SQLConnection) throws -> T) throws -> T {
        try connection.withLock { conn in
            // The level applies to the connection's commits; WAL frames are synced in order, so a full commit
            // after relaxed ones makes them durable too. Back to FULL whatever happens.
            if durability == .relaxed { try conn.execute("PRAGMA synchronous=NORMAL") }
            defer { if durability == .relaxed { _ = try? conn.execute("PRAGMA synchronous=FULL") } }
            try conn.execute(dialect.beginStatement)
            do {
                let result = try body(conn)
                try conn.execute("COMMIT")
                return result
            } catch {
                _ = try? conn.execute("ROLLBACK")
                throw error
            }
        }
    }

    @discardableResult
    public func withConnection<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try connection.withLock { conn in try body(conn) }
    }
}

/// One SQLite connection with a prepared-statement cache. Used only under `SQLiteDatabase`'s mutex.
final class SQLiteConnection: SQLConnection {
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    init(path: String) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(rc)"
            if let db { sqlite3_close_v2(db) }
            throw DatabaseError.connectionFailed(message)
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc) }
        statements[sql] = statement
        return statement
    }

    private func error(_ rc: Int32) -> DatabaseError {
        switch rc {
        case SQLITE_CONSTRAINT | (8 << 8), SQLITE_CONSTRAINT | (6 << 8): return .uniqueViolation // _UNIQUE, _PRIMARYKEY (macros)
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        default:
            if rc & 0xff == SQLITE_BUSY { return .busy }
            return .statementFailed(String(cString: sqlite3_errmsg(handle)))
        }
    }

    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> [SQLRow] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        guard Int(sqlite3_bind_parameter_count(statement)) == parameters.count else {
            throw DatabaseError.statementFailed("expected \(sqlite3_bind_parameter_count(statement)) parameters, got \(parameters.count)")
        }
        for (i, value) in parameters.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let v): rc = sqlite3_bind_int64(statement, index, v)
            case .text(let s): rc = sqlite3_bind_text(statement, index, s, -1, sqliteTransient)
            }
            guard rc == SQLITE_OK else { throw error(rc) }
        }
        var rows: [SQLRow] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw error(rc) }
            let count = sqlite3_column_count(statement)
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for column in 0..<count {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_NULL: values.append(.null)
                case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, column)))
                default:
                    if let text = sqlite3_column_text(statement, column) {
                        values.append(.text(String(cString: text)))
                    } else {
                        values.append(.null)
                    }
                }
            }
            rows.append(SQLRow(values))
        }
        return rows
    }
}
