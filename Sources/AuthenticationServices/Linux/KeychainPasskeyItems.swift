#if os(Linux)
import Foundation
import LatchkeyWebAuthn
import Security

/// Where the facade keeps platform passkeys: one generic-password item per passkey in the `Security` module's keychain
/// (service `org.latchkey.passkeys`, account `<rp id>/<credential id>`, the `SoftwareCredential` as JSON, readable only
/// while the keychain is unlocked and never synced) — the layout `Latchkey`'s `KeychainPasskeyStore` uses, so
/// `latchkey passkey` and ASAuthorization code on one machine see the same passkeys.
struct KeychainPasskeyItems: SoftwareCredentialStore {
    static let service = "org.latchkey.passkeys"

    /// A keychain call that did not succeed, with its status.
    struct Failure: Error {
        let status: OSStatus
        var message: String { SecCopyErrorMessageString(status, nil).map { String(describing: $0) } ?? "OSStatus \(status)" }
    }

    static func account(_ credential: SoftwareCredential) -> String {
        credential.relyingPartyID + "/" + credential.id.base64URLEncodedString()
    }

    func save(_ credential: SoftwareCredential) throws {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrService as String: Self.service,
                                    kSecAttrAccount as String: Self.account(credential)]
        let data = try JSONEncoder().encode(credential)
        var status = SecItemUpdate(query as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        if status == errSecItemNotFound {
            var item = query
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            item[kSecAttrLabel as String] = "Passkey for \(credential.relyingPartyID)"
            status = SecItemAdd(item as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw Failure(status: status) }
    }

    func credentials(forRelyingParty rpID: String) throws -> [SoftwareCredential] {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrService as String: Self.service,
                                    kSecMatchLimit as String: kSecMatchLimitAll,
                                    kSecReturnAttributes as String: true,
                                    kSecReturnData as String: true]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let items = result as? [[String: Any]] else { throw Failure(status: status) }
        return items.compactMap { item -> SoftwareCredential? in
            guard let account = item[kSecAttrAccount as String] as? String, account.hasPrefix(rpID + "/"),
                  let data = item[kSecValueData as String] as? Data else { return nil }
            return try? JSONDecoder().decode(SoftwareCredential.self, from: data)
        }
    }
}
#endif
