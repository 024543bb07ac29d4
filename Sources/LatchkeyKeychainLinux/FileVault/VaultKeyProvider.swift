import Foundation
import LatchkeyKeychainCore
import LatchkeySupport
import LatchkeyCrypto

/// A source of the key that wraps a vault's key, kept outside the vault file (the kernel keyring, the
/// Secret Service, a TPM...). Implementations live in `OSKeyProvider/`.
public protocol VaultKeyProvider: Sendable {
    /// A short name for messages and `latchkey keychain` output (never a secret).
    var name: String { get }
    /// How the wrapping this provider makes is protected; it names the vault's meta row (`wrap.<slot>`),
    /// so a vault records which kind of key opens it. Default: ``VaultProtection/keyring``.
    var protection: VaultProtection { get }
    /// The 32-byte wrapping key for the vault `vaultID`. When none exists: with `create` true, makes,
    /// stores and returns a new random one; with `create` false, returns nil.
    func wrappingKey(for vaultID: Data, create: Bool) throws(KeychainStoreError) -> SymmetricKey?
    /// Forgets the wrapping key of `vaultID` (after the vault is deleted or re-keyed).
    func deleteWrappingKey(for vaultID: Data) throws(KeychainStoreError)
}

extension VaultKeyProvider {
    /// OS key stores (login keyring, kernel keyring) by default.
    public var protection: VaultProtection { .keyring }
}

/// A provider that keeps wrapping keys in process memory: for tests, and for a vault that should be
/// readable only while this process lives.
public final class InMemoryVaultKeyProvider: VaultKeyProvider {
    private let keys = Locked<[Data: SymmetricKey]>([:])
    /// Creates an empty provider.
    public init() {}
    public var name: String { "memory" }
    public func wrappingKey(for vaultID: Data, create: Bool) throws(KeychainStoreError) -> SymmetricKey? {
        keys.withLock { keys in
            if let k = keys[vaultID] { return k }
            guard create else { return nil }
            let k = SymmetricKey(size: .bits256)
            keys[vaultID] = k
            return k
        }
    }
    public func deleteWrappingKey(for vaultID: Data) throws(KeychainStoreError) {
        keys.withLock { _ = $0.removeValue(forKey: vaultID) }
    }
}
