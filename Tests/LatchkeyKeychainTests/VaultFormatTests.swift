import CSQLite
import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// Vault format 2 (`VaultFormat`): a version-1 file moves to it when opened, the generation lives in the rows a commit
/// writes, and a rolled-back, swapped or missing file is still refused. (A cut at any point of the move leaves version
/// 1 or version 2 with every item: the power-cut harness's `vault-migration` store, `make powercut`.)
@Suite(.offCooperativePool) struct VaultFormatTests {
    /// A vault written by the version-1 code (Tests/Powercut/Fixtures/v1.vault; passphrase `passphrase-v1`): ten
    /// generic passwords `powercut`/`account-N` ("value of account-N"; 8 updated to "updated", 9 deleted), one in the
    /// access group `group.other`, one `whenUnlockedThisDeviceOnly`, two internet passwords on example.com.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Powercut/Fixtures/v1.vault").standardizedFileURL

    static func copyFixture(_ dir: TempDir) throws -> URL {
        let url = dir.file("v1.vault")
        try FileManager.default.copyItem(at: fixture, to: url)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: fixture.path + ".generation"),
                                         to: URL(fileURLWithPath: url.path + ".generation"))
        return url
    }

    static func format(_ url: URL) throws -> (format: String, tables: [String]) {
        var db: OpaquePointer?
        guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw KeychainStoreError(.io) }
        defer { sqlite3_close(db) }
        func texts(_ sql: String) -> [String] {
            var s: OpaquePointer?
            sqlite3_prepare_v2(db, sql, -1, &s, nil)
            defer { sqlite3_finalize(s) }
            var out: [String] = []
            while sqlite3_step(s) == SQLITE_ROW { out.append(String(cString: sqlite3_column_text(s, 0))) }
            return out
        }
        return (texts("SELECT CAST(value AS TEXT) FROM meta WHERE name = 'format'").first ?? "",
                texts("SELECT name FROM sqlite_master ORDER BY name"))
    }

    @Test func aVersion1VaultMovesToVersion2WithEveryItem() throws {
        let dir = TempDir()
        let url = try Self.copyFixture(dir)
        #expect(try Self.format(url).format == "latchkey-vault-1")
        let vault = try FileVault(url: url, kdf: .testing)
        #expect(try Self.format(url) == ("latchkey-vault-2", ["items", "items_lookup", "meta", "sqlite_autoindex_meta_1"]))
        try vault.unlock(passphrase: "passphrase-v1")
        for n in 0..<8 { #expect(try read(vault, "powercut", "account-\(n)") == "value of account-\(n)") }
        #expect(try read(vault, "powercut", "account-8") == "updated")
        #expect(status { _ = try read(vault, "powercut", "account-9") } == .itemNotFound)
        #expect(try read(vault, "other", "shared", group: "group.other") == "in another group")
        #expect(try read(vault, "device", "only") == "this device only")
        var internet = ItemQuery(itemClass: .internetPassword, filters: [.server: .string("example.com"), .account: .string("user1")],
                                 returnData: true)
        #expect(try vault.copyMatching(internet).first?.data == Data("internet password 1".utf8))
        internet.filters = [.server: .string("example.com")]
        internet.matchLimit = .all
        #expect(try vault.copyMatching(internet).count == 2)
        // Lookups, updates (the primary key too), deletes and the uniqueness of the primary key work on the moved rows.
        try vault.update(.genericPassword(service: "powercut", account: "account-0"), with: AttributeChanges(value: Data("new".utf8)))
        try vault.update(.genericPassword(service: "powercut", account: "account-1"),
                         with: AttributeChanges(values: [.account: .string("renamed")]))
        #expect(try read(vault, "powercut", "renamed") == "value of account-1")
        #expect(status { try vault.add(genp("powercut", "account-2", "twice")) } == .duplicateItem)
        try vault.delete(.genericPassword(service: "powercut", account: "account-3"))
        // The record now names the vault.
        let record = try #require(VaultGenerationFile(vaultPath: url.path).read())
        #expect(record.vaultID == vault.vaultID)
        // Reopened, it stays version 2 and holds the same.
        let again = try FileVault(url: url, kdf: .testing)
        try again.unlock(passphrase: "passphrase-v1")
        #expect(try read(again, "powercut", "account-0") == "new")
        #expect(status { _ = try read(again, "powercut", "account-3") } == .itemNotFound)
    }

    @Test func writesCarryTheirGenerationInTheirRows() throws {
        let dir = TempDir()
        let vault = try unlockedVault(dir)
        func generations() throws -> (meta: Int64, rows: Int64) {
            try vault.state.withLock { (s: inout FileVault.State) throws(KeychainStoreError) -> (Int64, Int64) in
                let meta = try s.db.using("SELECT value FROM meta WHERE name = 'generation'") { st throws(KeychainStoreError) in
                    _ = try st.step(); return st.int(0)
                }
                let rows = try s.db.using("SELECT coalesce(max(gen), 0) FROM items") { st throws(KeychainStoreError) in
                    _ = try st.step(); return st.int(0)
                }
                return (meta, rows)
            }
        }
        let start = try generations()
        try vault.add(genp("s", "a", "1"))
        try vault.add(genp("s", "b", "2"))
        // Adds and updates write the generation into their rows, not the meta row.
        let afterAdds = try generations()
        #expect(afterAdds.meta == start.meta && afterAdds.rows == max(start.meta, start.rows) + 2)
        try vault.update(.genericPassword(service: "s", account: "a"), with: AttributeChanges(value: Data("3".utf8)))
        #expect(try generations() == (start.meta, afterAdds.rows + 1))
        // A delete writes no row: the meta row takes its generation.
        try vault.delete(.genericPassword(service: "s", account: "a"))
        #expect(try generations() == (afterAdds.rows + 2, afterAdds.rows))
        #expect(VaultGenerationFile(vaultPath: dir.file("v.vault").path).read()?.generation == afterAdds.rows + 2)
        // Another connection's commit is seen: the next write takes the generation after it.
        let other = try FileVault(url: dir.file("v.vault"), kdf: .testing)
        try other.unlock(passphrase: "pw")
        try other.add(genp("s", "c", "4"))
        try vault.add(genp("s", "d", "5"))
        #expect(try generations().rows == afterAdds.rows + 4)
    }

    @Test func aSwappedVaultIsRefusedAndLeftAsItWas() throws {
        let dir = TempDir()
        let first = dir.file("first.vault"), second = dir.file("second.vault")
        do {
            let a = try FileVault(url: first, kdf: .testing)
            try a.unlock(passphrase: "pw")
            try a.add(genp("s", "a", "1"))
            let b = try FileVault(url: second, kdf: .testing)
            try b.unlock(passphrase: "pw")
            for n in 0..<5 { try b.add(genp("s", "b\(n)", "2")) }
        }
        // The second vault's file (a higher generation) in the first's place, beside the first's record.
        try FileManager.default.removeItem(at: first)
        try FileManager.default.copyItem(at: second, to: first)
        let bytes = try Data(contentsOf: first)
        do {
            _ = try FileVault(url: first, kdf: .testing)
            Issue.record("a swapped vault opened")
        } catch {
            #expect(error.status == .decode)
            #expect(error.localizedDescription.contains("another vault"))
        }
        #expect(try Data(contentsOf: first) == bytes)
    }

    @Test func aVaultGoneWhereWritesWereRecordedIsRefused() throws {
        let dir = TempDir()
        do {
            let vault = try unlockedVault(dir)
            try vault.add(genp("s", "a", "1"))
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dir.file("v.vault").path + suffix) }
        #expect(status { _ = try FileVault(url: dir.file("v.vault"), kdf: .testing) } == .decode)
        #expect(!FileManager.default.fileExists(atPath: dir.file("v.vault").path))
        // Deleting the record, as the message says, starts a new vault.
        try FileManager.default.removeItem(atPath: dir.file("v.vault").path + ".generation")
        _ = try unlockedVault(dir)
    }
}
