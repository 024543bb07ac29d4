import CSQLite
import Foundation
import LatchkeyCrypto
import LatchkeyKeychain

/// FileVault against what it is built from, in the same run: a raw SQLite prepared statement (same pragmas:
/// WAL, synchronous=FULL, so add/update are fsync-bound on both sides) plus one AES-256-GCM seal/open of
/// the same size. Targets (issue 12): add and update ≤ 1.15x, a read ≤ 1.3x and under 10 µs.
/// A FileVault read also computes the HMAC of each lookup value (service, account) unless it is in the
/// vault's lookup-MAC cache; the reads here cycle through 10,000 accounts, so the first pass is cold.
enum VaultBenchmarks {
    static let all: [Benchmark] = [add, copyMatching, update]
    static let secret = Data(repeating: 0x5a, count: 64)
    static let itemCount = 10_000

    static let add = Benchmark(name: "FileVault add", baselineName: "SQLite insert + AES-GCM seal",
                               unit: .timePerOperation, target: 1.15) {
        let fixture = try Fixture(items: 0)
        let counter = Counter()
        return Benchmark.Pair(
            baseline: {
                let n = counter.next()
                try fixture.raw.insert(key: Data("svc|acct\(n)".utf8), value: fixture.seal())
            },
            subject: {
                let n = counter.next()
                try fixture.vault.add(Item.genericPassword(service: "bench", account: "acct\(n)", value: secret))
            },
            tearDown: { fixture.close() })
    }

    static let copyMatching = Benchmark(name: "FileVault copyMatching (1 of 10,000)",
                                        baselineName: "SQLite select + AES-GCM open",
                                        unit: .timePerOperation, target: 1.3, absoluteLimit: 10_000) {
        let fixture = try Fixture(items: itemCount)
        let counter = Counter()
        let box = try fixture.seal()
        return Benchmark.Pair(
            baseline: {
                let n = counter.next() % itemCount
                guard let blob = try fixture.raw.select(key: Data("svc|acct\(n)".utf8)) else { throw BenchError.missing }
                _ = try AES.GCM.open(AES.GCM.SealedBox(combined: blob.isEmpty ? box : blob), using: fixture.key,
                                     authenticating: fixture.aad)
            },
            subject: {
                let n = counter.next() % itemCount
                var q = ItemQuery.genericPassword(service: "bench", account: "acct\(n)")
                q.returnData = true
                guard try fixture.vault.copyMatching(q).first?.data?.count == secret.count else { throw BenchError.missing }
            },
            tearDown: { fixture.close() })
    }

    static let update = Benchmark(name: "FileVault update", baselineName: "SQLite update + AES-GCM seal",
                                  unit: .timePerOperation, target: 1.15) {
        let fixture = try Fixture(items: 100)
        let counter = Counter()
        return Benchmark.Pair(
            baseline: {
                let n = counter.next() % 100
                try fixture.raw.update(key: Data("svc|acct\(n)".utf8), value: fixture.seal())
            },
            subject: {
                let n = counter.next() % 100
                try fixture.vault.update(.genericPassword(service: "bench", account: "acct\(n)"),
                                         with: AttributeChanges(value: secret))
            },
            tearDown: { fixture.close() })
    }

    /// Pages written per commit (docs/PERFORMANCE.md, "Vault format 2"): the growth of each side's WAL file over 200
    /// adds to an empty vault / table, then 200 value updates on 100 items, divided by the frame size (a page and its
    /// 24-byte header). Fewer than 1,000 frames each, so no checkpoint restarts a log during the count.
    static let measurements: [Measurement] = [Measurement(name: "FileVault WAL frames per commit") { try walFrames() }]

    static func walFrames() throws -> [String] {
        let commits = 200
        func frames(_ fixture: Fixture, vault: () throws -> Void, raw: () throws -> Void) throws -> (Double, Double) {
            func size(_ name: String) -> Int {
                ((try? FileManager.default.attributesOfItem(atPath: fixture.dir.appendingPathComponent(name).path))?[.size]
                    as? NSNumber)?.intValue ?? 0
            }
            let vault0 = size("bench.vault-wal"), raw0 = size("raw.db-wal")
            for _ in 0..<commits { try vault(); try raw() }
            let frame = Double(4096 + 24) * Double(commits)
            return (Double(size("bench.vault-wal") - vault0) / frame, Double(size("raw.db-wal") - raw0) / frame)
        }
        let adds = try Fixture(items: 0)
        defer { adds.close() }
        let counter = Counter()
        let add = try frames(adds, vault: {
            try adds.vault.add(Item.genericPassword(service: "bench", account: "acct\(counter.next())", value: secret))
        }, raw: { try adds.raw.insert(key: Data("svc|acct\(counter.next())".utf8), value: adds.seal()) })
        let updates = try Fixture(items: 100)
        defer { updates.close() }
        let update = try frames(updates, vault: {
            try updates.vault.update(.genericPassword(service: "bench", account: "acct\(counter.next() % 100)"),
                                     with: AttributeChanges(value: secret))
        }, raw: { try updates.raw.update(key: Data("svc|acct\(counter.next() % 100)".utf8), value: updates.seal()) })
        func figure(_ pair: (Double, Double)) -> String {
            String(format: "%.2f (raw SQLite %.2f, %.2fx)", pair.0, pair.1, pair.0 / pair.1)
        }
        return ["FileVault WAL frames per commit: add \(figure(add)), update \(figure(update))"]
    }

