import Foundation
import LatchkeyKeychainCore

/// Which store the default keychain uses: `LATCHKEY_KEYCHAIN=keyring|file|memory|passphrase`, or the same
/// in code (``DefaultKeychainConfiguration/choice``). Unset: ``automatic``.
public enum KeychainStoreChoice: String, Sendable, Hashable, CaseIterable {
    /// The login keyring where one runs, otherwise a vault protected by the device key file. An existing
    /// vault keeps the protection it has.
    case automatic = "auto"
    /// A vault whose key is kept by the login keyring (Secret Service, cached in the kernel keyring).
    case keyring
    /// A vault whose key is wrapped by the per-user device key file (`DeviceKeyFileProvider`).
    case file
    /// Process memory only: nothing is written, everything is gone when the process ends.
    case memory
    /// A vault that stays locked until the app unlocks it with a passphrase.
    case passphrase

    /// Parses `LATCHKEY_KEYCHAIN` (case-insensitive; empty means automatic).
    public init(setting: String?) throws(KeychainStoreError) {
        let value = (setting ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        if value.isEmpty || value == "automatic" {
            self = .automatic
            return
        }
        guard let choice = KeychainStoreChoice(rawValue: value) else {
            throw KeychainStoreError(.param, .unknownStoreChoice(setting ?? ""))
        }
        self = choice
    }
}
