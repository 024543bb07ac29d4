#if os(Linux)
import Foundation
import LatchkeyKeychainCore
import LatchkeyKeychainLinux

// Keychain Services item functions with Apple's Swift signatures. Each one bridges the `CFDictionary`
// to `[String: Any]`, lets `QueryDictionary` translate it, calls the configured `ItemStore`, and
// bridges the result back; errors become their `OSStatus`.

/// `SecItemAdd`: adds an item; `result` (when given and a return key is set) receives the new item.
@available(macOS 10.6, *)
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecurityBridge.status { () throws(KeychainStoreError) in
        let dictionary = try SecurityBridge.swiftDictionary(attributes, forAdd: true)
        let request = try QueryDictionary.addRequest(dictionary)
        let store = LatchkeySecurityConfiguration.store
        // An item with a constraint is sealed to its domains' keys, which a context hands out without asking
        // (Apple adds such items without a prompt): without one in the query, a new context of the configured backend.
        let sealing = request.item.attributes.accessControl?.requiresAuthentication == true
        let addContext = sealing ? SecItemPrompt.context(request.authenticationContext) : request.authenticationContext
        do throws(KeychainStoreError) {
            try store.add(request.item, authenticationContext: addContext)
        } catch let error where SecItemPrompt.shouldPrompt(error, context: addContext, ui: .allow) {
            let context = SecItemPrompt.context(addContext)
            let item = request.item
            try SecItemPrompt.wait { () async throws(KeychainStoreError) in
                try await store.authenticatedAdd(item, authenticationContext: context)
            }
        }
        guard let result else { return }
        let kinds = [request.resultQuery.returnData, request.resultQuery.returnAttributes,
                     request.resultQuery.returnReference, request.resultQuery.returnPersistentReference]
        guard kinds.contains(true) else { result.pointee = nil; return }
        let found = SecureEnclaveToken.restoringAccessControl(try store.copyMatching(request.resultQuery))
        result.pointee = SecurityBridge.object(QueryDictionary.result(found, for: request.resultQuery),
                                               use: SecKeyBridge.KeyUse(query: dictionary))
    }
}

/// `SecItemCopyMatching`: finds items; `result` receives data, attributes, references or an array of them.
@available(macOS 10.6, *)
@discardableResult
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    result?.pointee = nil
    if let status = SecItemPersistentReference.resolve(query, { SecItemCopyMatching($0, result) }) { return status }
    return SecurityBridge.status { () throws(KeychainStoreError) in
        let dictionary = try SecurityBridge.swiftDictionary(query, forAdd: false)
        var q = try QueryDictionary.query(dictionary, for: .search)
        let store = LatchkeySecurityConfiguration.store
        let found: [QueryResult]
        do throws(KeychainStoreError) {
            found = try store.copyMatching(q)
        } catch let error where SecItemPrompt.shouldPrompt(error, context: q.authenticationContext, ui: q.authenticationUI) {
            q.authenticationContext = SecItemPrompt.context(q.authenticationContext)
            let prompted = q
            found = try SecItemPrompt.wait { () async throws(KeychainStoreError) in
                try await store.authenticatedCopyMatching(prompted)
            }
        }
        result?.pointee = SecurityBridge.object(QueryDictionary.result(SecureEnclaveToken.restoringAccessControl(found), for: q),
                                                use: SecKeyBridge.KeyUse(query: dictionary))
    }
}

/// `SecItemUpdate`: changes every item matching `query` to have `attributesToUpdate`.
@available(macOS 10.6, *)
@discardableResult
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    if let status = SecItemPersistentReference.resolve(query, { SecItemUpdate($0, attributesToUpdate) }) { return status }
    return SecurityBridge.status { () throws(KeychainStoreError) in
        let q = try QueryDictionary.query(try SecurityBridge.swiftDictionary(query, forAdd: false), for: .update)
        // `forAdd`: a `kSecValueRef` changes the value, and a token cannot be set.
        let changes = try QueryDictionary.changes(try SecurityBridge.swiftDictionary(attributesToUpdate, forAdd: true),
                                                  for: q.itemClass)
        let store = LatchkeySecurityConfiguration.store
        do throws(KeychainStoreError) {
            try store.update(q, with: changes)
        } catch let error where SecItemPrompt.shouldPrompt(error, context: q.authenticationContext, ui: q.authenticationUI) {
            var prompted = q
            prompted.authenticationContext = SecItemPrompt.context(q.authenticationContext)
            let query = prompted
            try SecItemPrompt.wait { () async throws(KeychainStoreError) in
                try await store.authenticatedUpdate(query, with: changes)
            }
        }
    }
}

/// `SecItemDelete`: deletes every item matching `query`.
@available(macOS 10.6, *)
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    if let status = SecItemPersistentReference.resolve(query, { SecItemDelete($0) }) { return status }
    return SecurityBridge.status { () throws(KeychainStoreError) in
        let q = try QueryDictionary.query(try SecurityBridge.swiftDictionary(query, forAdd: false), for: .delete)
        try LatchkeySecurityConfiguration.store.delete(q)
    }
}
#endif
