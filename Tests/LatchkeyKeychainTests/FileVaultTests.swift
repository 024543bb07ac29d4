import CSQLite
import Foundation
import LatchkeyTestSupport
import LatchkeyAuth
import LatchkeyCrypto
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// FileVault specifics: the file on disk, keys, corruption, backups, cryptographic gates.
@Suite(.offCooperativePool) struct FileVaultTests {
    func newVault(_ dir: TempDir, name: String = "v.vault", provider: (any VaultKeyProvider)? = nil) throws -> FileVault {
        try FileVault(url: dir.file(name), keyProvider: provider, kdf: .testing)
    }

    @Test func defaultPathFollowsXDG() {
        #expect(VaultFile.defaultURL(name: "work", environment: ["XDG_DATA_HOME": "/data/x", "HOME": "/home/u"]).path
                == "/data/x/latchkey/work.vault")
        #expect(VaultFile.defaultURL(environment: ["HOME": "/home/u"]).path == "/home/u/.local/share/latchkey/default.vault")
        #expect(VaultFile.defaultURL(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"]).path
                == "/home/u/.local/share/latchkey/default.vault")
    }

    @Test func filePermissionsAndReopen() throws {
        let dir = TempDir()
        let url = dir.url.appendingPathComponent("sub/dir/keys.vault")
        do {
            let v = try FileVault(url: url, kdf: .testing)
            try v.unlock(passphrase: "correct horse")
            try v.add(genp("svc", "me", "secret"))
        }
        let attrs = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attrs[.posixPermissions] as? Int) == 0o600)
        let dirAttrs = try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)
        #expect((dirAttrs[.posixPermissions] as? Int) == 0o700)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            let a = try FileManager.default.attributesOfItem(atPath: url.path + suffix)
            #expect(((a[.posixPermissions] as? Int) ?? 0) & 0o077 == 0)
        }
        let v2 = try FileVault(url: url, kdf: .testing)
        #expect(v2.isLocked)
        #expect(status { _ = try read(v2, "svc", "me") } == .interactionNotAllowed)
        let wrong = status { try v2.unlock(passphrase: "wrong") }
        #expect(wrong == .authFailed)
        try v2.unlock(passphrase: "correct horse")
        #expect(try read(v2, "svc", "me") == "secret")
        try v2.setPassphrase("new passphrase")
        let v3 = try FileVault(url: url, kdf: .testing)
        #expect(status { try v3.unlock(passphrase: "correct horse") } == .authFailed)
        try v3.unlock(passphrase: "new passphrase")
        #expect(try read(v3, "svc", "me") == "secret")
    }

    @Test func keyProviderUnlocks() throws {
        let dir = TempDir()
        let provider = InMemoryVaultKeyProvider()
        let v = try newVault(dir, provider: provider)
        try v.unlock()
        try v.add(genp("svc", "me", "via os key"))
        let again = try newVault(dir, provider: provider)
        try again.unlock()
        #expect(try read(again, "svc", "me") == "via os key")
        let other = try newVault(dir, provider: InMemoryVaultKeyProvider())
        #expect(status { try other.unlock() } == .authFailed)
        #expect(status { try other.unlock(passphrase: "x") } == .authFailed)
        // A passphrase can be added next to the OS key.
        try again.setPassphrase("backup pw")
        let byPassphrase = try newVault(dir)
        try byPassphrase.unlock(passphrase: "backup pw")
        #expect(try read(byPassphrase, "svc", "me") == "via os key")
    }

    @Test func fileShowsNoPlaintext() throws {
        let dir = TempDir()
        let v = try newVault(dir)
        try v.unlock(passphrase: "pw")
        var item = genp("com.example.SecretService", "alice@example.com", "hunter2-PLAINTEXT")
        item.attributes.label = "VisibleLabel"
        item.attributes.comment = "VisibleComment"
        try v.add(item)
        var inet = ItemAttributes(itemClass: .internetPassword)
        inet.server = "mail.example.org"; inet.account = "bob-account"
        try v.add(Item(attributes: inet, value: Data("inet-PLAINTEXT".utf8)))
        var bytes = Data()
        for suffix in ["", "-wal"] {
            if let d = FileManager.default.contents(atPath: dir.file("v.vault").path + suffix) { bytes.append(d) }
        }
        #expect(bytes.count > 0)
        for needle in ["com.example.SecretService", "alice@example.com", "hunter2-PLAINTEXT", "VisibleLabel",
                       "VisibleComment", "mail.example.org", "bob-account", "inet-PLAINTEXT", "alice", "hunter2"] {
            #expect(bytes.range(of: Data(needle.utf8)) == nil, "plaintext \(needle) in file")
        }
    }

    @Test func notAVaultOrCorruptFileIsTypedErrorAndUntouched() throws {
        let dir = TempDir()
        let garbage = dir.file("garbage.vault")
        let junk = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        try junk.write(to: garbage)
        #expect(status { _ = try FileVault(url: garbage, kdf: .testing) } == .decode)
        #expect(FileManager.default.contents(atPath: garbage.path) == junk)
        // Another SQLite database is not a vault.
        let other = dir.file("other.db")
        var db: OpaquePointer?
        sqlite3_open(other.path, &db)
        sqlite3_exec(db, "CREATE TABLE t (x); INSERT INTO t VALUES (1);", nil, nil, nil)
        sqlite3_close(db)
        #expect(status { _ = try FileVault(url: other, kdf: .testing) } == .decode)
    }

    @Test func truncatedFileIsTypedErrorNeverEmptied() throws {
        let dir = TempDir()
        let url = dir.file("t.vault")
        do {
            let v = try FileVault(url: url, kdf: .testing)
            try v.unlock(passphrase: "pw")
            for i in 0..<300 { try v.add(genp("svc", "acct\(i)", String(repeating: "x", count: 200))) }
        }
        // Checkpoint the WAL into the main file, then cut the file in half.
        var db: OpaquePointer?
        sqlite3_open(url.path, &db)
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil)
        sqlite3_close(db)
        let full = try #require(FileManager.default.contents(atPath: url.path))
        #expect(full.count > 16384)
        let cut = full.prefix(full.count / 2)
        try cut.write(to: url)
        let st = status {
            let v = try FileVault(url: url, kdf: .testing)
            try v.unlock(passphrase: "pw")
            var q = ItemQuery(itemClass: .genericPassword, matchLimit: .all, returnData: true)
            q.returnAttributes = true
            _ = try v.copyMatching(q)
        }
        #expect(st == .decode)
        #expect(FileManager.default.contents(atPath: url.path)?.count == cut.count)
        // A file cut inside the header.
        try full.prefix(50).write(to: url)
        #expect(status { _ = try FileVault(url: url, kdf: .testing) } == .decode)
    }

    @Test func swappedOrTamperedRowsFailToOpen() throws {
        let dir = TempDir()
        let url = dir.file("s.vault")
        let v = try FileVault(url: url, kdf: .testing)
        try v.unlock(passphrase: "pw")
        try v.add(genp("svc", "a", "secret-a"))
        try v.add(genp("svc", "b", "secret-b"))
        var db: OpaquePointer?
        sqlite3_open(url.path, &db)
        defer { sqlite3_close(db) }
        // Move b's value blob into a's row.
        sqlite3_exec(db, "UPDATE items SET value = (SELECT value FROM items ORDER BY rowid LIMIT 1 OFFSET 1) WHERE rowid = (SELECT min(rowid) FROM items)", nil, nil, nil)
        #expect(status { _ = try read(v, "svc", "a") } == .decode)
        #expect(try read(v, "svc", "b") == "secret-b")
        // Flip accessibility in the plaintext column.
        sqlite3_exec(db, "UPDATE items SET pdmn = 'ck' WHERE rowid = (SELECT max(rowid) FROM items)", nil, nil, nil)
        #expect(status { _ = try read(v, "svc", "b") } == .decode)
    }

    @Test func gatedItemCannotBeOpenedWithVaultKeyAlone() throws {
        let dir = TempDir()
        let v = try newVault(dir)
        try v.unlock(passphrase: "pw")
        let ctx = FakeContext()
        try ctx.evaluateNow(.deviceOwnerAuthenticationWithBiometrics)
        var item = genp("bank", "me", "GATED-SECRET")
        item.attributes.accessControl = AccessControl(accessibility: .whenUnlocked, flags: [.biometryAny])
        try v.add(item, authenticationContext: ctx)
        #expect(try read(v, "bank", "me", context: ctx) == "GATED-SECRET")
        // Read the row straight from SQLite and try every key the vault key yields.
        let keys = try #require(v.state.withLock { $0.keys })
        let row: VaultRow = try v.state.withLock { (s: inout FileVault.State) throws(KeychainStoreError) -> VaultRow in
            try s.db.using("SELECT \(FileVault.selectColumns) FROM items") { st throws(KeychainStoreError) in
                _ = try st.step(); return try FileVault.row(st)
            }
        }
        #expect(row.gate != nil && row.accessControlFlags == UInt64(AccessControlFlags.biometryAny.rawValue))
        #expect(status { _ = try row.openValue(keys: keys, itemKey: nil) } == .decode)
        #expect(status { _ = try row.openValue(keys: keys, itemKey: keys.whenUnlocked) } == .decode)
        #expect(status { _ = try row.openValue(keys: keys, itemKey: keys.afterFirstUnlock) } == .decode)
        #expect(status { _ = try row.openItemKey(keys: keys, alternative: 0, secrets: []) } == .authFailed)
        #expect(status { _ = try row.openItemKey(keys: keys, alternative: 0, secrets: [Data("guess".utf8)]) } == .authFailed)
        // The released secret opens it.
        let secret = try ctx.releaseSecret(for: .biometryAny)
        let itemKey = try row.openItemKey(keys: keys, alternative: 0, secrets: [secret])
        #expect(try row.openValue(keys: keys, itemKey: itemKey) == Data("GATED-SECRET".utf8))
    }

    @Test func backupLeavesThisDeviceOnlyAndGatedItemsOut() throws {
        let dir = TempDir()
        let v = try newVault(dir)
        try v.unlock(passphrase: "pw")
        for level in Accessibility.allCases { try v.add(genp("svc", level.rawValue, "v-\(level.rawValue)", accessibility: level)) }
        let ctx = FakeContext(); try ctx.evaluateNow(.deviceOwnerAuthenticationWithBiometrics)
        var gated = genp("svc", "gated", "g")
        gated.attributes.accessControl = AccessControl(accessibility: .whenUnlocked, flags: [.biometryAny])
        try v.add(gated, authenticationContext: ctx)
        let backup = try v.exportBackup(passphrase: "backup-pass")
        #expect(backup.range(of: Data("v-ak".utf8)) == nil)
        v.lock()
        #expect(status { _ = try v.exportBackup(passphrase: "backup-pass") } == .interactionNotAllowed)
        let restored = try newVault(dir, name: "restored.vault")
        try restored.unlock(passphrase: "other")
        #expect(status { try restored.importBackup(backup, passphrase: "wrong") } == .authFailed)
        #expect(status { try restored.importBackup(Data("LKBK1garbage".utf8), passphrase: "x") } == .decode)
        #expect(status { try restored.importBackup(backup.prefix(backup.count - 5), passphrase: "backup-pass") } != .success)
        #expect(try restored.importBackup(backup, passphrase: "backup-pass") == 3)
        #expect(try read(restored, "svc", "ak") == "v-ak")
        #expect(try read(restored, "svc", "ck") == "v-ck")
        #expect(try read(restored, "svc", "dk") == "v-dk")
        for level in Accessibility.allCases where level.isThisDeviceOnly {
            #expect(status { _ = try read(restored, "svc", level.rawValue) } == .itemNotFound)
        }
        #expect(status { _ = try read(restored, "svc", "gated") } == .itemNotFound)
        #expect(try restored.importBackup(backup, passphrase: "backup-pass") == 0) // duplicates kept
    }

    @Test func threadsAndTwoConnectionsWriteAtOnce() async throws {
        let dir = TempDir()
        let url = dir.file("c.vault")
        let a = try FileVault(url: url, kdf: .testing)
        try a.unlock(passphrase: "pw")
        let b = try FileVault(url: url, kdf: .testing)
        try b.unlock(passphrase: "pw")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<4 {
                let vault = t % 2 == 0 ? a : b
                group.addTask {
                    for i in 0..<40 {
                        try vault.add(genp("threads", "t\(t)-\(i)", "v\(t)-\(i)"))
                        #expect(try read(vault, "threads", "t\(t)-\(i)") == "v\(t)-\(i)")
                        if i % 5 == 0 {
                            try vault.update(.genericPassword(service: "threads", account: "t\(t)-\(i)"),
                                             with: AttributeChanges(value: Data("u\(t)-\(i)".utf8)))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        var q = ItemQuery.genericPassword(service: "threads"); q.matchLimit = .all; q.returnData = true
        #expect(try a.copyMatching(q).count == 160)
        #expect(try read(b, "threads", "t3-10") == "u3-10")
    }
}
