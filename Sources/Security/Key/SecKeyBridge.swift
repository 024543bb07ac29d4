#if os(Linux)
import Foundation
import LatchkeyKeychainCore
import LatchkeyKeychainLinux

/// How `SecKey` objects travel through SecItem dictionaries.
enum SecKeyBridge {
    /// Replaces a `kSecValueRef` key (in an add) by its stored form; in a query it is ignored.
    static func translateValueRef(_ d: inout [String: Any], forAdd: Bool) throws(KeychainStoreError) {
        guard let ref = d[QueryKeys.valueRef] else { return }
        d[QueryKeys.valueRef] = nil
        guard let key = ref as? SecKey else { throw KeychainStoreError.malformed(QueryKeys.valueRef) }
        guard forAdd else { return }
        for (k, v) in key.itemAttributes where d[k] == nil { d[k] = v }
        d[QueryKeys.itemClass] = "keys"
        d[QueryKeys.valueData] = key.storedValue
    }

    /// The object `kSecReturnRef` yields for an item: a `SecKey` for keys, the item itself otherwise.
    static func reference(for item: Item) -> CFTypeRef {
        if item.attributes.itemClass == .key, let key = SecKey(storedItem: item) { return key }
        return item as AnyObject
    }
}
#endif
