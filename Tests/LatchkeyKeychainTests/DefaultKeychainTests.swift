import Foundation
import LatchkeyTestSupport
import LatchkeyCrypto
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// The default keychain's choice of store, and the device key file it falls back to without a keyring.
@Suite(.offCooperativePool) struct DefaultKeychainTests {
    func configuration(_ dir: TempDir, choice: KeychainStoreChoice = .automatic, keyring: Bool = false) -> DefaultKeychainConfiguration {
        DefaultKeychainConfiguration(choice: choice, vaultURL: dir.file("data/latchkey/default.vault"),
                                     deviceKeyURL: dir.file("data/latchkey/device.key"), isKeyringRunning: { keyring })
    }

    @Test func withNoKeyringANewVaultUsesTheDeviceKeyFileAndReopens() throws {
        let dir = TempDir()
        let opened = try DefaultKeychain.open(configuration(dir))
        #expect(opened.description.store == .file)
        #expect(opened.description.isNewVault)
        #expect(opened.description.description.contains("device key file"))
        try opened.store.add(genp("svc", "me", "headless"), authenticationContext: nil)
        let vault = try #require(opened.store as? FileVault)
        #expect(vault.protections == [.deviceKey])

        let again = try DefaultKeychain.open(configuration(dir))
        #expect(again.description.store == .file)
        #expect(!again.description.isNewVault)
        #expect(try read(again.store, "svc", "me") == "headless")
        // Even where a keyring runs later, the vault keeps its protection (no silent change).
        #expect(try DefaultKeychain.resolve(configuration(dir, keyring: true)).store == .file)
    }

    @Test func theEnvironmentNamesTheChoice() throws {
        let env = ["HOME": "/home/u", "XDG_DATA_HOME": "/data/u", "LATCHKEY_KEYCHAIN": "File"]
        let configuration = try DefaultKeychainConfiguration(environment: env)
        #expect(configuration.choice == .file)
        #expect(configuration.vaultURL.path == "/data/u/latchkey/default.vault")
        #expect(configuration.deviceKeyURL.path == "/data/u/latchkey/device.key")
        #expect(configuration.isKeyringRunning() == false, "no session bus in this environment")
        let custom = try DefaultKeychainConfiguration(environment: [
            "LATCHKEY_KEYCHAIN_PATH": "/srv/app/keys.vault", "LATCHKEY_DEVICE_KEY_PATH": "/srv/app/device.key", "HOME": "/h",
        ])
        #expect(custom.choice == .automatic)
        #expect(custom.vaultURL.path == "/srv/app/keys.vault")
        #expect(custom.deviceKeyURL.path == "/srv/app/device.key")
        for (value, choice) in [("keyring", KeychainStoreChoice.keyring), ("memory", .memory), ("passphrase", .passphrase), ("", .automatic)] {
            #expect(try KeychainStoreChoice(setting: value) == choice)
        }
        #expect(throws: KeychainStoreError(.param, .unknownStoreChoice("vault"))) {
            try DefaultKeychainConfiguration(environment: ["LATCHKEY_KEYCHAIN": "vault"])
        }
    }

    @Test func aKeyringVaultWithNoKeyringFailsAndIsLeftByteForByte() throws {
        let dir = TempDir()
        let url = dir.file("data/latchkey/default.vault")
        do {
            try VaultFile.prepareDirectory(url.deletingLastPathComponent().path)
            let keyring = try FileVault(url: url, keyProvider: InMemoryVaultKeyProvider())  // protection: .keyring
            try keyring.unlock()
            try keyring.add(genp("svc", "me", "in the keyring"))
        }
        let before = try Data(contentsOf: url)
        for choice in [KeychainStoreChoice.automatic, .file, .passphrase] {
            let error = #expect(throws: KeychainStoreError.self) { try DefaultKeychain.open(configuration(dir, choice: choice)) }
            #expect(error?.reason == .protectedElsewhere([.keyring]))
            let message = error?.localizedDescription ?? ""
            #expect(message.contains("login keyring") && message.contains("left untouched") && message.contains("LATCHKEY_KEYCHAIN_PATH"))
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: dir.file("data/latchkey/device.key").path), "no device key was made")
        #expect(throws: KeychainStoreError(.notAvailable, .keyringNotRunning)) {
            try DefaultKeychain.open(configuration(dir, choice: .keyring))
        }
    }

    @Test func aPassphraseVaultOpensLockedAndIsNeverRewrapped() throws {
        let dir = TempDir()
        let url = dir.file("data/latchkey/default.vault")
        do {
            try VaultFile.prepareDirectory(url.deletingLastPathComponent().path)
            let vault = try FileVault(url: url, kdf: .testing)
            try vault.unlock(passphrase: "correct horse")
            try vault.add(genp("svc", "me", "behind a passphrase"))
        }
        let before = try Data(contentsOf: url)
        let opened = try DefaultKeychain.open(configuration(dir))
        #expect(opened.description.store == .passphrase)
        let vault = try #require(opened.store as? FileVault)
        #expect(vault.isLocked)
        #expect(status { _ = try read(vault, "svc", "me") } == .interactionNotAllowed)
        // The device key file never takes over a passphrase vault.
        let device = try FileVault(url: url, keyProvider: DeviceKeyFileProvider(url: dir.file("device.key")))
        #expect(throws: KeychainStoreError(.authFailed, .protectedElsewhere([.passphrase]))) { try device.unlock() }
        #expect(try Data(contentsOf: url) == before)
        try vault.unlock(passphrase: "correct horse")
        #expect(try read(vault, "svc", "me") == "behind a passphrase")
    }

    @Test func memoryKeepsNothingOnDisk() throws {
        let dir = TempDir()
        let opened = try DefaultKeychain.open(configuration(dir, choice: .memory))
        #expect(opened.description.store == .memory)
        #expect(opened.description.vaultURL == nil)
        try opened.store.add(genp("svc", "me", "ram"), authenticationContext: nil)
        #expect(try read(opened.store, "svc", "me") == "ram")
        #expect(!FileManager.default.fileExists(atPath: dir.file("data").path))
    }

    @Test func theChoiceIsLoggedOnceThroughTheHook() throws {
        let dir = TempDir()
        let entries = Locked<[LatchkeyLog.Entry]>([])
        LatchkeyLog.setHandler { entry in entries.withLock { $0.append(entry) } }
        defer { LatchkeyLog.setHandler(nil) }
        _ = try DefaultKeychain.open(configuration(dir, choice: .memory))
        let logged = entries.withLock { $0 }.filter { $0.category == "keychain" && $0.message.hasPrefix("default store: memory") }
        #expect(logged.count >= 1)
        #expect(logged.allSatisfy { $0.level == .notice })
    }
}

