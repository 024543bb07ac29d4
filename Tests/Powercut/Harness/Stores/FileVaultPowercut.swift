import Foundation
import LatchkeyKeychainCore
import LatchkeyKeychainLinux

/// FileVault, the Linux keychain file, under power cuts: add, update, delete, passphrase change, re-key (the vault key
/// wrapped by the device key file, which the first re-key creates), backup to a file and restore from it, the creation
/// of a new vault (its first unlock and item), and a clean close (the checkpoint and the log's removal) and reopen.
package final class FileVaultPowercut: PowercutStore {
    package let name = "file-vault"
    package let operations = ["add", "update", "delete", "passphrase change", "re-key", "backup", "restore", "vault creation",
                              "close and reopen"]

    private var directory = URL(fileURLWithPath: "/")
    private var vault: FileVault?
    /// Item values by account (service `powercut`).
    private var items = PowercutLedger<Data>()
    private var passphrase = ""
    private var passphraseInFlight: String?
    private var deviceKey = false
    private var deviceKeyInFlight = false
    /// The items in the acknowledged backup file, and in the one being written at the cut.
    private var backup: [String: Data]?
    private var backupInFlight: [String: Data]?
    private var backupWritten = false
    /// The newest vault made by "vault creation": its file and its one item's value; in flight until acknowledged.
    private var created: (url: URL, value: Data, acknowledged: Bool)?
    private var counter = 0

    static let service = "powercut"
    static let backupPassphrase = "backup passphrase"
    static let createdPassphrase = "created vault passphrase"

    package init() {}

    private var vaultURL: URL { directory.appendingPathComponent("keychain.vault") }
    private var deviceKeyURL: URL { directory.appendingPathComponent("device.key") }
    private var backupURL: URL { directory.appendingPathComponent("keychain.backup") }

    package func prepare(in directory: URL) throws {
        self.directory = directory
        items = PowercutLedger()
        passphrase = "passphrase-0"
        passphraseInFlight = nil
        deviceKey = false
        deviceKeyInFlight = false
        backup = nil
        backupInFlight = nil
        created = nil
        let vault = try FileVault(url: vaultURL, kdf: .testing)
        try vault.unlock(passphrase: passphrase)
        var random = PowercutRandom(seed: 1)
        for n in 0..<6 {
            let value = Data(random.bytes(16 + n * 24))
            try vault.add(.genericPassword(service: Self.service, account: "account-\(n)", value: value))
            items.set("account-\(n)", value)
        }
        counter = 6
    }

    package func close() { vault = nil }

    package func run(_ operation: Int, _ trial: PowercutTrial) {
        backupWritten = false
        let warmUps: [Int] = [0, 1, 2, 8]
        for _ in 0..<trial.random(0..<3) {
            perform(warmUps[trial.random(0..<warmUps.count)], trial)
            if trial.hasCut { return }
        }
        trial.armCut()
        perform(operation, trial)
    }

    private func perform(_ operation: Int, _ trial: PowercutTrial) {
        guard let vault else { return trial.unexpected("no vault open") }
        counter += 1
        let accounts = items.keys.sorted()
        var dice = trial.generator(counter)
        let value = Data(dice.bytes(8 + trial.random(0..<200)))
        switch operation {
        case 1 where !accounts.isEmpty:
            let account = accounts[trial.random(0..<accounts.count)]
            items.begin([(account, value)])
            attempt("update", trial) {
                try vault.update(.genericPassword(service: Self.service, account: account), with: AttributeChanges(value: value))
            }
        case 2 where accounts.count > 2:
            let account = accounts[trial.random(0..<accounts.count)]
            items.begin([(account, nil)])
            attempt("delete", trial) { try vault.delete(.genericPassword(service: Self.service, account: account)) }
        case 3:
            let new = "passphrase-\(counter)"
            passphraseInFlight = new
            if attempt("passphrase change", trial, { try vault.setPassphrase(new) }) {
                passphrase = new
                passphraseInFlight = nil
            }
        case 4:
            deviceKeyInFlight = true
            if attempt("re-key", trial, { try vault.enableKeyProvider() }) {
                deviceKey = true
                deviceKeyInFlight = false
            }
        case 5:
            let snapshot = items.values
            backupInFlight = snapshot
            backupWritten = true
            if attempt("backup", trial, { try vault.exportBackup(to: backupURL, passphrase: Self.backupPassphrase) }) {
                backup = snapshot
                backupInFlight = nil
            }
        case 6 where backup != nil:
            var restored: [(key: String, value: Data?)] = []
            for (account, value) in backup ?? [:] where items[account] == nil { restored.append((key: account, value: value)) }
            items.begin(restored)
            attempt("restore", trial) { _ = try vault.importBackup(from: backupURL, passphrase: Self.backupPassphrase) }
        case 6:
            perform(5, trial)
        case 7:
            let url = directory.appendingPathComponent("created-\(counter).vault")
            created = (url, value, false)
            if attempt("vault creation", trial, {
                let new = try FileVault(url: url, kdf: .testing)
                try new.unlock(passphrase: Self.createdPassphrase)
                try new.add(.genericPassword(service: Self.service, account: "first", value: value))
            }) {
                created?.acknowledged = true
            }
        case 8:
            // A clean close checkpoints the log into the file and removes it; the reopen starts a new one.
            self.vault = nil
            _ = trial.attempt("close and reopen") {
                let reopened = try FileVault(url: vaultURL, keyProvider: DeviceKeyFileProvider(url: deviceKeyURL), kdf: .testing)
                try reopened.unlock(passphrase: passphrase)
                self.vault = reopened
            }
        default:
            let account = "account-\(counter)"
            items.begin([(account, value)])
            attempt("add", trial) { try vault.add(.genericPassword(service: Self.service, account: account, value: value)) }
        }
    }

    /// Runs one operation: when it returns before the cut the ledger takes its changes.
    @discardableResult
    private func attempt(_ what: String, _ trial: PowercutTrial, _ body: () throws -> Void) -> Bool {
        guard trial.attempt(what, body) else { return false }
        items.acknowledge()
        return true
    }

    package func reopen(_ trial: PowercutTrial) -> PowercutReopen {
        vault = nil
        let vault: FileVault
        do {
            vault = try FileVault(url: vaultURL, keyProvider: DeviceKeyFileProvider(url: deviceKeyURL), kdf: .testing)
        } catch {
            guard error.status == .decode else {
                trial.unexpected("opening failed: \(error)")
                return .restart
            }
            return .refused(message: FileVaultPowercut.english(error))
        }
        // The passphrase: the acknowledged one, or the one being set at the cut.
        var unlocked = false
        var candidates: [String] = [passphrase]
        if let passphraseInFlight { candidates.append(passphraseInFlight) }
        for candidate in candidates {
            do {
                try vault.unlock(passphrase: candidate)
            } catch {
                if error.status != .authFailed { trial.unexpected("unlock: \(error)") }
                continue
            }
            if candidate != passphrase {
                passphrase = candidate
                trial.inFlightCommitted()
            }
            unlocked = true
            break
        }
        passphraseInFlight = nil
        guard unlocked else {
            trial.lost("the acknowledged passphrase no longer opens the vault")
            return .restart
        }
        if deviceKey || deviceKeyInFlight {
            do {
                try vault.unlock()
                if !deviceKey { trial.inFlightCommitted() }
                deviceKey = true
            } catch {
                if deviceKey { trial.lost("re-key: the device key no longer opens the vault (\(error))") }
            }
        }
        deviceKeyInFlight = false
        var query = ItemQuery.genericPassword(service: Self.service)
        query.matchLimit = .all
        query.returnAttributes = true
        query.returnData = true
        var found: [String: Data] = [:]
        do {
            for result in try vault.copyMatching(query) {
                guard let account = result.attributes?.account, let data = result.data else {
                    trial.wrong("an item without account or value")
                    continue
                }
                found[account] = data
            }
        } catch where error.status == .itemNotFound {
        } catch {
            trial.unexpected("reading the items: \(error)")
            return .restart
        }
        items.check(found, trial) { "item \($0)" }
        if backupWritten { checkBackup(trial) }
        if let created { checkCreated(created, trial) }
        backupInFlight = nil
        self.vault = vault
        return .checked
    }

    /// The vault made by "vault creation" opens with its passphrase and holds its item; one whose creation was cut may
    /// be anything short of that (no file, an empty one, no key yet, no item).
    private func checkCreated(_ made: (url: URL, value: Data, acknowledged: Bool), _ trial: PowercutTrial) {
        var found: Data?
        do {
            let vault = try FileVault(url: made.url, kdf: .testing)
            try vault.unlock(passphrase: Self.createdPassphrase)
            found = try vault.copyMatching(ItemQuery(itemClass: .genericPassword, filters: [.service: .string(Self.service)],
                                                     returnData: true)).first?.data
        } catch {
            if made.acknowledged {
                trial.lost("the created vault \(made.url.lastPathComponent): \(error)")
            } else if error.status != .itemNotFound {
                trial.unexpected("a vault cut while being created does not open: \(error)")
            }
        }
        if let found, found != made.value { trial.wrong("the created vault's item has a value never written") }
        if found != nil, !made.acknowledged { trial.inFlightCommitted() }
        created = found == nil ? nil : (made.url, made.value, true)
    }

    /// The backup file is the acknowledged one or, when a backup was being written at the cut, the new one — whole.
    private func checkBackup(_ trial: PowercutTrial) {
        guard FileManager.default.fileExists(atPath: backupURL.path) else {
            if backup != nil { trial.lost("the acknowledged backup file is missing") }
            return
        }
        let found: [String: Data]
        do {
            found = try Self.itemsInBackup(at: backupURL)
        } catch {
            trial.wrong("the backup file does not open: \(error)")
            return
        }
        if found == backup { return }
        if found == backupInFlight {
            backup = found
            trial.inFlightCommitted()
            return
        }
        trial.wrong("the backup file holds neither the acknowledged backup nor the one being written")
    }

    /// The items a backup file restores, read by restoring it into a scratch vault outside the watched directory.
    static func itemsInBackup(at url: URL) throws -> [String: Data] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-powercut-scratch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let vault = try FileVault(url: scratch.appendingPathComponent("scratch.vault"), kdf: .testing)
        try vault.unlock(passphrase: "scratch")
        try vault.importBackup(from: url, passphrase: backupPassphrase)
        var query = ItemQuery.genericPassword(service: service)
        query.matchLimit = .all
        query.returnAttributes = true
        query.returnData = true
        let results: [QueryResult]
        do {
            results = try vault.copyMatching(query)
        } catch {
            // (A `catch where` that lets other errors through here sent the Swift 6.3 compiler into a loop.)
            if error.status == .itemNotFound { return [:] }
            throw error
        }
        var items: [String: Data] = [:]
        for result in results {
            if let account = result.attributes?.account, let data = result.data { items[account] = data }
        }
        return items
    }

    package func namesRecovery(_ message: String) -> Bool { Self.namesRecovery(message) }

    /// An error's text in English (what `namesRecovery` reads), whatever the process's language.
    static func english(_ error: KeychainStoreError) -> String {
        KeychainStoreErrorText.status(error.status, .english) + (error.reason.map { " " + KeychainStoreErrorText.reason($0, .english) } ?? "")
    }

    /// A vault refusal says what to do: move the file aside (and restore from a backup), or delete the record.
    static func namesRecovery(_ message: String) -> Bool {
        message.contains("move it aside") || message.contains("delete that record") || message.contains("delete that file")
    }
}
