#if os(Linux)
import Foundation
import Security

/// A password the user saved for a website, as the password request offers it.
struct SavedPassword: Sendable, CustomStringConvertible {
    var user: String
    var password: String
    var domain: String

    /// Never the password.
    var description: String { "SavedPassword(user: \(user), domain: \(domain))" }
}

/// Where the facade finds saved passwords: internet-password items of the `Security` module's keychain whose server
/// (`kSecAttrServer`) is one of the app's `webcredentials:` domains — how Safari's AutoFill and shared web credentials
/// keep them (any protocol and authentication type). The newest of the first domain that has one is offered.
struct KeychainSavedPasswords {
    func newest(forDomains domains: [String]) throws(KeychainPasskeyItems.Failure) -> SavedPassword? {
        for domain in domains {
            let query: [String: Any] = [kSecClass as String: kSecClassInternetPassword,
                                        kSecAttrServer as String: domain,
                                        kSecMatchLimit as String: kSecMatchLimitAll,
                                        kSecReturnAttributes as String: true,
                                        kSecReturnData as String: true]
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { continue }
            guard status == errSecSuccess, let items = result as? [[String: Any]] else {
                throw KeychainPasskeyItems.Failure(status: status)
            }
            let saved = items.compactMap { item -> (SavedPassword, Date)? in
                guard let user = item[kSecAttrAccount as String] as? String,
                      let data = item[kSecValueData as String] as? Data,
                      let password = String(data: data, encoding: .utf8) else { return nil }
                let modified = item[kSecAttrModificationDate as String] as? Date ?? .distantPast
                return (SavedPassword(user: user, password: password, domain: domain), modified)
            }
            if let newest = saved.max(by: { $0.1 < $1.1 }) { return newest.0 }
        }
        return nil
    }
}

/// The "device" remembering that its Apple ID signed in to this app: a generic-password item of the app's keychain
/// (service `org.latchkey.apple-id`), written when an Apple ID request succeeds. The existing-account flow offers Sign in
/// with Apple only to an app this Apple ID already uses (and only while the authority says the credential is
/// authorized), as a device does.
struct KeychainAppleIDRecord {
    static let service = "org.latchkey.apple-id"
    static let account = "user"

    func save(user: String) {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: Self.service,
                                    kSecAttrAccount as String: Self.account]
        let data = Data(user.utf8)
        if SecItemUpdate(query as CFDictionary, [kSecValueData as String: data] as CFDictionary) == errSecItemNotFound {
            var item = query
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            SecItemAdd(item as CFDictionary, nil)
        }
    }

    /// The user identifier of this app's earlier Sign in with Apple, if any.
    func user() -> String? {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: Self.service,
                                    kSecAttrAccount as String: Self.account, kSecReturnData as String: true]
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, let data = result as? Data else {
            return nil
        }
        return String(data: data, encoding: .utf8)
    }
}
#endif
