import Foundation
import LatchkeyWebAuthn

/// Keeps the software authenticator's passkeys in the keychain, one item per credential
/// (`whenUnlockedThisDeviceOnly`: a passkey made here never leaves this machine in a backup).
public struct KeychainPasskeyStore: SoftwareCredentialStore {
    let keychain: Keychain

    public init(keychain: Keychain) {
        self.keychain = keychain.accessibility(.whenUnlockedThisDeviceOnly)
    }

    /// Passkeys in `store` under the service `org.latchkey.passkeys`.
    public init(store: any ItemStore, service: String = "org.latchkey.passkeys") {
        self.init(keychain: Keychain(service: service, store: store))
    }

    static func key(_ credential: SoftwareCredential) -> String {
        credential.relyingPartyID + "/" + credential.id.base64URLEncodedString()
    }

    public func save(_ credential: SoftwareCredential) throws {
        try keychain.set(credential, forKey: Self.key(credential))
    }

    public func credentials(forRelyingParty rpID: String) throws -> [SoftwareCredential] {
        try keychain.allKeys().filter { $0.hasPrefix(rpID + "/") }.compactMap {
            try keychain.value(SoftwareCredential.self, forKey: $0)
        }
    }

    /// Deletes one passkey.
    public func remove(_ credential: SoftwareCredential) throws {
        try keychain.remove(Self.key(credential))
    }
}
