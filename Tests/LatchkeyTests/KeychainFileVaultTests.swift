#if !LATCHKEY_APPLE_FRAMEWORKS  // the Linux store and Argon2id (libsodium) have no Apple counterpart
import Foundation
import Testing
import Latchkey

/// The app-facing Keychain over a real FileVault in a temporary directory.
@Suite struct KeychainFileVaultTests {
    let directory: URL
    let vault: FileVault

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-kc-\(UUID().uuidString)")
        vault = try FileVault(url: directory.appendingPathComponent("test.vault"), kdf: .testing)
        try vault.unlock(passphrase: "correct horse")
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }

    @Test func roundTripsSurviveReopening() throws {
        defer { cleanUp() }
        let keychain = Keychain(service: "com.example.vault", store: vault)
        let credentials = Credentials(user: "민수", token: "🔐-token", expires: Date(timeIntervalSince1970: 1_900_000_000),
                                      scopes: ["a"])
        try keychain.set(credentials, forKey: "login")
        try keychain.set("", forKey: "empty")
        try keychain.set("값", forKey: "키")
        var generator = SystemRandomNumberGenerator()
        let big = Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try keychain.set(big, forKey: "big")

        let reopened = try FileVault(url: vault.url, kdf: .testing)
        try reopened.unlock(passphrase: "correct horse")
        let again = Keychain(service: "com.example.vault", store: reopened)
        #expect(try again.value(Credentials.self, forKey: "login") == credentials)
        #expect(try again.string(forKey: "empty") == "")
        #expect(try again.string(forKey: "키") == "값")
        #expect(try again.data(forKey: "big") == big)
        #expect(try again.allKeys() == ["big", "empty", "login", "키"].sorted())
    }

    @Test func updateInPlacePreservesTheCreationDate() throws {
        defer { cleanUp() }
        let keychain = Keychain(service: "com.example.vault", store: vault)
        try keychain.label("Token").set("one", forKey: "token")
        let first = try #require(try keychain.attributes(forKey: "token"))
        try keychain.set("two", forKey: "token")
        let second = try #require(try keychain.attributes(forKey: "token"))
        #expect(try keychain.string(forKey: "token") == "two")
        #expect(second.creationDate == first.creationDate)
        #expect(try #require(second.modificationDate) > #require(first.modificationDate))
        #expect(second.label == "Token")
    }

    @Test func lockedVaultMapsErrorsAndAfterFirstUnlockStaysReadable() async throws {
        defer { cleanUp() }
        let keychain = Keychain(service: "com.example.vault", store: vault)
        try await keychain.set("locked away", forKey: "k")
        try await keychain.accessibility(.afterFirstUnlock).set("background", forKey: "bg")
        vault.lock()
        await #expect(throws: KeychainError.interactionNotAllowed) { try await keychain.string(forKey: "k") }
        #expect(try await keychain.string(forKey: "bg") == "background")
        try vault.unlock(passphrase: "correct horse")
        #expect(try await keychain.string(forKey: "k") == "locked away")
    }

    @Test func duplicatesAndRemoval() throws {
        defer { cleanUp() }
        let keychain = Keychain(service: "com.example.vault", store: vault)
        try keychain.set("a", forKey: "k")
        #expect(throws: KeychainStoreError.duplicateItem) {
            try vault.add(Item.genericPassword(service: "com.example.vault", account: "k", value: Data()))
        }
        try keychain.remove("k")
        #expect(try keychain.contains("k") == false)
        try keychain.set("b", forKey: "k2")
        try keychain.removeAll()
        #expect(try keychain.allItems().isEmpty)
    }
}
#endif
