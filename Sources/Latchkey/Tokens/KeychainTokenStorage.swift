import Foundation
import LatchkeyKeychain

/// Keeps the token set in the keychain as one generic-password item (`account` = `key`), readable
/// `whenUnlockedThisDeviceOnly` by default or `afterFirstUnlockThisDeviceOnly` for background refresh.
public struct KeychainTokenStorage: TokenStorage {
    /// The keychain holding the item.
    public let keychain: Keychain
    /// The item's key (account).
    public let key: String
    /// When the item can be read.
    public let accessibility: TokenAccessibility

    /// Token storage in `keychain` under `key`.
    public init(keychain: Keychain, key: String = "auth-tokens",
                accessibility: TokenAccessibility = .whenUnlockedThisDeviceOnly) {
        self.keychain = keychain
        self.key = key
        self.accessibility = accessibility
    }

    /// Token storage for `service` in `store`.
    public init(service: String, store: any ItemStore, key: String = "auth-tokens",
                accessibility: TokenAccessibility = .whenUnlockedThisDeviceOnly) {
        self.init(keychain: Keychain(service: service, store: store), key: key, accessibility: accessibility)
    }

    private var itemAccessibility: Accessibility {
        switch accessibility {
        case .whenUnlockedThisDeviceOnly: .whenUnlockedThisDeviceOnly
        case .afterFirstUnlockThisDeviceOnly: .afterFirstUnlockThisDeviceOnly
        }
    }

    public func load() throws(TokenManagerError) -> Data? {
        do { return try keychain.data(forKey: key) } catch { throw Self.storageError(error) }
    }

    public func save(_ data: Data) throws(TokenManagerError) {
        do {
            try keychain.accessibility(itemAccessibility).label("OAuth tokens").set(data, forKey: key)
        } catch {
            throw Self.storageError(error)
        }
    }

    public func delete() throws(TokenManagerError) {
        do { try keychain.remove(key) } catch .itemNotFound { return } catch { throw Self.storageError(error) }
    }

    private static func storageError(_ error: KeychainError) -> TokenManagerError {
        .storage("OSStatus \(error.status)")
    }
}
