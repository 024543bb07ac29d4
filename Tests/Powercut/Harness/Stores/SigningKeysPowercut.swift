import Foundation
import LatchkeyServer

/// The server's token-signing keys under power cuts: a rotation (the active key retired and the next one installed in
/// one transaction) and the cleanup of retired keys. Exactly one key is active at every moment.
package final class SigningKeysPowercut: ServerDatabaseStore {
    package let name = "signing-keys"
    package let operations = ["rotation", "cleanup of retired keys"]

    /// A key's retirement time (nil: active).
    struct Key: Equatable, Sendable {
        var retiredAt: Int64?
    }

    package var directory = URL(fileURLWithPath: "/")
    package var database: SQLiteDatabase?
    private var keys = PowercutLedger<Key>()
    private var counter = 0

    package init() {}

    package func prepare(in directory: URL) throws {
        self.directory = directory
        keys = PowercutLedger()
        let database = try ServerDatabasePowercut.open(in: directory)
        counter = 1
        guard try database.installSigningKey(record("key-1"), now: ServerDatabasePowercut.epoch, onlyIfNoActiveKey: true) else {
            throw PowercutSimulator.Failure(description: "a new database already had a signing key")
        }
        keys.set("key-1", Key(retiredAt: nil))
    }

    private func record(_ kid: String) -> SigningKeyRecord {
        SigningKeyRecord(kid: kid, privateKey: "private-\(kid)", publicJWK: "{\"kid\":\"\(kid)\"}",
                         createdAt: ServerDatabasePowercut.epoch + Int64(counter))
    }

    package func perform(_ operation: Int, _ database: SQLiteDatabase, _ trial: PowercutTrial) {
        counter += 1
        let now = ServerDatabasePowercut.epoch + Int64(counter)
        switch operation {
        case 1:
            // Keys retired before the one retired last go (the newest retired key stays for its tokens).
            let retired: [Int64] = keys.values.values.compactMap { (key: Key) -> Int64? in key.retiredAt }.sorted()
            guard let cutoff = retired.last else { return perform(0, database, trial) }
            var gone: [(key: String, value: Key?)] = []
            for (kid, key) in keys.values {
                if let at = key.retiredAt, at < cutoff { gone.append((key: kid, value: nil)) }
            }
            keys.begin(gone)
            if trial.attempt("cleanup", { _ = try database.deleteSigningKeys(retiredBefore: cutoff) }) {
                keys.acknowledge()
            }
        default:
            let kid = "key-\(counter)"
            var changes: [(key: String, value: Key?)] = []
            for (active, key) in keys.values where key.retiredAt == nil { changes.append((key: active, value: Key(retiredAt: now))) }
            changes.append((key: kid, value: Key(retiredAt: nil)))
            keys.begin(changes)
            if trial.attempt("rotation", {
                guard try database.installSigningKey(record(kid), now: now) else {
                    throw PowercutSimulator.Failure(description: "the rotation found its condition false")
                }
            }) {
                keys.acknowledge()
            }
        }
    }

    package func check(_ database: SQLiteDatabase, _ trial: PowercutTrial) throws {
        var found: [String: Key] = [:]
        for key in try database.signingKeys() { found[key.kid] = Key(retiredAt: key.retiredAt) }
        var active = 0
        for key in found.values where key.retiredAt == nil { active += 1 }
        if active != 1 { trial.wrong("\(active) active signing keys") }
        keys.check(found, trial) { "signing key \($0)" }
    }
}