/// The device key file: created once, private, never replaced.
@Suite(.offCooperativePool) struct DeviceKeyFileProviderTests {
    let vaultA = Data(repeating: 0xA1, count: 16)
    let vaultB = Data(repeating: 0xB2, count: 16)

    func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func createdOnFirstUsePrivateAndStable() throws {
        let dir = TempDir()
        let provider = DeviceKeyFileProvider(url: dir.file("new/dir/device.key"))
        #expect(try provider.wrappingKey(for: vaultA, create: false) == nil, "nothing is created without create")
        #expect(!provider.exists)
        let first = try #require(try provider.wrappingKey(for: vaultA, create: true))
        #expect(try mode(provider.url.path) == 0o600)
        #expect(try mode(dir.file("new/dir").path) == 0o700)
        #expect(try Data(contentsOf: provider.url).count == 32)
        let again = try #require(try provider.wrappingKey(for: vaultA, create: false))
        #expect(first == again)
        let other = try #require(try provider.wrappingKey(for: vaultB, create: false))
        #expect(other != first, "each vault gets its own derived key")
        try provider.deleteWrappingKey(for: vaultA)
        #expect(provider.exists, "the shared device key is never deleted for one vault")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.file("new/dir").path)
        #expect(leftovers == ["device.key"], "no temporary file is left")
    }

    @Test func theWrappingKeyIsHKDFOfTheDeviceKey() throws {
        let dir = TempDir()
        let url = dir.file("device.key")
        let raw = Data((0..<32).map { UInt8($0) })
        #expect(FileManager.default.createFile(atPath: url.path, contents: raw, attributes: [.posixPermissions: 0o600]))
        let derived = try #require(try DeviceKeyFileProvider(url: url).wrappingKey(for: vaultA, create: false))
        let expected = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: raw), salt: vaultA,
                                          info: Data("latchkey.device-key.v1.vault-wrap".utf8), outputByteCount: 32)
        #expect(derived == expected)
    }

    @Test func refusesFilesOthersCanReadOrOfTheWrongSizeAndLeavesThem() throws {
        let dir = TempDir()
        let url = dir.file("device.key")
        let raw = SecureRandom.bytes(count: 32)
        #expect(FileManager.default.createFile(atPath: url.path, contents: raw, attributes: [.posixPermissions: 0o644]))
        let provider = DeviceKeyFileProvider(url: url)
        #expect(throws: KeychainStoreError(.notAvailable, .deviceKeyFile(path: url.path, .readableByOthers(mode: 0o644)))) {
            try provider.wrappingKey(for: vaultA, create: true)
        }
        #expect(try mode(url.path) == 0o644, "the mode is the user's to change")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try Data(raw.prefix(31)).write(to: url)
        #expect(throws: KeychainStoreError(.notAvailable, .deviceKeyFile(path: url.path, .wrongSize))) {
            try provider.wrappingKey(for: vaultA, create: true)
        }
        #expect(try Data(contentsOf: url) == raw.prefix(31), "a damaged key file is never replaced")
        let link = dir.file("link.key")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: url.path)
        #expect(throws: KeychainStoreError(.notAvailable, .deviceKeyFile(path: link.path, .notRegularFile))) {
            try DeviceKeyFileProvider(url: link).wrappingKey(for: vaultA, create: true)
        }
    }

    @Test func concurrentFirstUsesAgreeOnOneKey() async throws {
        let dir = TempDir()
        let url = dir.file("race/device.key")
        let vault = vaultA
        let keys = await withTaskGroup(of: Data?.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let key = try? DeviceKeyFileProvider(url: url).wrappingKey(for: vault, create: true)
                    return key?.withUnsafeBytes { Data($0) }
                }
            }
            var all: [Data?] = []
            for await key in group { all.append(key) }
            return all
        }
        #expect(keys.allSatisfy { $0 != nil })
        #expect(Set(keys.compactMap { $0 }).count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("race").path) == ["device.key"])
    }
}
