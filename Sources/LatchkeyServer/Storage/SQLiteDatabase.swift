import CSQLite
import Foundation
import LatchkeySupport

/// `SQLITE_TRANSIENT` is a C cast macro Swift cannot import: SQLite copies the bound bytes.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// SQLite storage: one file in WAL mode, `synchronous=FULL` (every commit synced; `.relaxed` transactions
/// commit at `NORMAL`), a busy timeout, foreign keys on.
/// Access is serialized through one connection behind a `Mutex`; several `SQLiteDatabase` instances
/// (or processes) on the same file are safe too, because writes start with `BEGIN IMMEDIATE` and wait
/// up to the busy timeout for the lock.
///
/// The log is copied back into the database by a `WALCheckpointer` on its own thread and connection, not by
/// the commit that fills it, so a request never waits for a checkpoint's copying and syncing.
///
/// Key protection: the file (and its `-wal`/`-shm` companions, which SQLite creates with the same mode)
/// is created with mode 0600, so the signing keys stored in it are readable only by the server's user.
public final class SQLiteDatabase: Database {
    public let dialect = SQLDialect.sqlite
    /// The database file.
    public let path: String
    private let writer: Writer
    private let checkpointer: WALCheckpointer
    /// Bodies waiting for a group commit (`batchedTransaction`).
    private let waiting = GroupCommitQueue()

    /// The one connection and the mutex that serializes it, shared with the checkpoint thread's catch-up.
    private final class Writer: Sendable {
        let connection: Locked<SQLiteConnection>
        init(_ connection: sending SQLiteConnection) { self.connection = Locked(connection) }
    }

    /// Opens (creating with mode 0600 if needed) the database at `path`.
    /// - Parameters:
    ///   - busyTimeoutMilliseconds: how long a writer waits for another writer's lock.
    ///   - cacheKibibytes: the connection's page cache. The default, 4 MiB, holds the B-tree interior pages of
    ///     about a million sessions. A larger cache costs more than it saves: SQLite's B-tree balance briefly
    ///     renumbers a page to the one after the 1 GiB lock byte, and the commit that follows then walks the
    ///     page cache's whole hash table (`pcache1TruncateUnsafe`), a cost that grows with the cache. With 32 MiB
    ///     on 60,000 sessions that walk was 12–13 % of a single-threaded refresh's CPU; the share of the refresh
    ///     that is the (fixed-cost) ES256 signature put 2, 4, 8 and 32 MiB at 0.93, 0.96, 0.97 and 1.00 of the
    ///     32 MiB cost, the extra page reads of a small cache included (perf, 3 × 4,000 refreshes each).
    ///   - checkpointPages: the log's size, in pages of 4 KiB, at which the checkpoint thread copies it back.
    ///     SQLite's default is 1,000; at 4,000 (a 16 MiB log) a page written by several rotations is copied
    ///     once for more of them: refresh over HTTP on 60,000 sessions, 3 interleaved runs each, 6,100–7,800
    ///     req/s and 207–255 µs of server CPU per refresh, against 4,800–6,500 req/s and 244–323 µs at 1,000.
    ///     A log left to grow to 12,000 pages before its catch-up was slower (3,600–5,600 req/s).
    public init(path: String, busyTimeoutMilliseconds: Int32 = 5000, cacheKibibytes: Int = 4_096,
                checkpointPages: Int32 = 4_000) throws {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw DatabaseError.connectionFailed("cannot create \(path) (errno \(errno))") }
            close(fd)
        }
        let conn = try SQLiteConnection(path: path)
        sqlite3_busy_timeout(conn.handle, busyTimeoutMilliseconds)
        try conn.execute("PRAGMA journal_mode=WAL")
        // A crash can leave frames past the log's last commit that carry the log's salts. A later commit that writes the
        // frames before them again, identically, and is cut inside the next frame's header (its first 16 bytes in one
        // sector, the checksum in the next) makes such a stale frame valid again: an old version of a page is read back
        // (found by the power-cut simulator: acknowledged rows gone, a value never acknowledged current). Copying the log
        // back and emptying it when the database is opened makes the next frames start under new salts. It does not wait:
        // when another process has the file open (nothing was recovered here), the log is left as it is.
        sqlite3_busy_timeout(conn.handle, 0)
        _ = try? conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        sqlite3_busy_timeout(conn.handle, busyTimeoutMilliseconds)
        try conn.execute("PRAGMA synchronous=FULL")
        try conn.execute("PRAGMA foreign_keys=ON")
        try conn.execute("PRAGMA cache_size=-\(max(cacheKibibytes, 64))")
        let writer = Writer(conn)
        self.writer = writer
        checkpointer = try WALCheckpointer(path: path, thresholdPages: max(checkpointPages, 1)) { catchUp in
            writer.connection.withLock { _ in catchUp() }
        }
        let checkpointer = checkpointer
        writer.connection.withLock { conn in conn.reportCommits(to: checkpointer) }
    }

    deinit {
        writer.connection.withLock { conn in conn.reportCommits(to: nil) }
        checkpointer.stop()
    }

    /// Checkpoints run by the checkpoint thread so far.
    var checkpointCount: Int { checkpointer.checkpointCount }

    /// Backstop checkpoints run by commits so far (the log had reached `WALCheckpointer.backstopMultiple` thresholds).
    var backstopCount: Int { checkpointer.backstopCount }

    /// The checkpointer, for tests that hold its thread still.
    var walCheckpointer: WALCheckpointer { checkpointer }

    @discardableResult
    public func transaction<T: Sendable>(durability: TransactionDurability,
                                         _ body: (any SQLConnection) throws -> T) throws -> T {
        try writer.connection.withLock { conn in
            try conn.begin(durability)
            let result: T
            do { result = try body(conn) } catch {
                conn.rollback()
                throw error
            }
            try conn.commit()
            return result
        }
    }

    /// Group commit: the caller's body joins the queue; the first caller to find no commit in progress takes
    /// every queued body and runs them in one transaction (each in its own savepoint) with one commit, while
    /// the others sleep until theirs are finished (`GroupCommitQueue`).
    @discardableResult
    public func batchedTransaction<T: Sendable>(durability: TransactionDurability,
                                                _ body: @escaping @Sendable (any SQLConnection) throws -> T) throws -> T {
        let job = GroupCommitJob(durability: durability, body: body)
        waiting.run(job) { batch in
            writer.connection.withLock { conn in Self.commit(batch, on: conn) }
        }
        return try job.outcome()
    }

    /// Runs `batch` in one transaction, fully durable if any member asks for it.
    private static func commit(_ batch: [any GroupCommitMember], on conn: SQLiteConnection) {
        let durability: TransactionDurability = batch.allSatisfy { $0.durability == .relaxed } ? .relaxed : .full
        do {
            try conn.begin(durability)
            do {
                if batch.count == 1 {
                    // Alone (no concurrent caller): a plain transaction, no savepoint's two extra statements.
                    if !batch[0].run(on: conn) {
                        conn.rollback()
                        batch[0].finish(commitError: nil)
                        return
                    }
                } else {
                    for member in batch {
                        try conn.execute("SAVEPOINT batched")
                        if !member.run(on: conn) { try conn.execute("ROLLBACK TO batched") }
                        try conn.execute("RELEASE batched")
                    }
                }
            } catch {
                conn.rollback()
                throw error
            }
            try conn.commit()
            for member in batch { member.finish(commitError: nil) }
        } catch {
            for member in batch { member.finish(commitError: error) }
        }
    }

    @discardableResult
    public func withConnection<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try writer.connection.withLock { conn in
            // Autocommit statements may write: they commit fully.
            try conn.commitAt(.full)
            return try body(conn)
        }
    }
}

