#if LATCHKEY_APPLE_FRAMEWORKS
import Foundation
import LatchkeyAuth
import LatchkeyKeychainCore
import LocalAuthentication
import Security

#if !os(tvOS)  // LAContext is unavailable on tvOS (LAContext.h: API_UNAVAILABLE(tvos))
/// An authentication context backed by an `LAContext`, which Keychain Services takes as
/// `kSecUseAuthenticationContext` (LatchkeyAuth's `AppleAuthenticationContext` conforms).
public protocol LAContextBacked {
    /// The underlying LocalAuthentication context.
    var laContext: LAContext { get }
}
#endif

#if !os(watchOS) && !os(tvOS)
extension AppleAuthenticationContext: LAContextBacked {}
#endif

/// Keychain Services itself (`SecItemAdd` / `SecItemCopyMatching` / `SecItemUpdate` / `SecItemDelete`).
/// Every translation happens in `QueryDictionary` (portable, tested on Linux); this type only swaps in
/// `SecAccessControl` and `LAContext` objects and calls the system, on the keychain `AppleKeychainAccess` chooses
/// (the data-protection keychain; the file-based one for macOS processes without the entitlement). The system
/// prompts and enforces access control itself.
///
/// A query with an evaluated context (`ItemQuery.authenticationContext`, an `AppleAuthenticationContext`) passes its
/// `LAContext`, so the system opens the item without prompting again; `authenticationUI == .fail` passes a context
/// with `interactionNotAllowed` (Apple's replacement of the deprecated `kSecUseAuthenticationUI`).
public struct AppleKeychainStore: ItemStore {
    /// Creates a store over the system keychain.
    public init() {}

    public func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) {
        let d = try prepare(QueryDictionary.addDictionary(item, authenticationContext: authenticationContext),
                            interactive: true)
        try check(AppleKeychainAccess.perform(d) { SecItemAdd($0 as CFDictionary, nil) })
    }

    public func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] {
        try query.validate()
        let d = try prepare(QueryDictionary.queryDictionary(query), interactive: query.authenticationUI == .allow)
        var result: CFTypeRef?
        try check(AppleKeychainAccess.perform(d) { SecItemCopyMatching($0 as CFDictionary, &result) })
        return try QueryDictionary.results(from: result, for: query)
    }

    public func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError) {
        try query.validate()
        let q = try prepare(QueryDictionary.queryDictionary(query, forSearchOnly: true),
                            interactive: query.authenticationUI == .allow)
        let c = try prepare(QueryDictionary.changesDictionary(changes), interactive: true)
        try check(AppleKeychainAccess.perform(q) { SecItemUpdate($0 as CFDictionary, c as CFDictionary) })
    }

    public func delete(_ query: ItemQuery) throws(KeychainStoreError) {
        try query.validate()
        let d = try prepare(QueryDictionary.queryDictionary(query, forSearchOnly: true), interactive: true)
        try check(AppleKeychainAccess.perform(d) { SecItemDelete($0 as CFDictionary) })
    }

    /// Replaces the model's access control and context with the system's objects: a `SecAccessControl`, the
    /// evaluated context's `LAContext`, and — for a non-interactive query without one — a fresh `LAContext` with
    /// `interactionNotAllowed` (on tvOS, which has no `LAContext`, the context is left out).
    package func prepare(_ dictionary: [String: Any], interactive: Bool) throws(KeychainStoreError) -> [String: Any] {
        var d = dictionary
        d.removeValue(forKey: QueryKeys.useAuthenticationUI)
        if let ac = d[QueryKeys.accessControl] as? AccessControl {
            var error: Unmanaged<CFError>?
            guard let sac = SecAccessControlCreateWithFlags(nil, ac.accessibility.rawValue as CFString,
                                                            SecAccessControlCreateFlags(rawValue: CFOptionFlags(ac.flags.rawValue)),
                                                            &error) else {
                error?.release()
                throw KeychainStoreError(.param, .unsupportedAccessControl)
            }
            d[QueryKeys.accessControl] = sac
            d.removeValue(forKey: QueryKeys.accessible)  // mutually exclusive with kSecAttrAccessControl
        }
        #if os(tvOS)
        // No LAContext on tvOS, and no prompt either: items with access control cannot be opened there.
        d.removeValue(forKey: QueryKeys.useAuthenticationContext)
        #else
        let context = d.removeValue(forKey: QueryKeys.useAuthenticationContext)
        if let backed = context as? any LAContextBacked {
            d[QueryKeys.useAuthenticationContext] = backed.laContext
        } else if !interactive {
            let silent = LAContext()
            silent.interactionNotAllowed = true
            d[QueryKeys.useAuthenticationContext] = silent
        }
        #endif
        return d
    }

    private func check(_ status: OSStatus) throws(KeychainStoreError) {
        guard status != errSecSuccess else { return }
        throw KeychainStoreError(KeychainStatus(status))
    }
}
#endif
