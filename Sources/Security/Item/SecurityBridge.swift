#if os(Linux)
import Foundation
import LatchkeyKeychainCore
import LatchkeyKeychainLinux

/// Core Foundation ⇄ Swift conversions for the `SecItem…` functions (translation only).
enum SecurityBridge {
    static func status(_ body: () throws(KeychainStoreError) -> Void) -> OSStatus {
        do {
            try body()
            return errSecSuccess
        } catch {
            return error.status.rawValue
        }
    }

    /// The dictionary with `String` keys and Swift-side values (`SecAccessControl`, `SecKey` translated). An item to
    /// add may not name a token (`kSecAttrTokenID`): only a Secure Enclave key given as `kSecValueRef` brings one.
    static func swiftDictionary(_ cf: CFDictionary, forAdd: Bool) throws(KeychainStoreError) -> [String: Any] {
        var out: [String: Any] = [:]
        for (k, v) in cf {
            guard let key = (k as? String) ?? (k as? NSString).map({ String($0) }) else { throw KeychainStoreError.param }
            out[key] = v
        }
        if forAdd, out[AttributeKey.tokenID.rawValue] != nil { throw KeychainStoreError.malformed(AttributeKey.tokenID.rawValue) }
        try SecKeyBridge.translateValueRef(&out, forAdd: forAdd)
        if LatchkeySecurityConfiguration.dataProtectionKeychainNeedsEntitlement,
           DictionaryValues.bool(out[QueryKeys.useDataProtectionKeychain] as Any) == true {
            throw KeychainStoreError(.missingEntitlement)
        }
        return out
    }

    /// A Swift result as the object Apple's functions return (NSData, NSDictionary, NSArray, SecKey...); Secure
    /// Enclave keys get `use`.
    static func object(_ value: Any?, use: SecKeyBridge.KeyUse? = nil) -> CFTypeRef? {
        guard let value else { return nil }
        switch value {
        case let d as Data: return NSData(data: d)
        case let s as String: return NSString(string: s)
        case let b as Bool: return NSNumber(value: b)
        case let i as Int: return NSNumber(value: i)
        case let date as Date: return NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case let ac as AccessControl: return SecAccessControl(ac)
        case let item as Item: return SecKeyBridge.reference(for: item, use: use)
        case let dict as [String: Any]:
            let out = NSMutableDictionary()
            for (k, v) in dict { out[NSString(string: k)] = object(v, use: use) }
            return out
        case let list as [Any]:
            return NSArray(array: list.compactMap { object($0, use: use) })
        default: return value as AnyObject
        }
    }
}
#endif
