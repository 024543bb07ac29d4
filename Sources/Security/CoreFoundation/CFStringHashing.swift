#if os(Linux)
import Foundation

// On Apple platforms an NSString (so every CFString constant) becomes a `String` when it is made
// `AnyHashable`: `dictionary[kSecAttrAccount]` finds the "acct" entry of a `[AnyHashable: Any]` whose keys are
// Swift strings, and `NSDictionary.isEqual(to:)` sees `kSecClassGenericPassword` equal to itself.
// swift-corelibs-foundation boxes NSString as itself, so neither holds there; code reading SecItem results
// with the `kSec…` constants as keys (SwiftKeychainWrapper's `allKeys()`) finds nothing. This gives NSString
// Apple's AnyHashable representation.
extension NSString: @retroactive _HasCustomAnyHashableRepresentation {
    /// The string's Swift `String` value as `AnyHashable`, as on Apple platforms.
    public func _toCustomAnyHashable() -> AnyHashable? {
        AnyHashable(String(self))
    }
}
#endif
