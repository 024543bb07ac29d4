import CSQLite
import Foundation
import LatchkeyKeychainCore
import LatchkeyKeychainLinux

/// FileVault's move from format 1 to format 2 under power cuts: each trial opens a copy of a vault the version-1 code
/// wrote (Tests/Powercut/Fixtures/v1.vault) with the cut somewhere in the opening, which moves it. After the reboot the
/// file must be version 1 or version 2 — never anything else — and, opened through the normal path (which finishes the
/// move), hold every item of the fixture.
package final class VaultMigrationPowercut: PowercutStore {
    package let name = "vault-migration"
    package let operations = ["format migration"]

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/v1.vault").standardizedFileURL
    static let passphrase = "passphrase-v1"
    /// The fixture's items: "class service/server account" → value.
    static let items: [String: Data] = {
        var items: [String: Data] = [:]
        for n in 0..<8 { items["genp powercut account-\(n)"] = Data("value of account-\(n)".utf8) }
        items["genp powercut account-8"] = Data("updated".utf8)
        items["genp other shared"] = Data("in another group".utf8)
        items["genp device only"] = Data("this device only".utf8)
        for n in 0..<2 { items["inet example.com user\(n)"] = Data("internet password \(n)".utf8) }
        return items
    }()

    private var directory = URL(fileURLWithPath: "/")
    private var vault: FileVault?
    private var migrated = false

    package init() {}

    private var vaultURL: URL { directory.appendingPathComponent("keychain.vault") }

    package func prepare(in directory: URL) throws {
        self.directory = directory
        migrated = false
        try FileManager.default.copyItem(at: Self.fixture, to: vaultURL)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.fixture.path + ".generation"),
                                         to: URL(fileURLWithPath: vaultURL.path + ".generation"))
    }

    package func close() { vault = nil }

    package func run(_ operation: Int, _ trial: PowercutTrial) {
        vault = nil
        trial.armCut()
        if trial.attempt("format migration", { vault = try FileVault(url: vaultURL, kdf: .testing) }) { migrated = true }
    }

    package func reopen(_ trial: PowercutTrial) -> PowercutReopen {
        vault = nil
        // Just prepared: the file is the fixture, left as it is for the trial to move.
        if trial.operation == "open" { return Self.format(of: vaultURL) == "latchkey-vault-1" ? .checked : .restart }
        // What the cut left, read directly: the format of the file and its log as SQLite recovers them.
        switch Self.format(of: vaultURL) {
        case "latchkey-vault-1":
            if migrated { trial.lost("the move to format 2 was acknowledged; the file is format 1") }
        case "latchkey-vault-2":
            if !migrated { trial.inFlightCommitted() }
        case let other:
            // Before the first trial (nothing moved yet) the prepared file is format 1; anything else is neither.
            trial.wrong("after the cut the file is neither format 1 nor format 2: \(other)")
        }
        let opened: FileVault
        do {
            opened = try FileVault(url: vaultURL, kdf: .testing)
            try opened.unlock(passphrase: Self.passphrase)
        } catch {
            if error.status == .decode { return .refused(message: FileVaultPowercut.english(error)) }
            trial.unexpected("opening: \(error)")
            return .restart
        }
        var found: [String: Data] = [:]
        for itemClass in [ItemClass.genericPassword, .internetPassword] {
            var query = ItemQuery(itemClass: itemClass, matchLimit: .all, returnData: true, returnAttributes: true)
            query.synchronizable = .any
            do {
                for result in try opened.copyMatching(query) {
                    let a = result.attributes
                    let name = [itemClass.rawValue, a?.service ?? a?.server ?? "", a?.account ?? ""].joined(separator: " ")
                    found[name] = result.data
                }
            } catch {
                trial.unexpected("reading the \(itemClass.rawValue) items: \(error)")
            }
        }
        for (name, value) in Self.items where found[name] != value {
            trial.lost("item \(name): \(found[name] == nil ? "missing" : "another value")")
        }
        for name in found.keys where Self.items[name] == nil { trial.wrong("item \(name) was never written") }
        if migrated { trial.acknowledged() }
        vault = opened
        // Every trial starts from the version-1 file again (a fresh copy).
        return .restart
    }

    package func namesRecovery(_ message: String) -> Bool { FileVaultPowercut.namesRecovery(message) }

    /// The `format` meta row of the vault file at `url` through a read-only connection (SQLite replays the log into
    /// its view; nothing is written), or a description of why there is none.
    static func format(of url: URL) -> String {
        // A read-only connection creates an empty log when there is none; it goes again (through the simulator).
        let wal = url.path + "-wal"
        let walExisted = FileManager.default.fileExists(atPath: wal)
        defer { if !walExisted { _ = VaultFileOperations.current.unlink(wal) } }
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return "cannot open" }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(db, "SELECT CAST(value AS TEXT) FROM meta WHERE name = 'format'", -1, &statement, nil) == SQLITE_OK else {
            return "no meta table (\(String(cString: sqlite3_errmsg(db))))"
        }
        let rc = sqlite3_step(statement)
        guard rc == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return "no format (SQLite \(rc))" }
        return String(cString: text)
    }
}
