#if canImport(Security) && !os(Linux)
import Foundation
import LatchkeyAuth
import Security
#if canImport(LocalAuthentication)
import LocalAuthentication
#endif

/// An authentication context backed by an `LAContext`, which Keychain Services can take as
/// `kSecUseAuthenticationContext` (LatchkeyAuth's `AppleAuthenticationContext` conforms).
#if canImport(LocalAuthentication)
public protocol LAContextBacked {
    /// The underlying LocalAuthentication context.
    var laContext: LAContext { get }
}
#endif

/// Keychain Services itself (`SecItemAdd` / `SecItemCopyMatching` / `SecItemUpdate` / `SecItemDelete`).
/// Every translation happens in `QueryDictionary` (portable, tested on Linux); this type only swaps in
/// `SecAccessControl` and `LAContext` objects and calls the system. The system prompts and enforces
/// access control itself.
public struct AppleKeychainStore: ItemStore {
    /// Creates a store over the data-protection keychain.
    public init() {}

    public func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) {
        var d = QueryDictionary.addDictionary(item, authenticationContext: authenticationContext)
        try prepare(&d)
        try check(SecItemAdd(d as CFDictionary, nil))
    }

    public func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] {
        try query.validate()
        var d = QueryDictionary.queryDictionary(query)
        try prepare(&d)
        var result: CFTypeRef?
        try check(SecItemCopyMatching(d as CFDictionary, &result))
        return try QueryDictionary.results(from: result, for: query)
    }

    public func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError) {
        try query.validate()
        var q = QueryDictionary.queryDictionary(query, forSearchOnly: true)
        var c = QueryDictionary.changesDictionary(changes)
        try prepare(&q)
        try prepare(&c)
        try check(SecItemUpdate(q as CFDictionary, c as CFDictionary))
    }

    public func delete(_ query: ItemQuery) throws(KeychainStoreError) {
        try query.validate()
        var d = QueryDictionary.queryDictionary(query, forSearchOnly: true)
        try prepare(&d)
        try check(SecItemDelete(d as CFDictionary))
    }

    /// Uses the data-protection keychain and replaces the model's access control and context with
    /// the system's objects.
    private func prepare(_ d: inout [String: Any]) throws(KeychainStoreError) {
        d[kSecUseDataProtectionKeychain as String] = true
        if let ac = d[QueryKeys.accessControl] as? AccessControl {
            var error: Unmanaged<CFError>?
            guard let sac = SecAccessControlCreateWithFlags(nil, ac.accessibility.rawValue as CFString,
                                                            SecAccessControlCreateFlags(rawValue: CFOptionFlags(ac.flags.rawValue)),
                                                            &error) else {
                error?.release()
                throw KeychainStoreError(.param, .unsupportedAccessControl)
            }
            d[QueryKeys.accessControl] = sac
        }
        if let ctx = d[QueryKeys.useAuthenticationContext] {
            #if canImport(LocalAuthentication)
            if let backed = ctx as? any LAContextBacked {
                d[QueryKeys.useAuthenticationContext] = backed.laContext
                return
            }
            #endif
            d.removeValue(forKey: QueryKeys.useAuthenticationContext)
        }
    }

    private func check(_ status: OSStatus) throws(KeychainStoreError) {
        guard status != errSecSuccess else { return }
        throw KeychainStoreError(KeychainStatus(status))
    }
}
#endif
