import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// An in-memory provider to test the pairing logic.
final class RecordingKeyProvider: OSKeyProvider, @unchecked Sendable {
    // @unchecked: every access to `keys` and `failing` goes through `lock`.
    let name: String
    private let lock = NSLock()
    private var keys: [String: Data] = [:]
    private var failing = false
    init(name: String) { self.name = name }
    var isAvailable: Bool { true }
    func setFailing(_ value: Bool) { lock.withLock { failing = value } }
    func loadKey(id: String) throws -> Data? {
        try lock.withLock {
            if failing { throw OSKeyProviderError.unavailable(provider: name, reason: "test") }
            return keys[id]
        }
    }
    func storeKey(_ key: Data, id: String) throws {
        try lock.withLock {
            if failing { throw OSKeyProviderError.unavailable(provider: name, reason: "test") }
            keys[id] = key
        }
    }
    func deleteKey(id: String) throws {
        try lock.withLock {
            if failing { throw OSKeyProviderError.unavailable(provider: name, reason: "test") }
            keys[id] = nil
        }
    }
    var stored: [String: Data] { lock.withLock { keys } }
}

@Suite(.offCooperativePool) struct CachedOSKeyProviderTests {
    @Test func readsRefillTheCacheAndWritesGoToBoth() throws {
        let durable = RecordingKeyProvider(name: "durable")
        let cache = RecordingKeyProvider(name: "cache")
        let pair = CachedOSKeyProvider(durable: durable, cache: cache)
        #expect(pair.name == "durable+cache")
        let key = try pair.loadOrCreateKey(id: "v")
        #expect(key.count == 32)
        #expect(durable.stored["v"] == key)
        #expect(cache.stored["v"] == key)

        try cache.deleteKey(id: "v")
        #expect(try pair.loadKey(id: "v") == key)
        #expect(cache.stored["v"] == key, "a read from the durable store refills the cache")

        try pair.deleteKey(id: "v")
        #expect(durable.stored.isEmpty && cache.stored.isEmpty)
        #expect(try pair.loadKey(id: "v") == nil)
    }

    @Test func aFailingCacheNeverFailsAnOperation() throws {
        let durable = RecordingKeyProvider(name: "durable")
        let cache = RecordingKeyProvider(name: "cache")
        cache.setFailing(true)
        let pair = CachedOSKeyProvider(durable: durable, cache: cache)
        let key = try pair.loadOrCreateKey(id: "v")
        #expect(try pair.loadKey(id: "v") == key)
        try pair.deleteKey(id: "v")
        #expect(try pair.loadKey(id: "v") == nil)
    }

    @Test func aFailingDurableStoreFails() {
        let durable = RecordingKeyProvider(name: "durable")
        durable.setFailing(true)
        let pair = CachedOSKeyProvider(durable: durable, cache: RecordingKeyProvider(name: "cache"))
        #expect(throws: OSKeyProviderError.self) { try pair.loadOrCreateKey(id: "v") }
    }

    @Test func randomKeysDiffer() {
        #expect(OSKeyProviderRandom.key(byteCount: 32) != OSKeyProviderRandom.key(byteCount: 32))
    }
}

#if canImport(CKeyutils)
@Suite(.offCooperativePool) struct KernelKeyringProviderTests {
    let provider = KernelKeyringProvider(timeout: 600, descriptionPrefix: "latchkey-test:")

    @Test func storeLoadReplaceDelete() throws {
        try #require(provider.isAvailable, "keyctl is not allowed in this process")
        let id = UUID().uuidString
        #expect(try provider.loadKey(id: id) == nil)
        let first = Data((0..<32).map { UInt8($0) })
        try provider.storeKey(first, id: id)
        #expect(try provider.loadKey(id: id) == first)
        let second = Data(repeating: 0xAB, count: 32)
        try provider.storeKey(second, id: id)
        #expect(try provider.loadKey(id: id) == second, "a new key with the same description displaces the old")
        try provider.deleteKey(id: id)
        #expect(try provider.loadKey(id: id) == nil)
        try provider.deleteKey(id: id)
    }

    @Test func anotherProcessOfTheSameUserReadsTheKey() throws {
        try #require(provider.isAvailable)
        let id = UUID().uuidString
        let key = Data("0123456789abcdef0123456789abcdef".utf8)
        try provider.storeKey(key, id: id)
        defer { try? provider.deleteKey(id: id) }
        // keyctl(1) is not always installed; the kernel's own view in /proc/keys lists the key when it is linked.
        // /proc files report size 0: read them to the end with read(2), not as a sized whole-file read, which
        // stops early once the list is long.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/keys"))
        defer { try? handle.close() }
        let keys = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        #expect(keys.contains("latchkey-test:\(id)"))
    }

