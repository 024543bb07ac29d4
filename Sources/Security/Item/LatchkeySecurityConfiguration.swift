#if os(Linux)
import Foundation
import LatchkeyAuthCore
import LatchkeyAuthLinux
import LatchkeySupport
import LatchkeyKeychainCore
import LatchkeyKeychainLinux

/// Linux-only settings of the `Security` facade (no Apple counterpart).
///
/// The `SecItem…` functions act on `store`. By default that is the store `DefaultKeychain` chooses from
/// the environment (`LATCHKEY_KEYCHAIN`, `LATCHKEY_KEYCHAIN_PATH`): a `FileVault` protected by the login
/// keyring where one runs, otherwise by the per-user device key file — so code written against Apple's
/// keychain works with no setup on CI runners and containers. The choice is logged once through
/// `LatchkeyLog` and readable as `defaultStoreDescription`. When no store can be opened, `SecItem…`
/// answer with the reason's status (errSecNotAvailable, or errSecAuthFailed for a vault only another
/// protection opens).
/// Items added without `kSecAttrAccessGroup` get the application identifier as their access group (the stand-in
/// for the application-identifier entitlement, see `ApplicationIdentity`): `LATCHKEY_APPLICATION_IDENTIFIER`, else
/// the `CFBundleIdentifier` of an `Info.plist` beside the executable (which is also `Bundle.main.bundleIdentifier`),
/// else the process name.
public enum LatchkeySecurityConfiguration {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var current: (any ItemStore)?  // guarded by `lock`
    nonisolated(unsafe) private static var opened: Result<KeychainStoreDescription, KeychainStoreError>?  // guarded by `lock`

    /// The store the `SecItem…` functions use. Set it (e.g. to `MemoryStore()` or a temp `FileVault`)
    /// before the first call, typically in a test's `setUp`.
    /// On a thread with a `threadStore`, that store.
    public static var store: any ItemStore {
        get {
            if let threadStore { return threadStore }
            lock.lock()
            defer { lock.unlock() }
            if let current { return current }
            let result = openDefaultStore()
            opened = result.map(\.description)
            let made: any ItemStore = (try? result.get().store) ?? UnavailableStore(error: result.failure)
            current = made
            return made
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            current = newValue
            opened = nil
        }
    }

    /// A store for the calling thread only, used instead of `store` by the `SecItem…` calls made on this thread; nil
    /// (the default) leaves `store` in charge. For tests that run on threads of their own beside other tests of the
    /// same process, which keep using the process-wide store.
    public static var threadStore: (any ItemStore)? {
        get { (Thread.current.threadDictionary[threadStoreKey] as? StoreBox)?.store }
        set { Thread.current.threadDictionary[threadStoreKey] = newValue.map(StoreBox.init) }
    }

    private static let threadStoreKey = "dev.latchkey.security.thread-store"

    /// Holds a store in a thread dictionary.
    private final class StoreBox: NSObject {
        let store: any ItemStore
        init(_ store: any ItemStore) { self.store = store }
    }

    /// Answer `kSecUseDataProtectionKeychain` queries with errSecMissingEntitlement (-34018), as macOS does for a
    /// process without a keychain-access-groups entitlement (an unsigned command-line tool, `swift test`). Off by
    /// default; tests of code that must fall back to the file-based keychain turn it on.
    public static var dataProtectionKeychainNeedsEntitlement: Bool {
        get { lock.lock(); defer { lock.unlock() }; return needsEntitlement }
        set { lock.lock(); defer { lock.unlock() }; needsEntitlement = newValue }
    }
    nonisolated(unsafe) private static var needsEntitlement = false  // guarded by `lock`

    /// Which default store `store` opened and how its key is protected; nil before first use or when
    /// `store` was set in code. Throws the reason when no default store could be opened.
    public static func defaultStoreDescription() throws(KeychainStoreError) -> KeychainStoreDescription? {
        lock.lock()
        defer { lock.unlock() }
        return try opened?.get()
    }

    /// The application identifier the default store gives items added without an access group, and where it came
    /// from (`LATCHKEY_APPLICATION_IDENTIFIER`, the `Info.plist` beside the executable, or the process name).
    public static var applicationIdentity: ApplicationIdentity { ApplicationIdentity.current() }

    /// Unlocks the default store when it is a passphrase vault (`LATCHKEY_KEYCHAIN=passphrase`, or an
    /// existing vault protected only by a passphrase). A wrong passphrase throws errSecAuthFailed.
    public static func unlock(passphrase: String) throws(KeychainStoreError) {
        guard let vault = store as? FileVault else { throw KeychainStoreError(.param) }
        try vault.unlock(passphrase: passphrase)
    }

    /// The default store described above, for `environment` (the process's by default).
    public static func makeDefaultStore(environment: [String: String] = ProcessInfo.processInfo.environment) -> any ItemStore {
        let result = openDefaultStore(environment: environment)
        return (try? result.get().store) ?? UnavailableStore(error: result.failure)
    }

    private static func openDefaultStore(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Result<(store: any ItemStore, description: KeychainStoreDescription), KeychainStoreError> {
        let group = ApplicationIdentity.current(environment: environment).identifier
        do throws(KeychainStoreError) {
            let configuration = try DefaultKeychainConfiguration(environment: environment, defaultAccessGroup: group)
            return .success(try DefaultKeychain.open(configuration))
        } catch {
            return .failure(error)
        }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// The store used when no keychain can be opened: every operation throws why (errSecNotAvailable when
/// the reason is unknown).
struct UnavailableStore: ItemStore {
    let error: KeychainStoreError

    init(error: KeychainStoreError? = nil) {
        self.error = error ?? KeychainStoreError(.notAvailable)
    }

    func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) { throw error }
    func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] { throw error }
    func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError) { throw error }
    func delete(_ query: ItemQuery) throws(KeychainStoreError) { throw error }
}
#endif
