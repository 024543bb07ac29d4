import Foundation
import LatchkeyAuth
import LatchkeyKeychain
import Synchronization

extension Keychain {
    /// A keychain for `service` in the platform's default store (``defaultStore``).
    /// - Parameter service: defaults to the main bundle's identifier, else the executable's name.
    public init(service: String = Keychain.defaultServiceName, accessGroup: String? = nil) {
        self.init(service: service, accessGroup: accessGroup, store: Keychain.defaultStore)
    }

    /// The main bundle identifier, or the executable name when there is none (Linux command-line tools).
    public static var defaultServiceName: String {
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    /// The process-wide default store: on Apple platforms the system keychain (`AppleKeychainStore`); on
    /// Linux the `FileVault` at `VaultFile.defaultURL()` (`$XDG_DATA_HOME/latchkey/default.vault`), its key
    /// wrapped by the login keyring (Secret Service, cached in the kernel keyring) and unlocked on first use.
    /// Without a Secret Service the vault stays locked (errSecInteractionNotAllowed) until the app unlocks it
    /// with a passphrase: open your own `FileVault` and pass it as `store:` for that.
    public static var defaultStore: any ItemStore { DefaultStore.shared }
}

/// Opens the platform's default store on first use and keeps it for the life of the process.
final class DefaultStore: ItemStore {
    static let shared = DefaultStore()

    private let opened = Mutex<Result<any ItemStore, KeychainStoreError>?>(nil)

    private func store() throws(KeychainStoreError) -> any ItemStore {
        let result = opened.withLock { state -> Result<any ItemStore, KeychainStoreError> in
            if let state, case .success = state { return state }
            let fresh = Self.open()
            state = fresh
            return fresh
        }
        return try result.get()
    }

    private static func open() -> Result<any ItemStore, KeychainStoreError> {
        #if canImport(Security) && canImport(Darwin)
        return .success(AppleKeychainStore())
        #else
        do throws(KeychainStoreError) {
            let provider = CachedOSKeyProvider.platformDefault().flatMap { $0.isAvailable ? $0 : nil }
            let vault = try FileVault(url: VaultFile.defaultURL(), keyProvider: provider as? any VaultKeyProvider)
            if vault.keyProvider != nil { try vault.unlock() }
            return .success(vault)
        } catch {
            return .failure(error)
        }
        #endif
    }

    func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) {
        try store().add(item, authenticationContext: authenticationContext)
    }

    func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] {
        try store().copyMatching(query)
    }

    func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError) {
        try store().update(query, with: changes)
    }

    func delete(_ query: ItemQuery) throws(KeychainStoreError) {
        try store().delete(query)
    }
}
