import CPostgres
import Foundation
import LatchkeySupport

/// PostgreSQL storage through libpq: a small pool of connections, parameterized statements only
/// (`PQexecParams`, values sent as text parameters, never interpolated), READ COMMITTED transactions.
///
/// Several server processes may share one database: the refresh-token rotation is a single
/// `UPDATE ... WHERE used_at IS NULL AND revoked_at IS NULL RETURNING` whose row lock makes a concurrent
/// second rotation wait and then match no row.
///
/// Key protection: signing keys are stored in the `signing_keys` table; protect the database with
/// PostgreSQL's own access control (a role only the server uses).
public final class PostgresDatabase: Database {
    public let dialect = SQLDialect.postgres
    private let conninfo: String
    private let pool: Locked<[PostgresConnection]>
    private let available: DispatchSemaphore
    /// How long a request waits for a free connection before failing with `.poolExhausted` (→ 503).
    public let acquireTimeoutMilliseconds: Int
    /// Whether `.relaxed` transactions commit with `synchronous_commit = off`. Off by default: on PostgreSQL
    /// that loses the last commits on a crash of the database server itself (not only on a power cut, as
    /// SQLite's `NORMAL` does), so an acknowledged rotation would vanish with every `pg_ctl -m immediate`.
    /// Turn it on for refresh throughput where signing users in again after a database crash is acceptable.
    public let asynchronousRelaxedCommits: Bool

    /// Connects the first of at most `poolSize` connections to the database described by the libpq
    /// `conninfo` string (`host=127.0.0.1 port=5432 user=latchkey dbname=latchkey`); the others are opened
    /// when needed. A request waits at most `acquireTimeoutMilliseconds` for a free connection. A
    /// connection found broken (the server restarted) is reset before use; a statement that fails because
    /// the connection dropped throws `.connectionFailed`, which the service answers with 503.
    public init(conninfo: String, poolSize: Int = 4, acquireTimeoutMilliseconds: Int = 5_000,
                asynchronousRelaxedCommits: Bool = false) throws {
        self.conninfo = conninfo
        self.asynchronousRelaxedCommits = asynchronousRelaxedCommits
        let size = max(1, poolSize)
        pool = Locked([try PostgresConnection(conninfo: conninfo)])
        available = DispatchSemaphore(value: size)
        self.acquireTimeoutMilliseconds = max(1, acquireTimeoutMilliseconds)
    }

    private func borrow<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
        guard available.wait(timeout: .now() + .milliseconds(acquireTimeoutMilliseconds)) == .success else {
            throw DatabaseError.poolExhausted(waitedMilliseconds: acquireTimeoutMilliseconds)
        }
        defer { available.signal() }
        let taken: PostgresConnection? = pool.withLock { $0.popLast() }
        let conn = try taken ?? PostgresConnection(conninfo: conninfo)
        defer { pool.withLock { $0.append(conn) } }
        try conn.ensureConnected()
        return try body(conn)
    }

    @discardableResult
    public func transaction<T: Sendable>(durability: TransactionDurability,
                                         _ body: (any SQLConnection) throws -> T) throws -> T {
        try borrow { conn in
            try conn.execute(dialect.beginStatement, [])
            do {
                // For this transaction only: COMMIT returns before its WAL record is flushed (never reordered).
                if durability == .relaxed, asynchronousRelaxedCommits {
                    try conn.execute("SET LOCAL synchronous_commit = off", [])
                }
                let result = try body(conn)
                try conn.execute("COMMIT", [])
                return result
            } catch {
                _ = try? conn.execute("ROLLBACK", [])
                throw error
            }
        }
    }

    @discardableResult
    public func withConnection<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try borrow { conn in try body(conn) }
    }

    /// One round trip in autocommit; a relaxed statement with `asynchronousRelaxedCommits` needs its own
    /// transaction for `SET LOCAL synchronous_commit = off`.
    @discardableResult
    public func executeAlone(_ sql: String, _ parameters: [SQLValue], durability: TransactionDurability) throws -> [SQLRow] {
        if durability == .relaxed, asynchronousRelaxedCommits {
            return try transaction(durability: durability) { conn in try conn.execute(sql, parameters) }
        }
        return try borrow { conn in try conn.execute(sql, parameters) }
    }
}

/// One libpq connection. Used by one thread at a time (it is taken out of the pool while in use).
final class PostgresConnection: SQLConnection, @unchecked Sendable {
    // @unchecked: the connection is owned by exactly one borrower at a time (pool + semaphore).
    private let handle: OpaquePointer

    init(conninfo: String) throws {
        guard let conn = PQconnectdb(conninfo) else { throw DatabaseError.connectionFailed("out of memory") }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(conn)
            throw DatabaseError.connectionFailed(message)
        }
        handle = conn
        try execute("SET client_min_messages TO WARNING", [])
    }

    deinit { PQfinish(handle) }

    func ensureConnected() throws {
        if PQstatus(handle) != CONNECTION_OK {
            PQreset(handle)
            guard PQstatus(handle) == CONNECTION_OK else {
                throw DatabaseError.connectionFailed(String(cString: PQerrorMessage(handle)))
            }
        }
    }

    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> [SQLRow] {
        let text = SQLDialect.postgres.placeholders(sql)
        let cValues: [UnsafeMutablePointer<CChar>?] = parameters.map { value in
            switch value {
            case .null: return nil
            case .integer(let v): return strdup(String(v))
            case .text(let s): return strdup(s)
            }
        }
        defer { for pointer in cValues { free(pointer) } }
        let constValues: [UnsafePointer<CChar>?] = cValues.map { $0.map { UnsafePointer($0) } }
        let result: OpaquePointer? = constValues.isEmpty
            ? PQexecParams(handle, text, 0, nil, nil, nil, nil, 0)
            : PQexecParams(handle, text, Int32(constValues.count), nil, constValues, nil, nil, 0)
        guard let result else { throw failure() }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
            return []
        case PGRES_TUPLES_OK:
            return rows(result)
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            if state == "23505" { throw DatabaseError.uniqueViolation }
            if state == "40001" || state == "40P01" || state == "55P03" { throw DatabaseError.busy }
            // 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now, class 08 connection exceptions.
            if state.hasPrefix("08") || state.hasPrefix("57P") || PQstatus(handle) != CONNECTION_OK { throw failure() }
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) } ?? "error"
            throw DatabaseError.statementFailed("\(state) \(primary)")
        }
    }

    /// The error for a statement that could not run: `.connectionFailed` when the connection is gone.
    private func failure() -> DatabaseError {
        let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
        return PQstatus(handle) != CONNECTION_OK || message.contains("server closed the connection")
            ? .connectionFailed(message) : .statementFailed(message)
    }

    private func rows(_ result: OpaquePointer) -> [SQLRow] {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        let integerColumns: [Bool] = (0..<columnCount).map { column in
            let type = PQftype(result, column)
            return type == 20 || type == 21 || type == 23 // int8, int2, int4
        }
        var out: [SQLRow] = []
        out.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(.null)
                    continue
                }
                let text = String(cString: PQgetvalue(result, row, column))
                if integerColumns[Int(column)], let v = Int64(text) {
                    values.append(.integer(v))
                } else {
                    values.append(.text(text))
                }
            }
            out.append(SQLRow(values))
        }
        return out
    }
}
