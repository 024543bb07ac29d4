import Foundation
import LatchkeyServer

/// The server's account deletion under power cuts: an account with a Sign in with Apple link goes in one transaction,
/// its Apple refresh token moving into the revocation outbox (`Database.deleteAccount`), so a cut leaves the account
/// and its link, or neither and the token queued — never a deleted account whose token is not queued for revocation.
package final class AccountDeletionPowercut: ServerDatabaseStore {
    package let name = "account-deletion"
    package let operations = ["account deletion", "account creation (Apple link with a refresh token)"]

    package var directory = URL(fileURLWithPath: "/")
    package var database: SQLiteDatabase?
    /// `account:<id>` (its password hash), `apple:<sub>` (the account it links), `revocation:<sub>` (the queued token).
    private var rows = PowercutLedger<String>()
    private var counter = 0
    private var template: AppleIdentityRecord?

    package init() {}

    package func prepare(in directory: URL) throws {
        self.directory = directory
        rows = PowercutLedger()
        counter = 0
        let database = try ServerDatabasePowercut.open(in: directory)
        template = try ServerDatabasePowercut.appleIdentityTemplate(database)
        for _ in 0..<3 {
            counter += 1
            try create(counter, database)
            for (key, value) in Self.rows(counter) { rows.set(key, value) }
        }
    }

    /// The ledger rows of account number `n`: the account (its password hash) and its Apple ID link.
    private static func rows(_ n: Int) -> [(key: String, value: String?)] {
        [("account:deleted-account-\(n)", "$argon2id$prepared\(n)"), ("apple:00\(n).apple", "deleted-account-\(n)")]
    }

    /// Creates account number `n`, linked to a new Apple ID with the refresh token `sealed-<n>` (one transaction).
    private func create(_ n: Int, _ database: SQLiteDatabase) throws {
        try database.insertLinkedAccount(template, account: "deleted-account-\(n)", subject: "00\(n).apple", token: "sealed-\(n)",
                                         passwordHash: "$argon2id$prepared\(n)")
    }

    package func perform(_ operation: Int, _ database: SQLiteDatabase, _ trial: PowercutTrial) {
        counter += 1
        let links = rows.keys.filter { $0.hasPrefix("apple:") }.sorted()
        guard operation == 0, links.count > 1 else {
            let n = counter
            rows.begin(Self.rows(n))
            if trial.attempt("account creation", { try create(n, database) }) { rows.acknowledge() }
            return
        }
        let link = links[trial.random(0..<links.count)]
        guard let account = rows[link], let n = account.split(separator: "-").last else { return }
        let subject = String(link.dropFirst("apple:".count)), now = ServerDatabasePowercut.epoch + Int64(counter)
        rows.begin([("account:\(account)", nil), (link, nil), ("revocation:\(subject)", "sealed-\(n)")])
        if trial.attempt("account deletion", {
            guard try database.deleteAccount(id: account, now: now) != nil else {
                throw PowercutSimulator.Failure(description: "account \(account) was not there to delete")
            }
        }) {
            rows.acknowledge()
        }
    }

    package func check(_ database: SQLiteDatabase, _ trial: PowercutTrial) throws {
        var found: [String: String] = [:]
        for id in try ServerDatabasePowercut.texts(database, "SELECT id FROM accounts") {
            guard let record = try database.account(id: id) else { continue }
            found["account:\(id)"] = record.passwordHash
        }
        for subject in try ServerDatabasePowercut.texts(database, "SELECT sub FROM apple_identities") {
            found["apple:\(subject)"] = try database.appleIdentity(subject: subject)?.accountID
        }
        try database.withConnection { conn in
            for row in try conn.execute("SELECT subject, token_sealed FROM apple_revocations") {
                found["revocation:\(try row.text(0))"] = try row.text(1)
            }
        }
        rows.check(found, trial) { $0 }
    }
}
