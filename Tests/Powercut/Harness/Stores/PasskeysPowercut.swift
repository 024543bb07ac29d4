import Foundation
import LatchkeyCrypto
import LatchkeyServer
import LatchkeySupport

/// The server's passkeys under power cuts: registration, the sign-count update of a sign-in, a passwordless account
/// (account, user handle and first passkey in one transaction), deletion.
package final class PasskeysPowercut: ServerDatabaseStore {
    package let name = "passkeys"
    package let operations = ["registration", "sign-count update", "passwordless account", "deletion"]

    struct Passkey: Equatable, Sendable {
        var accountID: String
        var signCount: UInt32
    }

    package var directory = URL(fileURLWithPath: "/")
    package var database: SQLiteDatabase?
    private var passkeys = PowercutLedger<Passkey>()
    private var counter = 0
    /// One valid P-256 COSE key for every credential (the store does not look at it beyond parsing).
    private let publicKey: Data = {
        let raw = P256.Signing.PrivateKey().publicKey.rawRepresentation
        return COSEKey.ec2(algorithm: .es256, curve: .p256, x: raw.prefix(32), y: raw.suffix(32)).encoded
    }()
    static let owner = "owner"

    package init() {}

    package func prepare(in directory: URL) throws {
        self.directory = directory
        passkeys = PowercutLedger()
        let database = try ServerDatabasePowercut.open(in: directory)
        try database.insertAccount(AccountRecord(id: Self.owner, username: Self.owner, usernameKey: Self.owner,
                                                 passwordHash: "-", createdAt: ServerDatabasePowercut.epoch))
        _ = try database.webAuthnUserHandle(accountID: Self.owner)
        for n in 0..<2 {
            let id = Data("prepared-\(n)".utf8)
            try database.insertPasskey(try credential(id, signCount: 0), accountID: Self.owner, name: "key \(n)")
            passkeys.set(id.base64URLEncodedString(), Passkey(accountID: Self.owner, signCount: 0))
        }
        counter = 2
    }

    private func credential(_ id: Data, signCount: UInt32) throws -> StoredCredential {
        try StoredCredential(id: id, userHandle: Data("handle-".utf8) + id, publicKey: publicKey, signCount: signCount,
                             backupEligible: false, createdAt: Date(timeIntervalSince1970: Double(ServerDatabasePowercut.epoch)))
    }

    package func perform(_ operation: Int, _ database: SQLiteDatabase, _ trial: PowercutTrial) {
        counter += 1
        let ids = passkeys.keys.sorted()
        let key = ids.isEmpty ? "" : ids[trial.random(0..<ids.count)]
        switch operation {
        case 1 where !key.isEmpty:
            guard let passkey = passkeys[key], let id = Data(base64URLEncoded: key) else { return }
            let next = Passkey(accountID: passkey.accountID, signCount: passkey.signCount + UInt32(trial.random(1..<9)))
            passkeys.begin([(key, next)])
            if trial.attempt("sign-count update", {
                var used = try credential(id, signCount: next.signCount)
                used.lastUsedAt = Date(timeIntervalSince1970: Double(ServerDatabasePowercut.epoch + Int64(counter)))
                guard try database.updatePasskeyAfterUse(used, previousSignCount: passkey.signCount) else {
                    throw PowercutSimulator.Failure(description: "the guarded update found another sign count")
                }
            }) {
                passkeys.acknowledge()
            }
        case 2:
            let account = "account-\(counter)"
            let id = Data("passwordless-\(counter)".utf8)
            passkeys.begin([(id.base64URLEncodedString(), Passkey(accountID: account, signCount: 0))])
            if trial.attempt("passwordless account", {
                try database.insertPasskeyAccount(AccountRecord(id: account, username: account, usernameKey: account,
                                                                passwordHash: "-", createdAt: ServerDatabasePowercut.epoch),
                                                  passkey: try credential(id, signCount: 0), name: "first key")
            }) {
                passkeys.acknowledge()
            }
        case 3 where ids.filter({ passkeys[$0]?.accountID == Self.owner }).count > 2:
            // Only the owner's: a passwordless account keeps its one passkey (the check below relies on it).
            let owned = ids.filter { passkeys[$0]?.accountID == Self.owner }
            let key = owned[trial.random(0..<owned.count)]
            guard let passkey = passkeys[key] else { return }
            passkeys.begin([(key, nil)])
            if trial.attempt("deletion", {
                guard try database.deletePasskey(id: key, accountID: passkey.accountID) else {
                    throw PowercutSimulator.Failure(description: "no such passkey")
                }
            }) {
                passkeys.acknowledge()
            }
        default:
            let id = Data("registered-\(counter)".utf8)
            passkeys.begin([(id.base64URLEncodedString(), Passkey(accountID: Self.owner, signCount: 0))])
            if trial.attempt("registration", {
                try database.insertPasskey(try credential(id, signCount: 0), accountID: Self.owner, name: "key \(counter)")
            }) {
                passkeys.acknowledge()
            }
        }
    }

    package func check(_ database: SQLiteDatabase, _ trial: PowercutTrial) throws {
        var found: [String: Passkey] = [:]
        let accounts = Set(try ServerDatabasePowercut.texts(database, "SELECT id FROM accounts"))
        for account in accounts {
            for record in try database.passkeys(accountID: account) {
                found[record.credential.id.base64URLEncodedString()] = Passkey(accountID: account,
                                                                               signCount: record.credential.signCount)
            }
        }
        // A passwordless account exists exactly when its passkey does (one transaction).
        for account in accounts where account != Self.owner && !found.values.contains(where: { $0.accountID == account }) {
            trial.wrong("account \(account) without the passkey it was created with")
        }
        for (key, passkey) in found where !accounts.contains(passkey.accountID) {
            trial.wrong("passkey \(key) of a missing account")
        }
        passkeys.check(found, trial) { "passkey \($0)" }
    }
}
