import CSQLite
import Foundation
import LatchkeyKeychainCore

/// `SQLITE_TRANSIENT` is a cast macro Swift cannot import: SQLite copies the bound bytes.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A minimal SQLite connection for the vault: prepared-statement cache, typed errors, and immediate
/// transactions retried on SQLITE_BUSY. Not thread-safe by itself: `FileVault` serializes access.
final class SQLiteDatabase {
    private(set) var handle: OpaquePointer?
    private var cache: [String: SQLiteStatement] = [:]
    private var shapeCache: [Int: SQLiteStatement] = [:]

    /// When set, every transaction that changed a row takes the next generation (`VaultFormat`): the rows it writes
    /// carry it (`stampGeneration()`), or the meta row `generation` does when it wrote no row; after COMMIT the value is
    /// passed here (FileVault records it outside the file to detect a rollback).
    var generationObserver: ((Int64) -> Void)?
    /// The generation the transaction in progress writes, and whether a row written carries it.
    private var writingGeneration: Int64 = 0
    private var generationStamped = false
    /// The newest committed generation as this connection last learnt it, with SQLite's data version then: it holds
    /// while the data version is unchanged (no other connection committed since).
    private var knownGeneration: (value: Int64, dataVersion: UInt32)?

    /// Opens (never creates) an existing file; `readOnly` connections never write or checkpoint it.
    init(path: String, busyTimeoutMilliseconds: Int32, readOnly: Bool = false) throws(KeychainStoreError) {
        var db: OpaquePointer?
        let mode = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        let rc = sqlite3_open_v2(path, &db, mode | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            if let db { sqlite3_close_v2(db) }
            throw SQLiteDatabase.error(rc)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    private let busyTimeoutMilliseconds: Int32

    /// Copies the log back into the file and empties it, without waiting: when another connection is using the log
    /// (nothing was recovered here) it is left as it is. At open, this removes what a crash can leave past the log's
    /// last commit (frames with the log's salts that a later, torn write could make valid again: FileVault.openSchema).
    func resetLog() {
        sqlite3_busy_timeout(handle, 0)
        _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit {
        cache.removeAll()
        shapeCache.removeAll()
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Maps an SQLite result code to a keychain error (corruption → errSecDecode, busy → errSecIO...).
    static func error(_ rc: Int32) -> KeychainStoreError {
        switch rc & 0xff {
        case SQLITE_CORRUPT, SQLITE_NOTADB: KeychainStoreError(.decode, .corruptVault("sqlite \(rc)"))
        case SQLITE_FULL: KeychainStoreError(.diskFull, .sqlite(code: rc))
        case SQLITE_NOMEM: KeychainStoreError(.allocate, .sqlite(code: rc))
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN, SQLITE_AUTH: KeychainStoreError(.notAvailable, .sqlite(code: rc))
        case SQLITE_CONSTRAINT: KeychainStoreError(.duplicateItem)
        default: KeychainStoreError(.io, .sqlite(code: rc))
        }
    }

    func execute(_ sql: String) throws(KeychainStoreError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteDatabase.error(rc) }
    }

    /// Runs `body` with a cached prepared statement, resetting it afterwards (so no read snapshot stays open).
    func using<R>(_ sql: String, _ body: (SQLiteStatement) throws(KeychainStoreError) -> R) throws(KeychainStoreError) -> R {
        let s = try statement(sql)
        defer { s.reset() }
        return try body(s)
    }

    /// As `using(_:_:)`, with the statement cached under a small integer (a query shape, or a `StatementID`)
    /// so the SQL text is built and hashed only once per shape. With `rebindsAll` (the body binds every
    /// parameter on every run) the bindings are not cleared afterwards: in-place bindings need no freeing,
    /// and the next run replaces them all.
    func using<R>(shape: Int, rebindsAll: Bool = false, _ sql: () -> String,
                  _ body: (SQLiteStatement) throws(KeychainStoreError) -> R) throws(KeychainStoreError) -> R {
        let s = try statement(shape: shape, sql)
        defer { if rebindsAll { s.resetKeepingBindings() } else { s.reset() } }
        return try body(s)
    }

    private func statement(shape: Int, _ sql: () -> String) throws(KeychainStoreError) -> SQLiteStatement {
        if let cached = shapeCache[shape] { return cached }
        let s = try statement(sql())
        shapeCache[shape] = s
        return s
    }

    /// Numbers of the statements every write runs, cached by number rather than by their SQL text (hashing
    /// the text on each use cost more than the lookup itself). Query shapes are ≥ 0.
    enum StatementID {
        static let begin = -1
        static let commit = -2
        static let rollback = -3
        static let bumpGeneration = -4
        static let insertItem = -6
    }

    /// A cached prepared statement, reset and with bindings cleared.
    func statement(_ sql: String) throws(KeychainStoreError) -> SQLiteStatement {
        if let s = cache[sql] {
            s.reset()
            return s
        }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw SQLiteDatabase.error(rc) }
        let s = SQLiteStatement(stmt)
        cache[sql] = s
        return s
    }

    /// Runs one cached statement that returns no rows (BEGIN, COMMIT, ROLLBACK: prepared once, not parsed
    /// on every transaction as `sqlite3_exec` would). Returns SQLITE_OK or the error code.
    private func control(_ id: Int, _ sql: String) -> Int32 {
        guard let s = try? statement(shape: id, { sql }) else { return sqlite3_exec(handle, sql, nil, nil, nil) }
        let rc = sqlite3_step(s.handle)
        sqlite3_reset(s.handle)
        return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc
    }

    /// Runs `body` inside BEGIN IMMEDIATE … COMMIT, retrying the whole transaction when another process
    /// holds the write lock past the busy timeout. Rolls back on any error.
    func immediateTransaction<R>(_ body: () throws(KeychainStoreError) -> R) throws(KeychainStoreError) -> R {
        var attempt = 0
        while true {
            attempt += 1
            let rc = control(StatementID.begin, "BEGIN IMMEDIATE")
            if rc & 0xff == SQLITE_BUSY || rc & 0xff == SQLITE_LOCKED {
                if attempt < 50 { usleep(UInt32(1000 * min(attempt, 20))); continue }
                throw SQLiteDatabase.error(rc)
            }
            guard rc == SQLITE_OK else { throw SQLiteDatabase.error(rc) }
            do throws(KeychainStoreError) {
                if generationObserver != nil {
                    writingGeneration = try currentGeneration() + 1
                    generationStamped = false
                }
                let changesBefore = sqlite3_total_changes64(handle)
                let result = try body()
                var generation: Int64?
                if generationObserver != nil, sqlite3_total_changes64(handle) != changesBefore {
                    if !generationStamped { try storeGenerationInMeta(writingGeneration) }
                    generation = writingGeneration
                }
                let commit = control(StatementID.commit, "COMMIT")
                guard commit == SQLITE_OK else {
                    _ = control(StatementID.rollback, "ROLLBACK")
                    if (commit & 0xff == SQLITE_BUSY) && attempt < 50 { usleep(1000); continue }
                    throw SQLiteDatabase.error(commit)
                }
                if let generation {
                    knownGeneration = (generation, dataVersion)
                    generationObserver?(generation)
                }
                return result
            } catch {
                _ = control(StatementID.rollback, "ROLLBACK")
                throw error
            }
        }
    }

    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The generation a row written by the transaction in progress carries (the transaction then needs no meta write).
    func stampGeneration() -> Int64 {
        generationStamped = true
        return writingGeneration
    }

    /// The newest committed generation: as last learnt, while no other connection has committed since; else read
    /// again from the file (the rows and the meta row).
    private func currentGeneration() throws(KeychainStoreError) -> Int64 {
        let version = dataVersion
        if let known = knownGeneration, known.dataVersion == version { return known.value }
        let value = try VaultFormat.generation(self, format: VaultFormat.version2)
        knownGeneration = (value, version)
        return value
    }

    /// SQLite's data version of the main database: it changes with every commit, this connection's or another's.
    private var dataVersion: UInt32 {
        var version: UInt32 = 0
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        return version
    }

    /// The generation of a transaction that wrote no row, in the meta row.
    private func storeGenerationInMeta(_ generation: Int64) throws(KeychainStoreError) {
        try using(shape: StatementID.bumpGeneration, { "INSERT OR REPLACE INTO meta (name, value) VALUES ('generation', ?1)" }) {
            s throws(KeychainStoreError) in
            s.bind(1, generation)
            try s.run()
        }
    }
}

/// One prepared statement: bind by 1-based index, step, read columns.
final class SQLiteStatement {
    let handle: OpaquePointer
    /// Memory for parameters bound in place (`bindInPlace`), allocated on first use; it lives as long as the
    /// statement, so SQLite may read it at any step (SQLITE_STATIC) and neither copies nor frees it.
    private var parameterBuffer: UnsafeMutableRawBufferPointer?
    private var parameterBytesUsed = 0
    static let parameterBufferSize = 256

    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit {
        sqlite3_finalize(handle)
        parameterBuffer?.deallocate()
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        parameterBytesUsed = 0
    }

    /// Resets for the next run and leaves the bindings as they are (for a statement whose every parameter is
    /// bound again before it next steps).
    func resetKeepingBindings() {
        sqlite3_reset(handle)
        parameterBytesUsed = 0
    }

    /// Makes the parameter buffer hold at least `count` bytes, before the first `bindInPlace` of a run (after
    /// one, it does nothing: earlier in-place bindings point into the buffer, which must then stay).
    func reserveParameterBytes(_ count: Int) {
        guard parameterBytesUsed == 0, count > (parameterBuffer?.count ?? 0) else { return }
        parameterBuffer?.deallocate()
        parameterBuffer = .allocate(byteCount: max(count, Self.parameterBufferSize), alignment: 16)
    }

    /// Binds a blob without SQLite allocating a copy: the bytes are copied into the statement's own parameter
    /// buffer and bound from there (SQLITE_STATIC). Larger than what is left of that buffer, they are bound as
    /// `bind(_:_:)` binds (SQLite copies them). The buffer is reused from the start after a reset.
    func bindInPlace(_ index: Int32, _ bytes: UnsafeRawBufferPointer) {
        if let target = parameterSpace(for: bytes) {
            _ = sqlite3_bind_blob64(handle, index, target, sqlite3_uint64(bytes.count), nil) // nil: SQLITE_STATIC
        } else {
            _ = sqlite3_bind_blob64(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                    sqlite3_uint64(bytes.count), sqliteTransient)
        }
    }

    /// `bindInPlace` for `Data` (NULL for nil).
    func bindInPlace(_ index: Int32, _ data: Data?) {
        guard let data else { sqlite3_bind_null(handle, index); return }
        data.withUnsafeBytes { bindInPlace(index, $0) }
    }

    /// As `bindInPlace`, for text given as its UTF-8 bytes.
    func bindTextInPlace(_ index: Int32, _ utf8: UnsafeRawBufferPointer) {
        if let target = parameterSpace(for: utf8) {
            _ = sqlite3_bind_text64(handle, index, target.assumingMemoryBound(to: CChar.self), sqlite3_uint64(utf8.count),
                                    nil, UInt8(SQLITE_UTF8))
        } else if let base = utf8.baseAddress {
            _ = sqlite3_bind_text64(handle, index, base.assumingMemoryBound(to: CChar.self), sqlite3_uint64(utf8.count),
                                    sqliteTransient, UInt8(SQLITE_UTF8))
        } else {
            _ = sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
        }
    }

    /// A copy of `bytes` in the parameter buffer, or nil when they are empty or do not fit.
    private func parameterSpace(for bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
        let buffer = parameterBuffer ?? {
            let b = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.parameterBufferSize, alignment: 16)
            parameterBuffer = b
            return b
        }()
        guard let source = bytes.baseAddress, !bytes.isEmpty, bytes.count <= buffer.count - parameterBytesUsed,
              let base = buffer.baseAddress else { return nil }
        let target = base + parameterBytesUsed
        target.copyMemory(from: source, byteCount: bytes.count)
        parameterBytesUsed += bytes.count
        return UnsafeRawPointer(target)
    }

    func bind(_ index: Int32, _ data: Data?) {
        guard let data else { sqlite3_bind_null(handle, index); return }
        data.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob64(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(raw.count), sqliteTransient)
        }
    }

    /// Binds text by its UTF-8 bytes and length (passing the `String` itself would build a C string copy).
    func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            _ = utf8.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, sqliteTransient) }
                return sqlite3_bind_text(handle, index, base, Int32(chars.count), sqliteTransient)
            }
        }
    }
    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }

    /// Steps once: true when a row is available, false when done.
    func step() throws(KeychainStoreError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        sqlite3_reset(handle)
        throw SQLiteDatabase.error(rc)
    }

    /// Steps to completion (for INSERT / UPDATE / DELETE).
    func run() throws(KeychainStoreError) {
        while try step() {}
    }

    func data(_ column: Int32) -> Data? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let p = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: p, count: count)
    }

    /// Calls `body` with a blob column's bytes in place (empty for NULL or a zero-length blob). The pointer is
    /// SQLite's own: valid only inside `body`, before the statement steps or resets.
    func withBlob<R, E: Error>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let p = sqlite3_column_blob(handle, column)
        return try body(UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : Int(sqlite3_column_bytes(handle, column))))
    }

    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: p)
    }

    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
}
