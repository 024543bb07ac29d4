import Foundation
import LatchkeyAuth
import LatchkeyKeychain
import LatchkeySupport

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
    /// Linux the store `DefaultKeychain` chooses from the environment (`LATCHKEY_KEYCHAIN`,
    /// `LATCHKEY_KEYCHAIN_PATH`): a `FileVault` at `$XDG_DATA_HOME/latchkey/default.vault` whose key is kept
    /// by the login keyring where one runs, and otherwise wrapped by the per-user device key file — it works
    /// with no setup on CI runners, containers and servers. Opened on first use; the choice is logged once
    /// through `LatchkeyLog` and readable as ``defaultStoreDescription()``.
    public static var defaultStore: any ItemStore { DefaultStore.shared }

    /// Which store ``defaultStore`` uses and how its key is protected (opening it if needed); nil on Apple
    /// platforms, where it is always the system keychain. Throws why when it cannot be opened.
    public static func defaultStoreDescription() throws(KeychainStoreError) -> KeychainStoreDescription? {
        try DefaultStore.shared.description()
    }
}

/// Opens the platform's default store on first use and keeps it for the life of the process.
final class DefaultStore: ItemStore {
    static let shared = DefaultStore()

    private let opened = Locked<Result<(store: any ItemStore, description: KeychainStoreDescription?), KeychainStoreError>?>(nil)

    private func open() throws(KeychainStoreError) -> (store: any ItemStore, description: KeychainStoreDescription?) {
        let result = opened.withLock { state in
            if let state, case .success = state { return state }
            let fresh = Self.open()
            state = fresh
            return fresh
        }
        return try result.get()
    }

    private func store() throws(KeychainStoreError) -> any ItemStore { try open().store }

    func description() throws(KeychainStoreError) -> KeychainStoreDescription? { try open().description }

    private static func open() -> Result<(store: any ItemStore, description: KeychainStoreDescription?), KeychainStoreError> {
        #if canImport(Security) && canImport(Darwin)
        return .success((AppleKeychainStore(), nil))
        #else
        do throws(KeychainStoreError) {
            let opened = try DefaultKeychain.open(try DefaultKeychainConfiguration())
            return .success((opened.store, opened.description))
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
