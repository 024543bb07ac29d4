#if os(Linux)
import Foundation
import LatchkeyAuth
import LatchkeyCrypto
import LatchkeyKeychain

/// Linux-only settings of the `Security` facade (no Apple counterpart).
///
/// The `SecItem…` functions act on `store`. By default that is a `FileVault` at `LATCHKEY_KEYCHAIN_PATH`
/// (or `VaultFile.defaultURL()`), unlocked with the platform's OS key provider (Secret Service cached in
/// the kernel keyring); a new vault gets a random vault key wrapped by that provider. When no OS key
/// provider exists or the vault cannot be opened, `SecItem…` answer errSecNotAvailable.
/// Items added without `kSecAttrAccessGroup` get `LATCHKEY_APPLICATION_IDENTIFIER` as their access group
/// (the stand-in for the bundle identifier / application-identifier entitlement); without it, the process name.
public enum LatchkeySecurityConfiguration {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var current: (any ItemStore)?  // guarded by `lock`

    /// The store the `SecItem…` functions use. Set it (e.g. to `MemoryStore()` or a temp `FileVault`)
    /// before the first call, typically in a test's `setUp`.
    public static var store: any ItemStore {
        get {
            lock.lock()
            defer { lock.unlock() }
            if let current { return current }
            let made = makeDefaultStore()
            current = made
            return made
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            current = newValue
        }
    }

    /// The default store described above.
    public static func makeDefaultStore(environment: [String: String] = ProcessInfo.processInfo.environment) -> any ItemStore {
        let url = environment["LATCHKEY_KEYCHAIN_PATH"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? VaultFile.defaultURL(environment: environment)
        let group = environment["LATCHKEY_APPLICATION_IDENTIFIER"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ProcessInfo.processInfo.processName
        guard let os = CachedOSKeyProvider.platformDefault() else { return UnavailableStore() }
        do {
            let vault = try FileVault(url: url, keyProvider: OSVaultKeyProvider(os: os), defaultAccessGroup: group)
            try vault.unlock()
            return vault
        } catch {
            return UnavailableStore()
        }
    }
}

/// Adapts an `OSKeyProvider` to the vault's key-provider protocol (the methods exist on every OS provider).
struct OSVaultKeyProvider: VaultKeyProvider {
    let os: any OSKeyProvider
    var name: String { os.name }
    func wrappingKey(for vaultID: Data, create: Bool) throws(KeychainStoreError) -> SymmetricKey? {
        try os.wrappingKey(for: vaultID, create: create)
    }
    func deleteWrappingKey(for vaultID: Data) throws(KeychainStoreError) {
        try os.deleteWrappingKey(for: vaultID)
    }
}

/// The store used when no keychain can be opened: every operation answers errSecNotAvailable.
struct UnavailableStore: ItemStore {
    func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) {
        throw KeychainStoreError(.notAvailable)
    }
    func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] { throw KeychainStoreError(.notAvailable) }
    func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError) {
        throw KeychainStoreError(.notAvailable)
    }
    func delete(_ query: ItemQuery) throws(KeychainStoreError) { throw KeychainStoreError(.notAvailable) }
}
#endif