    @Test func keysWithTimeoutsExpire() throws {
        try #require(provider.isAvailable)
        let shortLived = KernelKeyringProvider(timeout: 1, descriptionPrefix: "latchkey-test:")
        let id = UUID().uuidString
        try shortLived.storeKey(Data([1, 2, 3]), id: id)
        #expect(try shortLived.loadKey(id: id) == Data([1, 2, 3]))
        // Wait until the kernel discards it (bounded; not a timing assertion).
        var gone = false
        for _ in 0..<40 where !gone {
            Thread.sleep(forTimeInterval: 0.1)
            gone = try shortLived.loadKey(id: id) == nil
        }
        #expect(gone)
        try? shortLived.deleteKey(id: id)
    }
}
#endif

#if canImport(CSecret)
@Suite(.serialized, .enabled(if: SecretServiceTestEnvironment.shouldRun), .offCooperativePool)
struct SecretServiceKeyProviderTests {
    @Test func keysSurviveInTheLoginCollection() throws {
        try SecretServiceTestEnvironment.requireService()
        let provider = SecretServiceKeyProvider()
        #expect(provider.isAvailable)
        let id = SecretServiceTestEnvironment.uniqueID()
        #expect(try provider.loadKey(id: id) == nil)
        let key = try provider.loadOrCreateKey(id: id)
        #expect(key.count == 32)
        #expect(try provider.loadOrCreateKey(id: id) == key)
        #expect(try SecretServiceKeyProvider().loadKey(id: id) == key)
        try provider.deleteKey(id: id)
        #expect(try provider.loadKey(id: id) == nil)
    }

    #if canImport(CKeyutils)
    @Test func pairedWithTheKernelKeyringAsCache() throws {
        try SecretServiceTestEnvironment.requireService()
        let cache = KernelKeyringProvider(timeout: 600, descriptionPrefix: "latchkey-test:")
        let pair = CachedOSKeyProvider(durable: SecretServiceKeyProvider(), cache: cache)
        let id = SecretServiceTestEnvironment.uniqueID()
        let key = try pair.loadOrCreateKey(id: id)
        #expect(try cache.loadKey(id: id) == key)
        try cache.deleteKey(id: id)  // as after a reboot
        #expect(try pair.loadKey(id: id) == key)
        #expect(try cache.loadKey(id: id) == key)
        try pair.deleteKey(id: id)
        #expect(try SecretServiceKeyProvider().loadKey(id: id) == nil)
        #expect(try cache.loadKey(id: id) == nil)
    }
    #endif
}
#endif

/// FileVaults wrapped by the OS key providers open again in a new instance without a passphrase.
@Suite(.offCooperativePool) struct OSKeyProviderFileVaultTests {
    func temporaryVaultURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-osk-\(UUID().uuidString)")
            .appendingPathComponent("test.vault")
    }

    #if canImport(CKeyutils)
    @Test func kernelKeyringWrapsAVault() throws {
        let provider = KernelKeyringProvider(timeout: 600, descriptionPrefix: "latchkey-test:")
        try #require(provider.isAvailable)
        let url = temporaryVaultURL()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let vault = try FileVault(url: url, keyProvider: provider, kdf: .testing)
        try vault.unlock()
        try vault.add(Item.genericPassword(service: "s", account: "a", value: Data("v".utf8)))
        let reopened = try FileVault(url: url, keyProvider: provider, kdf: .testing)
        try reopened.unlock()
        var query = ItemQuery.genericPassword(service: "s", account: "a")
        query.returnData = true
        #expect(try reopened.copyMatching(query).first?.data == Data("v".utf8))
        // Without the OS key (as after a reboot) the vault cannot be opened by the provider.
        try provider.deleteWrappingKey(for: vault.vaultID)
        let afterReboot = try FileVault(url: url, keyProvider: provider, kdf: .testing)
        #expect(throws: KeychainStoreError.self) { try afterReboot.unlock() }
    }
    #endif

    #if canImport(CSecret) && canImport(CKeyutils)
    @Test(.enabled(if: SecretServiceTestEnvironment.shouldRun))
    func secretServiceWithKernelCacheWrapsAVault() throws {
        try SecretServiceTestEnvironment.requireService()
        let cache = KernelKeyringProvider(timeout: 600, descriptionPrefix: "latchkey-test:")
        let provider = CachedOSKeyProvider(durable: SecretServiceKeyProvider(), cache: cache)
        let url = temporaryVaultURL()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let vault = try FileVault(url: url, keyProvider: provider, kdf: .testing)
        try vault.unlock()
        try vault.add(Item.genericPassword(service: "s", account: "a", value: Data("v".utf8)))
        defer { try? provider.deleteWrappingKey(for: vault.vaultID) }
        // Drop the cache, as a reboot would: the Secret Service still has the key.
        try cache.deleteWrappingKey(for: vault.vaultID)
        let reopened = try FileVault(url: url, keyProvider: provider, kdf: .testing)
        try reopened.unlock()
        var query = ItemQuery.genericPassword(service: "s", account: "a")
        query.returnData = true
        #expect(try reopened.copyMatching(query).first?.data == Data("v".utf8))
        #expect(try cache.wrappingKey(for: vault.vaultID, create: false) != nil, "the read refilled the cache")
    }
    #endif
}
