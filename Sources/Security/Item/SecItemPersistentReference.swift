#if os(Linux)
import Foundation

/// Apple finds an item by `kSecValuePersistentRef` alone, because its persistent references name the
/// item's class. Latchkey's references do not, so a query with a persistent reference and no `kSecClass`
/// is run once per item class until one answers something other than "not found" (translation only).
enum SecItemPersistentReference {
    static var classes: [CFString] {
        [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassKey, kSecClassCertificate, kSecClassIdentity]
    }

    /// The status of `body` run for each class, or nil when `query` names a class or has no persistent reference.
    static func resolve(_ query: CFDictionary, _ body: (CFDictionary) -> OSStatus) -> OSStatus? {
        var copy: [String: Any] = [:]
        for (k, v) in query {
            guard let key = (k as? String) ?? (k as? NSString).map({ String($0) }) else { return nil }
            copy[key] = v
        }
        guard copy[kSecClass as String] == nil, copy[kSecValuePersistentRef as String] != nil else { return nil }
        var sawNotFound = false
        for cls in classes {
            copy[kSecClass as String] = cls
            let status = body(copy as CFDictionary)
            switch status {
            case errSecItemNotFound: sawNotFound = true
            case errSecParam, errSecNoSuchAttr: continue
            default: return status
            }
        }
        return sawNotFound ? errSecItemNotFound : errSecParam
    }
}
#endif
