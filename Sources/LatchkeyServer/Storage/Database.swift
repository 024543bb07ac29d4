import Foundation

/// The SQL dialects the server speaks. Every difference between the engines lives in `Dialect`
/// (placeholders, transaction start, migration lock); the schema and the queries are shared.
public enum SQLDialect: String, Sendable {
    case sqlite
    case postgres

    /// The statement that starts a write transaction. SQLite takes the write lock at once
    /// (BEGIN IMMEDIATE), so two writers never deadlock on a lock upgrade; PostgreSQL uses READ COMMITTED
    /// with row locks taken by `UPDATE ... WHERE ... RETURNING`.
    var beginStatement: String {
        switch self {
        case .sqlite: "BEGIN IMMEDIATE"
        case .postgres: "BEGIN"
        }
    }

    /// Serializes concurrent migrators (several server processes starting at once).
    var migrationLockStatement: String? {
        switch self {
        case .sqlite: nil // BEGIN IMMEDIATE already holds the database's write lock
        case .postgres: "SELECT pg_advisory_xact_lock(7418325)"
        }
    }

    /// Rewrites `?` placeholders into this dialect's form (`$1`, `$2`... for PostgreSQL).
    /// The server's SQL never contains a literal `?` inside a string.
    func placeholders(_ sql: String) -> String {
        guard self == .postgres else { return sql }
        var out = ""
        out.reserveCapacity(sql.utf8.count + 8)
        var n = 0
        for ch in sql {
            if ch == "?" { n += 1; out += "$\(n)" } else { out.append(ch) }
        }
        return out
    }
}

/// One connection handed to a closure by `Database.transaction` or `Database.withConnection`.
/// Values are always bound as parameters; never interpolate them into `sql`.
public protocol SQLConnection {
    /// Runs one statement with `?` placeholders and returns its rows (empty for non-queries).
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> [SQLRow]
}

extension SQLConnection {
    @discardableResult
    public func execute(_ sql: String) throws -> [SQLRow] { try execute(sql, []) }
}

/// How hard a transaction's commit is made durable.
public enum TransactionDurability: Sendable {
    /// The commit is on stable storage when `transaction` returns (SQLite `synchronous=FULL` in WAL mode,
    /// PostgreSQL `synchronous_commit` as configured). Accounts, credentials, passkeys, signing keys,
    /// revocations and reuse detection always commit this way.
    case full
    /// The commit is ordered and atomic but may be lost to a power cut or OS crash that comes right after it
    /// (SQLite `synchronous=NORMAL`: the WAL is synced at the next full commit or checkpoint; a crash of the
    /// process loses nothing). PostgreSQL commits these fully unless `asynchronousRelaxedCommits` is set
    /// (`SET LOCAL synchronous_commit = off`). Used only where a lost commit is harmless: a refresh-token
    /// rotation, whose loss means the client signs in again, and a failed login's throttle counters and audit
    /// row, whose loss gives a guesser a few more tries.
    case relaxed
}

/// Storage for the server: SQLite (`SQLiteDatabase`, the default) or PostgreSQL (`PostgresDatabase`).
///
/// Calls are synchronous and short (one connection is held only for the duration of the closure, which
/// cannot suspend); they are safe to call from any thread or task. The domain operations (accounts,
/// refresh tokens, audit...) are extensions on this protocol, shared by both engines.
public protocol Database: Sendable {
    var dialect: SQLDialect { get }

    /// Runs `body` in one transaction: committed (as durably as `durability` says) when it returns, rolled
    /// back when it throws.
    @discardableResult
    func transaction<T: Sendable>(durability: TransactionDurability, _ body: (any SQLConnection) throws -> T) throws -> T

    /// Runs `body` on a connection in autocommit mode (each statement is its own transaction).
    @discardableResult
    func withConnection<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T

    /// Runs `body` like `transaction(durability:_:)`, but lets the engine commit it together with the bodies of
    /// other callers waiting at the same moment (group commit): one commit, and one write of each page they
    /// share, for all of them. Each body runs in its own savepoint, so one that throws undoes only its own
    /// writes and gets its own error; the others' results are returned once their shared commit has
    /// succeeded (when it fails, all of them get that error). Bodies run one after another in the order they
    /// came, possibly on another caller's thread. SQLite batches; PostgreSQL runs a plain transaction (its
    /// pool already commits in parallel).
    @discardableResult
    func batchedTransaction<T: Sendable>(durability: TransactionDurability,
                                         _ body: @escaping @Sendable (any SQLConnection) throws -> T) throws -> T

    /// Runs one statement that is a transaction by itself, committed as durably as `durability` says, in as
    /// few round trips as the engine allows (PostgreSQL: one, in autocommit, unless a relaxed commit must be
    /// made asynchronous with `SET LOCAL`; SQLite: a transaction of one statement).
    @discardableResult
    func executeAlone(_ sql: String, _ parameters: [SQLValue], durability: TransactionDurability) throws -> [SQLRow]
}

extension Database {
    /// Runs `body` in one fully durable transaction.
    @discardableResult
    public func transaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try transaction(durability: .full, body)
    }

    @discardableResult
    public func batchedTransaction<T: Sendable>(durability: TransactionDurability,
                                                _ body: @escaping @Sendable (any SQLConnection) throws -> T) throws -> T {
        try transaction(durability: durability, body)
    }

    @discardableResult
    public func executeAlone(_ sql: String, _ parameters: [SQLValue], durability: TransactionDurability) throws -> [SQLRow] {
        try transaction(durability: durability) { conn in try conn.execute(sql, parameters) }
    }
}
