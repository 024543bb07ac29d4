import Foundation
import LatchkeyServer

/// The server's SQLite database as its stores are cut: opened as `latchkey serve` opens it (`SQLiteDatabase`, then the
/// schema migrations: `DatabaseLocation.open`), with a checkpoint threshold of 4 pages instead of 4,000 so that
/// cuts also land inside the checkpoint thread's copies (the log is emptied at every open, so a trial's few commits
/// must reach it) (`POWERCUT_CHECKPOINT_PAGES` sets another threshold: a large one
/// keeps the checkpoint thread out of a run, to tell whether a finding needs it).
package enum ServerDatabasePowercut {
    static let fileName = "server.sqlite"
    /// The stores' clock (Unix seconds): fixed, with each operation a second later.
    static let epoch: Int64 = 1_767_225_600

    static func open(in directory: URL) throws -> SQLiteDatabase {
        let pages = ProcessInfo.processInfo.environment["POWERCUT_CHECKPOINT_PAGES"].flatMap { Int32($0) } ?? 4
        let database = try SQLiteDatabase(path: directory.appendingPathComponent(fileName).path, checkpointPages: pages)
        try SchemaMigrations.migrate(database, now: epoch)
        return database
    }

    /// Reopens after a cut: `.checked` with the database, or the refusal (the server never refuses a file of its own
    /// kind, so any failure to open is also reported).
    static func reopen(in directory: URL, _ trial: PowercutTrial) -> (SQLiteDatabase?, PowercutReopen) {
        do {
            return (try open(in: directory), .checked)
        } catch {
            trial.unexpected("opening the database failed: \(error)")
            return (nil, .refused(message: "\(error)"))
        }
    }

    /// The first column of every row of `sql` (text).
    static func texts(_ database: SQLiteDatabase, _ sql: String) throws -> [String] {
        try database.withConnection { conn in try conn.execute(sql).map { try $0.text(0) } }
    }

    /// A record to copy from: `AppleIdentityRecord` has no public initializer (the Sign in with Apple service makes
    /// links), so one row is written with SQL, read back, and removed again.
    static func appleIdentityTemplate(_ database: SQLiteDatabase) throws -> AppleIdentityRecord {
        try database.withConnection { conn in
            try conn.execute("""
                INSERT INTO accounts (id, username, username_key, password_hash, created_at, failed_count)
                VALUES ('template', 'template', 'template', '-', 0, 0)
                """)
            try conn.execute("""
                INSERT INTO apple_identities (sub, account_id, email, email_verified, is_private_email, email_enabled,
                    first_name, last_name, refresh_token_sealed, created_at, updated_at)
                VALUES ('template', 'template', NULL, 1, 1, 1, 'First', 'Last', NULL, 0, 0)
                """)
        }
        guard let template = try database.appleIdentity(subject: "template") else {
            throw PowercutSimulator.Failure(description: "the template Apple ID was not read back")
        }
        try database.withConnection { conn in
            try conn.execute("DELETE FROM apple_identities WHERE sub = 'template'")
            try conn.execute("DELETE FROM accounts WHERE id = 'template'")
        }
        return template
    }
}

extension SQLiteDatabase {
    /// Creates account `account` (with `passwordHash`) linked to the Apple ID `subject` holding the Apple refresh token
    /// `token`, in one transaction (the first sign-in with Apple), from a record made by `appleIdentityTemplate`.
    func insertLinkedAccount(_ template: AppleIdentityRecord?, account: String, subject: String, token: String,
                             passwordHash: String) throws {
        guard var record = template else { throw PowercutSimulator.Failure(description: "no template record") }
        record.subject = subject
        record.accountID = account
        record.refreshTokenSealed = token
        record.createdAt = ServerDatabasePowercut.epoch
        try insertAppleIdentity(record, createAccount: AccountRecord(
            id: account, username: account, usernameKey: account, passwordHash: passwordHash,
            createdAt: ServerDatabasePowercut.epoch))
    }
}

/// A store in the server's SQLite database: what it runs under a cut (`perform`) and what it checks after one (`check`);
/// running a trial, dropping the handle and reopening are the same for each.
package protocol ServerDatabaseStore: PowercutStore {
    /// The directory of the database file.
    var directory: URL { get }
    /// The open database (nil after `close`).
    var database: SQLiteDatabase? { get set }
    /// Runs operation number `operation`, recording in the ledger what is in flight and what was acknowledged.
    func perform(_ operation: Int, _ database: SQLiteDatabase, _ trial: PowercutTrial)
    /// Reads the reopened database and checks it against the ledger (findings go to `trial`).
    func check(_ database: SQLiteDatabase, _ trial: PowercutTrial) throws
}

extension ServerDatabaseStore {
    package func close() { database = nil }

    /// A few acknowledged operations (up to two, drawn), then `operation` with the cut armed right before it.
    package func run(_ operation: Int, _ trial: PowercutTrial) {
        guard let database else { return trial.unexpected("no database open") }
        for _ in 0..<trial.random(0..<3) {
            perform(trial.random(0..<operations.count), database, trial)
            if trial.hasCut { return }
        }
        trial.armCut()
        perform(operation, database, trial)
    }

    package func reopen(_ trial: PowercutTrial) -> PowercutReopen {
        database = nil
        let (opened, outcome) = ServerDatabasePowercut.reopen(in: directory, trial)
        guard let opened else { return outcome }
        do {
            try check(opened, trial)
        } catch {
            trial.unexpected("reading the \(name) store: \(error)")
            return .restart
        }
        database = opened
        return .checked
    }
}
