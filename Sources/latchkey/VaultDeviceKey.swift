import Foundation
import Latchkey
import LatchkeyCrypto

/// The vault app's stand-in for the key an iPhone keeps for its data-protection classes: a random 32-byte
/// key in a 0600 file next to the vault (`<vault>.device-key`). It plays the part of "the device is unlocked":
/// the app lock (Touch ID / password) sits on top of it, as an iOS app's lock screen sits on top of the
/// keychain. On a desktop with a keyring, `LATCHKEY_VAULT_DEVICE_KEY=secret-service` (or `kernel-keyring`)
/// keeps this key in the OS instead.
struct VaultDeviceKeyFile: VaultKeyProvider {
    let url: URL
    var name: String { "device-key-file" }

    func wrappingKey(for vaultID: Data, create: Bool) throws(KeychainStoreError) -> SymmetricKey? {
        if let data = FileManager.default.contents(atPath: url.path) {
            guard data.count == 32 else { throw KeychainStoreError(.decode) }
            return SymmetricKey(data: data)
        }
        guard create else { return nil }
        let key = SecureRandom.bytes(count: 32)
        let created = FileManager.default.createFile(atPath: url.path, contents: key,
                                                     attributes: [.posixPermissions: 0o600])
        guard created else { throw KeychainStoreError(.io) }
        return SymmetricKey(data: key)
    }

    func deleteWrappingKey(for vaultID: Data) throws(KeychainStoreError) {
        try? FileManager.default.removeItem(at: url)
    }
}