    enum BenchError: Error { case missing, sqlite(Int32) }

    final class Counter: @unchecked Sendable { // the harness calls one side at a time
        private var n = 0
        func next() -> Int { n += 1; return n }
    }

    /// A vault and a raw table side by side in one temporary directory.
    final class Fixture: @unchecked Sendable { // used from the harness thread only
        let dir: URL
        let vault: FileVault
        let raw: RawTable
        let key = SymmetricKey(size: .bits256)
        let aad = Data(repeating: 1, count: 60)

        init(items: Int) throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("lk-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            vault = try FileVault(url: dir.appendingPathComponent("bench.vault"), kdf: .testing)
            try vault.unlock(passphrase: "bench")
            raw = try RawTable(path: dir.appendingPathComponent("raw.db").path)
            if items > 0 {
                try vault.addAll((0..<items).map { Item.genericPassword(service: "bench", account: "acct\($0)", value: secret) })
                try raw.bulkInsert((0..<items).map { (Data("svc|acct\($0)".utf8), try seal()) })
            }
        }

        func seal() throws -> Data {
            guard let combined = try AES.GCM.seal(secret, using: key, authenticating: aad).combined else {
                throw BenchError.missing
            }
            return combined
        }

        func close() {
            raw.close()
            try? FileManager.default.removeItem(at: dir)
        }
    }

    /// The baseline: one table, a blob key with a unique index, cached prepared statements.
    final class RawTable: @unchecked Sendable { // used from the harness thread only
        private var db: OpaquePointer?
        private var insertStmt: OpaquePointer?
        private var selectStmt: OpaquePointer?
        private var updateStmt: OpaquePointer?
        private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        init(path: String) throws {
            guard sqlite3_open(path, &db) == SQLITE_OK else { throw BenchError.sqlite(-1) }
            for sql in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA secure_delete=ON", "PRAGMA cache_size=-16384",
                        "CREATE TABLE t (k BLOB NOT NULL UNIQUE, v BLOB NOT NULL)"] {
                let rc = sqlite3_exec(db, sql, nil, nil, nil)
                guard rc == SQLITE_OK else { throw BenchError.sqlite(rc) }
            }
            sqlite3_prepare_v2(db, "INSERT INTO t (k, v) VALUES (?1, ?2)", -1, &insertStmt, nil)
            sqlite3_prepare_v2(db, "SELECT v FROM t WHERE k = ?1", -1, &selectStmt, nil)
            sqlite3_prepare_v2(db, "UPDATE t SET v = ?2 WHERE k = ?1", -1, &updateStmt, nil)
        }

        private func bind(_ s: OpaquePointer?, _ i: Int32, _ d: Data) {
            d.withUnsafeBytes { _ = sqlite3_bind_blob(s, i, $0.baseAddress, Int32($0.count), transient) }
        }

        private func run(_ s: OpaquePointer?) throws {
            defer { sqlite3_reset(s) }
            let rc = sqlite3_step(s)
            guard rc == SQLITE_DONE else { throw BenchError.sqlite(rc) }
        }

        func insert(key: Data, value: Data) throws {
            bind(insertStmt, 1, key); bind(insertStmt, 2, value)
            try run(insertStmt)
        }

        func update(key: Data, value: Data) throws {
            bind(updateStmt, 1, key); bind(updateStmt, 2, value)
            try run(updateStmt)
        }

        func select(key: Data) throws -> Data? {
            defer { sqlite3_reset(selectStmt) }
            bind(selectStmt, 1, key)
            guard sqlite3_step(selectStmt) == SQLITE_ROW else { return nil }
            let n = Int(sqlite3_column_bytes(selectStmt, 0))
            guard let p = sqlite3_column_blob(selectStmt, 0) else { return Data() }
            return Data(bytes: p, count: n)
        }

        func bulkInsert(_ rows: [(Data, Data)]) throws {
            sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
            for (k, v) in rows { try insert(key: k, value: v) }
            sqlite3_exec(db, "COMMIT", nil, nil, nil)
        }

        func close() {
            for s in [insertStmt, selectStmt, updateStmt] { sqlite3_finalize(s) }
            sqlite3_close(db)
        }
    }
}
