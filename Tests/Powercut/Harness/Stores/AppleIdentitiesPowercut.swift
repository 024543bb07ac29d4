import Foundation
import LatchkeyServer

/// The server's Sign in with Apple links under power cuts: a first sign-in (account and link in one transaction), an
/// e-mail update, Apple's refresh token, unlinking.
package final class AppleIdentitiesPowercut: ServerDatabaseStore {
    package let name = "apple-identities"
    package let operations = ["link with a new account", "email update", "Apple refresh token", "unlink"]

    struct Identity: Equatable, Sendable {
        var accountID: String
        var email: String?
        var refreshTokenSealed: String?
    }

    package var directory = URL(fileURLWithPath: "/")
    package var database: SQLiteDatabase?
    private var identities = PowercutLedger<Identity>()
    private var counter = 0
    /// A record to copy from: `AppleIdentityRecord` has no public initializer (its links are made by the Sign in with
    /// Apple service), so one row is written with SQL and read back once.
    private var template: AppleIdentityRecord?

    package init() {}

    package func prepare(in directory: URL) throws {
        self.directory = directory
        identities = PowercutLedger()
        let database = try ServerDatabasePowercut.open(in: directory)
        counter = 0
        template = try ServerDatabasePowercut.appleIdentityTemplate(database)
        for _ in 0..<3 { try link(database).map { identities.set($0.key, $0.value) } }
    }

    /// Links a new subject with a new account; returns the ledger entry.
    @discardableResult
    private func link(_ database: SQLiteDatabase, _ trial: PowercutTrial? = nil) throws -> (key: String, value: Identity)? {
        counter += 1
        let subject = "000\(counter).apple", account = "apple-account-\(counter)"
        let identity = Identity(accountID: account, email: "user\(counter)@privaterelay.appleid.com", refreshTokenSealed: nil)
        guard var record = template else { throw PowercutSimulator.Failure(description: "no template record") }
        record.subject = subject
        record.accountID = account
        record.email = identity.email
        record.createdAt = ServerDatabasePowercut.epoch
        let newAccount = AccountRecord(id: account, username: account, usernameKey: account, passwordHash: "-",
                                       createdAt: ServerDatabasePowercut.epoch)
        guard let trial else {
            try database.insertAppleIdentity(record, createAccount: newAccount)
            return (subject, identity)
        }
        identities.begin([(subject, identity)])
        if trial.attempt("link", { try database.insertAppleIdentity(record, createAccount: newAccount) }) {
            identities.acknowledge()
        }
        return nil
    }

    package func perform(_ operation: Int, _ database: SQLiteDatabase, _ trial: PowercutTrial) {
        let subjects = identities.keys.sorted()
        let subject = subjects.isEmpty ? "" : subjects[trial.random(0..<subjects.count)]
        let now = ServerDatabasePowercut.epoch + Int64(counter)
        switch operation {
        case 1 where !subject.isEmpty:
            guard var identity = identities[subject] else { return }
            counter += 1
            identity.email = "changed\(counter)@example.com"
            let email = identity.email
            identities.begin([(subject, identity)])
            if trial.attempt("email update", {
                try database.updateAppleEmail(subject: subject, email: email, emailVerified: true, isPrivateEmail: false, now: now)
            }) {
                identities.acknowledge()
            }
        case 2 where !subject.isEmpty:
            guard var identity = identities[subject] else { return }
            counter += 1
            identity.refreshTokenSealed = "sealed-\(counter)"
            let sealed = identity.refreshTokenSealed
            identities.begin([(subject, identity)])
            if trial.attempt("Apple refresh token", { try database.updateAppleRefreshToken(subject: subject, sealed: sealed, now: now) }) {
                identities.acknowledge()
            }
        case 3 where subjects.count > 2:
            identities.begin([(subject, nil)])
            if trial.attempt("unlink", { try database.deleteAppleIdentity(subject: subject) }) {
                identities.acknowledge()
            }
        default:
            _ = try? link(database, trial)
        }
    }

    package func check(_ database: SQLiteDatabase, _ trial: PowercutTrial) throws {
        var found: [String: Identity] = [:]
        let accounts = Set(try ServerDatabasePowercut.texts(database, "SELECT id FROM accounts"))
        for subject in try ServerDatabasePowercut.texts(database, "SELECT sub FROM apple_identities") {
            guard let record = try database.appleIdentity(subject: subject) else { continue }
            found[subject] = Identity(accountID: record.accountID, email: record.email,
                                      refreshTokenSealed: record.refreshTokenSealed)
            if !accounts.contains(record.accountID) { trial.wrong("Apple ID \(subject) linked to a missing account") }
        }
        identities.check(found, trial) { "Apple ID \($0)" }
    }
}
