import Foundation
import LatchkeyServer

/// The server's accounts under power cuts: account creation, a password (re)hash, the lock state.
package final class AccountsPowercut: ServerDatabaseStore {
    package let name = "accounts"
    package let operations = ["account creation", "password rehash", "lock state"]

    struct Account: Equatable, Sendable {
        var passwordHash: String
        var failedCount: Int
        var lockedUntil: Int64?
    }

    package var directory = URL(fileURLWithPath: "/")
    package var database: SQLiteDatabase?
    private var accounts = PowercutLedger<Account>()
    private var counter = 0

    package init() {}

    package func prepare(in directory: URL) throws {
        self.directory = directory
        accounts = PowercutLedger()
        let database = try ServerDatabasePowercut.open(in: directory)
        for n in 0..<3 {
            let account = Account(passwordHash: "$argon2id$v=19$m=8,t=1,p=1$prepared\(n)", failedCount: 0, lockedUntil: nil)
            try database.insertAccount(record("account-\(n)", account))
            accounts.set("account-\(n)", account)
        }
        counter = 3
    }

    private func record(_ id: String, _ account: Account) -> AccountRecord {
        AccountRecord(id: id, username: id, usernameKey: id, passwordHash: account.passwordHash,
                      createdAt: ServerDatabasePowercut.epoch, lockedUntil: account.lockedUntil, failedCount: account.failedCount)
    }

    package func perform(_ operation: Int, _ database: SQLiteDatabase, _ trial: PowercutTrial) {
        counter += 1
        let ids = accounts.keys.sorted()
        let id = ids.isEmpty ? "" : ids[trial.random(0..<ids.count)]
        switch operation {
        case 1 where !id.isEmpty:
            guard var account = accounts[id] else { return }
            account.passwordHash = "$argon2id$v=19$m=8,t=1,p=1$rehash\(counter)"
            let hash = account.passwordHash
            accounts.begin([(id, account)])
            if trial.attempt("password rehash", { try database.updatePasswordHash(accountID: id, passwordHash: hash) }) {
                accounts.acknowledge()
            }
        case 2 where !id.isEmpty:
            guard var account = accounts[id] else { return }
            account.failedCount = trial.random(0..<8)
            account.lockedUntil = account.failedCount > 4 ? ServerDatabasePowercut.epoch + Int64(counter) : nil
            let state = account
            accounts.begin([(id, account)])
            if trial.attempt("lock state", {
                try database.updateAccountLockState(accountID: id, failedCount: state.failedCount, lockedUntil: state.lockedUntil)
            }) {
                accounts.acknowledge()
            }
        default:
            let new = "account-\(counter)"
            let account = Account(passwordHash: "$argon2id$v=19$m=8,t=1,p=1$new\(counter)", failedCount: 0, lockedUntil: nil)
            accounts.begin([(new, account)])
            if trial.attempt("account creation", { try database.insertAccount(record(new, account)) }) {
                accounts.acknowledge()
            }
        }
    }

    package func check(_ database: SQLiteDatabase, _ trial: PowercutTrial) throws {
        var found: [String: Account] = [:]
        for id in try ServerDatabasePowercut.texts(database, "SELECT id FROM accounts") {
            guard let record = try database.account(id: id) else { continue }
            found[id] = Account(passwordHash: record.passwordHash, failedCount: record.failedCount,
                                lockedUntil: record.lockedUntil)
        }
        accounts.check(found, trial) { "account \($0)" }
    }
}
