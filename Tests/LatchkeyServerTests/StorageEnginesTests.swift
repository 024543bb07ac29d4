import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeySupport
@testable import LatchkeyServer

/// The engines the shared storage suite runs against.
enum StorageEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres
    var testDescription: String { rawValue }
}

/// A fresh, migrated database for one test, and a way to open a second, independent instance on the
/// same data (a second "server process").
struct TestDatabase: Sendable {
    let database: any Database
    let openAnother: @Sendable () throws -> any Database
    let cleanup: @Sendable () -> Void
}

enum TestServices {
    static var requireServices: Bool { ProcessInfo.processInfo.environment["LATCHKEY_REQUIRE_SERVICES"] == "1" }
    static var postgresConninfo: String? {
        ProcessInfo.processInfo.environment["LATCHKEY_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }
}

func randomHex(_ bytes: Int) -> String {
    (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
}

/// Makes a fresh database for `engine`, or returns nil (skipped) when PostgreSQL is not available and
/// services are not required. SQLite: a file in a new temp directory. PostgreSQL: `CREATE DATABASE` with
/// a random name (an identifier made here from hex digits only), dropped by `cleanup`.
func makeTestDatabase(_ engine: StorageEngine, now: Int64 = 1_800_000_000) throws -> TestDatabase? {
    switch engine {
    case .sqlite:
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-storage-\(randomHex(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("server.sqlite").path
        let db = try SQLiteDatabase(path: path)
        try SchemaMigrations.migrate(db, now: now)
        return TestDatabase(database: db, openAnother: { try SQLiteDatabase(path: path) },
                            cleanup: { try? FileManager.default.removeItem(at: dir) })
    case .postgres:
        guard let base = TestServices.postgresConninfo else {
            if TestServices.requireServices { Issue.record("LATCHKEY_TEST_POSTGRES is not set") }
            return nil
        }
        let name = "latchkey_test_\(randomHex(8))"
        let admin = try PostgresDatabase(conninfo: base, poolSize: 1)
        try admin.withConnection { try $0.execute("CREATE DATABASE \(name)") }
        let conninfo = base + " dbname=\(name)"
        let db = try PostgresDatabase(conninfo: conninfo, poolSize: 4)
        try SchemaMigrations.migrate(db, now: now)
        return TestDatabase(database: db, openAnother: { try PostgresDatabase(conninfo: conninfo, poolSize: 4) },
                            cleanup: { _ = try? admin.withConnection { try $0.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") } })
    }
}

