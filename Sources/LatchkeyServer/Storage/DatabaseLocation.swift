import Foundation

/// Opens a database from the `--database` forms of `latchkey serve`: `sqlite:PATH`, or a PostgreSQL
/// URI / conninfo (`postgres://user@127.0.0.1:5432/latchkey`, `postgresql://...`, `host=... dbname=...`),
/// and applies the schema migrations.
public enum DatabaseLocation {
    public static func open(_ location: String, poolSize: Int = 8, acquireTimeoutMilliseconds: Int = 5_000,
                            now: Int64 = Int64(Date().timeIntervalSince1970)) throws -> any Database {
        let database: any Database
        if location.hasPrefix("sqlite:") {
            let path = String(location.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw DatabaseError.connectionFailed("sqlite: needs a path") }
            database = try SQLiteDatabase(path: path)
        } else if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") || location.contains("=") {
            database = try PostgresDatabase(conninfo: location, poolSize: poolSize,
                                            acquireTimeoutMilliseconds: acquireTimeoutMilliseconds)
        } else {
            throw DatabaseError.connectionFailed("unknown database location (use sqlite:PATH or postgres://...)")
        }
        try SchemaMigrations.migrate(database, now: now)
        return database
    }
}