/// One SQLite connection with a prepared-statement cache. Used only under `SQLiteDatabase`'s mutex.
final class SQLiteConnection: SQLConnection {
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    init(path: String) throws {
        handle = try Self.open(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
        sqlite3_extended_result_codes(handle, 1)
    }

    /// Opens a connection handle to `path`, or throws `.connectionFailed` with SQLite's message.
    static func open(_ path: String, flags: Int32) throws -> OpaquePointer {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(rc)"
            if let db { sqlite3_close_v2(db) }
            throw DatabaseError.connectionFailed(message)
        }
        return db
    }

    /// Tells `checkpointer` the log's size after every commit, in place of SQLite's automatic checkpoint
    /// (nil: no one). The checkpointer must outlive the hook: `SQLiteDatabase` removes it before stopping it.
    func reportCommits(to checkpointer: WALCheckpointer?) {
        guard let checkpointer else {
            sqlite3_wal_hook(handle, nil, nil)
            return
        }
        sqlite3_wal_hook(handle, { context, database, _, pages in
            if let context {
                Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(logPages: pages, on: database)
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(checkpointer).toOpaque())
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

    /// The level the connection's commits run at now. Switched only when a transaction or autocommit use
    /// needs the other one: `PRAGMA synchronous` takes effect when it is prepared, so SQLite re-prepares it on
    /// every run (≈ 10 k instructions each), and back-to-back rotations need no switch at all.
    private var level = TransactionDurability.full

    /// Makes the connection's next commits as durable as `durability` says (never inside a transaction). The
    /// level applies to the connection's own commits; WAL frames are synced in order, so a full commit after
    /// relaxed ones makes them durable too.
    func commitAt(_ durability: TransactionDurability) throws {
        guard durability != level else { return }
        try execute(durability == .relaxed ? "PRAGMA synchronous=NORMAL" : "PRAGMA synchronous=FULL")
        level = durability
    }

    /// Starts a write transaction (BEGIN IMMEDIATE) whose commit is as durable as `durability` says.
    func begin(_ durability: TransactionDurability) throws {
        try commitAt(durability)
        try execute(SQLDialect.sqlite.beginStatement)
    }

    /// Commits the transaction `begin` started (rolled back when the commit fails).
    func commit() throws {
        do { try execute("COMMIT") } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rolls back the transaction `begin` started.
    func rollback() {
        _ = try? execute("ROLLBACK")
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
