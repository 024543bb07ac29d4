#if os(Linux)
import Foundation
import LatchkeyKeychainCore
import LatchkeyKeychainLinux
import LocalAuthentication

/// How `SecKey` objects travel through SecItem dictionaries.
enum SecKeyBridge {
    /// What a query gives the Secure Enclave keys it returns: `kSecUseAuthenticationContext` (their uses evaluate with
    /// it) and `kSecUseOperationPrompt` (what their prompts say), as Apple's token keys keep them.
    struct KeyUse {
        var context: LAContext?
        var operationPrompt: String?

        init(query: [String: Any]) {
            context = query[QueryKeys.useAuthenticationContext] as? LAContext
            operationPrompt = query[QueryKeys.useOperationPrompt].flatMap(DictionaryValues.string)
        }
    }

    /// Replaces a `kSecValueRef` key (in an add) by its stored form; in a query it is ignored. A Secure Enclave key's
    /// token and access control are the key's own, whatever the dictionary says (as Apple's `add_key`).
    static func translateValueRef(_ d: inout [String: Any], forAdd: Bool) throws(KeychainStoreError) {
        guard let ref = d[QueryKeys.valueRef] else { return }
        d[QueryKeys.valueRef] = nil
        guard let key = ref as? SecKey else { throw KeychainStoreError.malformed(QueryKeys.valueRef) }
        guard forAdd else { return }
        let own = key.secureEnclaveKey == nil ? [] : [AttributeKey.tokenID.rawValue, QueryKeys.accessControl]
        for (k, v) in key.itemAttributes where d[k] == nil || own.contains(k) { d[k] = v }
        if !own.isEmpty { d[QueryKeys.accessible] = nil }
        d[QueryKeys.itemClass] = "keys"
        d[QueryKeys.valueData] = key.storedValue
    }

    /// The object `kSecReturnRef` yields for an item: a `SecKey` for keys, the item itself otherwise.
    static func reference(for item: Item, use: KeyUse?) -> CFTypeRef {
        if item.attributes.itemClass == .key,
           let key = SecKey(storedItem: item, context: use?.context, operationPrompt: use?.operationPrompt) {
            return key
        }
        return item as AnyObject
    }
}
#endif
