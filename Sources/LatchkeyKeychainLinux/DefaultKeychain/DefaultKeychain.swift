import Foundation
import LatchkeyKeychainCore
import LatchkeyCrypto

/// The default keychain on Linux: chooses, opens and describes the store that `SecItem…` (the `Security`
/// module) and `Keychain(service:)` (the kit) use when the app sets none.
///
/// `automatic` (the default) picks, in order:
/// 1. an existing vault keeps its protection: the login keyring if it is protected by one and a keyring
///    runs, the device key file if it has one, a passphrase (locked until unlocked) if it has one;
/// 2. a new vault: the login keyring where one runs (a desktop session), otherwise the device key file —
///    so the keychain works with no setup on CI runners, containers and servers.
///
/// A vault is never re-protected by a weaker key behind the user's back: a vault that only the login
/// keyring (or a passphrase) can open fails with `.protectedElsewhere`, naming the fix, and its file is
/// left byte-for-byte as it was.
///
/// ```swift
/// let (store, description) = try DefaultKeychain.open(DefaultKeychainConfiguration(environment: [:]))
/// print(description)   // file vault …/default.vault (new): vault key wrapped by the device key file …
/// try store.add(Item(class: .genericPassword, attributes: [.service: "demo", .account: "me"], value: Data("s".utf8)),
///               authenticationContext: nil)
/// ```
public enum DefaultKeychain {
    /// Decides which store `configuration` gives, without creating or changing any file.
    public static func resolve(_ configuration: DefaultKeychainConfiguration) throws(KeychainStoreError) -> KeychainStoreDescription {
        let url = configuration.vaultURL
        func describe(_ store: KeychainStoreChoice, _ reason: String, isNew: Bool) -> KeychainStoreDescription {
            KeychainStoreDescription(store: store, vaultURL: store == .memory ? nil : url,
                                     deviceKeyURL: store == .file ? configuration.deviceKeyURL : nil,
                                     isNewVault: store == .memory ? false : isNew, reason: reason)
        }
        if configuration.choice == .memory { return describe(.memory, "LATCHKEY_KEYCHAIN=memory", isNew: false) }
        let existing = try existingProtections(url)
        let isNew = existing.isEmpty
        let keyringRunning = { configuration.isKeyringRunning() }
        switch configuration.choice {
        case .memory:
            return describe(.memory, "LATCHKEY_KEYCHAIN=memory", isNew: false)
        case .keyring:
            guard isNew || existing.contains(.keyring) else { throw KeychainStoreError(.authFailed, .protectedElsewhere(existing)) }
            guard keyringRunning() else { throw KeychainStoreError(.notAvailable, .keyringNotRunning) }
            return describe(.keyring, "LATCHKEY_KEYCHAIN=keyring", isNew: isNew)
        case .file:
            guard isNew || existing.contains(.deviceKey) else { throw KeychainStoreError(.authFailed, .protectedElsewhere(existing)) }
            return describe(.file, "LATCHKEY_KEYCHAIN=file", isNew: isNew)
        case .passphrase:
            guard isNew || existing.contains(.passphrase) else { throw KeychainStoreError(.authFailed, .protectedElsewhere(existing)) }
            return describe(.passphrase, "LATCHKEY_KEYCHAIN=passphrase", isNew: isNew)
        case .automatic:
            if isNew {
                return keyringRunning()
                    ? describe(.keyring, "a login keyring runs and the vault is new", isNew: true)
                    : describe(.file, "no login keyring runs (no Secret Service on a session bus) and the vault is new", isNew: true)
            }
            if existing.contains(.keyring), keyringRunning() {
                return describe(.keyring, "the vault is protected by the login keyring, which runs", isNew: false)
            }
            if existing.contains(.deviceKey) {
                return describe(.file, "the vault is protected by the device key file", isNew: false)
            }
            if existing.contains(.passphrase) {
                return describe(.passphrase, "the vault is protected by a passphrase", isNew: false)
            }
            throw KeychainStoreError(.notAvailable, .protectedElsewhere(existing))
        }
    }

    /// Resolves and opens the store (unlocked, except a `passphrase` vault), and logs the choice once
    /// through ``LatchkeyLog`` (category `keychain`).
    public static func open(_ configuration: DefaultKeychainConfiguration)
        throws(KeychainStoreError) -> (store: any ItemStore, description: KeychainStoreDescription) {
        let description: KeychainStoreDescription
        do {
            description = try resolve(configuration)
        } catch {
            LatchkeyLog.log(.error, category: "keychain", "no default store: \(error.localizedDescription)")
            throw error
        }
        let store: any ItemStore
        let group = configuration.defaultAccessGroup
        switch description.store {
        case .memory, .automatic:
            store = MemoryStore(defaultAccessGroup: group)
        case .keyring:
            guard let provider = CachedOSKeyProvider.platformDefault() as? any VaultKeyProvider else {
                throw KeychainStoreError(.notAvailable, .keyringNotRunning)
            }
            let vault = try FileVault(url: configuration.vaultURL, keyProvider: provider, defaultAccessGroup: group)
            try vault.unlock()
            store = vault
        case .file:
            let provider = DeviceKeyFileProvider(url: configuration.deviceKeyURL)
            let vault = try FileVault(url: configuration.vaultURL, keyProvider: provider, defaultAccessGroup: group)
            try vault.unlock()
            store = vault
        case .passphrase:
            store = try FileVault(url: configuration.vaultURL, defaultAccessGroup: group)
        }
        LatchkeyLog.log(.notice, category: "keychain", "default store: \(description)")
        return (store, description)
    }

    /// The protections of the vault at `url`; empty when it does not exist, is empty, or was never unlocked.
    /// Only reads the file (a damaged one throws errSecDecode and is left as it is).
    static func existingProtections(_ url: URL) throws(KeychainStoreError) -> [VaultProtection] {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber,
              size.intValue > 0 else { return [] }
        let vault = try FileVault(url: url)
        return vault.protections
    }
}
