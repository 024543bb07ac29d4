import Foundation
import LatchkeyKeychainCore

/// Everything the default keychain depends on, read once from the environment (or set in code).
///
/// | Variable | Meaning | Default |
/// |---|---|---|
/// | `LATCHKEY_KEYCHAIN` | `keyring`, `file`, `memory` or `passphrase` | automatic |
/// | `LATCHKEY_KEYCHAIN_PATH` | the vault file | `$XDG_DATA_HOME/latchkey/default.vault` |
/// | `LATCHKEY_DEVICE_KEY_PATH` | the device key file | `device.key` next to the default vault |
/// | `DBUS_SESSION_BUS_ADDRESS` | where the login keyring is looked for | none: no keyring |
public struct DefaultKeychainConfiguration: Sendable {
    /// Which store to use.
    public var choice: KeychainStoreChoice
    /// The vault file (for every choice but `memory`).
    public var vaultURL: URL
    /// The device key file (for `file`, and `automatic` without a keyring).
    public var deviceKeyURL: URL
    /// The access group given to items added without one.
    public var defaultAccessGroup: String?
    /// Whether a login keyring (Secret Service) answers; asked at most once per `resolve`.
    public var isKeyringRunning: @Sendable () -> Bool

    /// A configuration with every value given.
    public init(choice: KeychainStoreChoice = .automatic, vaultURL: URL = VaultFile.defaultURL(),
                deviceKeyURL: URL = DeviceKeyFileProvider.defaultURL(), defaultAccessGroup: String? = nil,
                isKeyringRunning: @escaping @Sendable () -> Bool = DefaultKeychainConfiguration.keyringProbe()) {
        self.choice = choice
        self.vaultURL = vaultURL
        self.deviceKeyURL = deviceKeyURL
        self.defaultAccessGroup = defaultAccessGroup
        self.isKeyringRunning = isKeyringRunning
    }

    /// The configuration the variables above describe. An unknown `LATCHKEY_KEYCHAIN` throws errSecParam
    /// (`.unknownStoreChoice`).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                defaultAccessGroup: String? = nil) throws(KeychainStoreError) {
        let vault = environment["LATCHKEY_KEYCHAIN_PATH"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? VaultFile.defaultURL(environment: environment)
        self.init(choice: try KeychainStoreChoice(setting: environment["LATCHKEY_KEYCHAIN"]),
                  vaultURL: vault,
                  deviceKeyURL: DeviceKeyFileProvider.defaultURL(environment: environment),
                  defaultAccessGroup: defaultAccessGroup,
                  isKeyringRunning: Self.keyringProbe(environment: environment))
    }

    /// Asks the session bus whether a Secret Service daemon runs — false without a session bus in
    /// `environment` (the bus is never autolaunched and no daemon is activated).
    public static func keyringProbe(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> @Sendable () -> Bool {
        let hasBus = (environment["DBUS_SESSION_BUS_ADDRESS"].map { !$0.isEmpty } ?? false)
            || (environment["XDG_RUNTIME_DIR"].map { !$0.isEmpty && FileManager.default.fileExists(atPath: $0 + "/bus") } ?? false)
        return {
            guard hasBus else { return false }
            return OSKeyProviders.secretService() != nil
        }
    }
}
