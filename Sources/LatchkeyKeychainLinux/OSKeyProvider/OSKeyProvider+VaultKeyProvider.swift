import Foundation
import LatchkeyKeychainCore
import LatchkeyCrypto

/// Every OS key provider can wrap a ``FileVault``'s key: the wrapping key of vault `vaultID` is stored
/// under the hex form of the id.
extension OSKeyProvider {
    /// The 32-byte wrapping key of `vaultID`, created when missing and `create` is true.
    public func wrappingKey(for vaultID: Data, create: Bool) throws(KeychainStoreError) -> SymmetricKey? {
        let id = Self.identifier(vaultID)
        do {
            var bytes: Data
            if let stored = try loadKey(id: id) {
                bytes = stored
            } else if create {
                bytes = try loadOrCreateKey(id: id)
            } else {
                return nil
            }
            defer { bytes.resetBytes(in: 0..<bytes.count) }
            guard bytes.count == 32 else { throw OSKeyProviderError.invalidKey(provider: name) }
            return SymmetricKey(data: bytes)
        } catch {
            throw Self.map(error)
        }
    }

    /// Forgets the wrapping key of `vaultID`.
    public func deleteWrappingKey(for vaultID: Data) throws(KeychainStoreError) {
        do {
            try deleteKey(id: Self.identifier(vaultID))
        } catch {
            throw Self.map(error)
        }
    }

    static func identifier(_ vaultID: Data) -> String {
        vaultID.map { String(format: "%02x", $0) }.joined()
    }

    static func map(_ error: any Error) -> KeychainStoreError {
        switch error as? OSKeyProviderError {
        case .interactionNotAllowed?: KeychainStoreError(.interactionNotAllowed, .locked)
        case .invalidKey?: KeychainStoreError(.decode, .noVaultKey)
        case .systemError(_, _, let code)?: KeychainStoreError(.notAvailable, .system(errno: code))
        case .unavailable?, nil: KeychainStoreError(.notAvailable, .noVaultKey)
        }
    }
}

extension CachedOSKeyProvider: VaultKeyProvider {}
#if canImport(CKeyutils)
extension KernelKeyringProvider: VaultKeyProvider {}
#endif
#if canImport(CSecret)
extension SecretServiceKeyProvider: VaultKeyProvider {}
#endif
