#if !LATCHKEY_APPLE_FRAMEWORKS  // the Linux store and Argon2id (libsodium) have no Apple counterpart
import Foundation
import Latchkey
import Testing

/// `latchkey keychain` where most Linux code runs: no D-Bus session, no keyring, no configuration.
@Suite struct CLIKeychainHeadlessTests {
    @Test func addThenFindWorksWithNoKeyringAndTheFileShowsNothing() throws {
        let cli = LatchkeyCLI(loginKeyring: false)
        defer { cli.cleanUp() }
        let before = try cli.run(["status"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.contains("store: file"))
        #expect(before.stdout.contains("login keyring: not running"))
        #expect(before.stdout.contains("(created on first use)"))
        #expect(!FileManager.default.fileExists(atPath: cli.vaultURL.path), "status creates nothing")

        let add = try cli.run(["add-generic-password", "-s", "demo-service", "-a", "me", "-w", "secret-value"])
        #expect(add.status == 0, "\(add.stderr)")
        let find = try cli.run(["find-generic-password", "-s", "demo-service", "-a", "me", "-w"])
        #expect(find.status == 0, "\(find.stderr)")
        #expect(find.stdout == "secret-value\n")

        var bytes = try Data(contentsOf: cli.vaultURL)
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: cli.vaultURL.path + "-wal")) { bytes.append(wal) }
        for needle in ["secret-value", "demo-service"] {
            #expect(bytes.range(of: Data(needle.utf8)) == nil, "the vault shows \(needle)")
        }
        let deviceKey = cli.vaultURL.deletingLastPathComponent().appendingPathComponent("device.key")
        let mode = try FileManager.default.attributesOfItem(atPath: deviceKey.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let after = try cli.run(["status"])
        #expect(after.stdout.contains("chosen because: the vault is protected by the device key file"))
        #expect(!after.stdout.contains("created on first use"))
    }

    @Test func aKeyringVaultWithNoKeyringFailsClearlyAndStaysByteForByte() throws {
        let cli = LatchkeyCLI(loginKeyring: false)
        defer { cli.cleanUp() }
        try FileManager.default.createDirectory(at: cli.vaultURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            // A vault wrapped by an OS key store (here an in-memory stand-in for the login keyring).
            let vault = try FileVault(url: cli.vaultURL, keyProvider: InMemoryVaultKeyProvider())
            try vault.unlock()
            try vault.add(Item.genericPassword(service: "k", account: "a", value: Data("v".utf8)))
        }
        let before = try Data(contentsOf: cli.vaultURL)
        for arguments in [["find-generic-password", "-s", "k", "-a", "a", "-w"],
                          ["add-generic-password", "-s", "k2", "-a", "a", "-w", "v2"], ["status"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 69, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.contains("login keyring"), "\(result.stderr)")
            #expect(result.stderr.contains("left untouched"), "\(result.stderr)")
            #expect(result.stderr.contains("LATCHKEY_KEYCHAIN_PATH"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: cli.vaultURL) == before)
        #expect(!FileManager.default.fileExists(atPath: cli.vaultURL.deletingLastPathComponent().appendingPathComponent("device.key").path))
    }

    @Test func aPassphraseVaultWithNoTerminalNamesTheThreeWaysOut() throws {
        let cli = LatchkeyCLI(loginKeyring: false, keychain: "passphrase")
        defer { cli.cleanUp() }
        let result = try cli.run(["add-generic-password", "-s", "demo", "-a", "me", "-w", "secret"])
        #expect(result.status == 77)
        #expect(result.stderr.contains("no passphrase could be read"), "\(result.stderr)")
        for way in ["--passphrase-fd", "latchkey keychain unlock", "LATCHKEY_KEYCHAIN=file"] {
            #expect(result.stderr.contains(way), "\(result.stderr)")
        }
        // An existing passphrase vault says the same when nothing is on stdin.
        #expect(try cli.run(["add-generic-password", "-s", "demo", "-a", "me", "-w", "secret"], input: "pp\n").status == 0)
        let plain = try cli.run(["find-generic-password", "-s", "demo", "-a", "me", "-w"])
        #expect(plain.status == 77)
        #expect(plain.stderr.contains("is protected by a passphrase"), "\(plain.stderr)")
    }

    @Test func anUnknownChoiceIsAUsageErrorNamingTheChoices() throws {
        let cli = LatchkeyCLI(loginKeyring: false, keychain: "cloud")
        defer { cli.cleanUp() }
        let result = try cli.run(["status"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("keyring, file, memory or passphrase"), "\(result.stderr)")
    }
}
#endif
