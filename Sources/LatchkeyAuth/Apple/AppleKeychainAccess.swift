#if LATCHKEY_APPLE_FRAMEWORKS
import Foundation
import LatchkeySupport
import Security

/// Which keychain SecItem calls use on Apple platforms, decided once per process.
///
/// The data-protection keychain (`kSecUseDataProtectionKeychain`) is the one iOS always uses and the one macOS apps
/// should use; but on macOS a process without a keychain-access-groups entitlement — an unsigned command-line tool,
/// `swift test` — gets errSecMissingEntitlement (-34018) from it. Then the legacy file-based keychain of the login
/// user is used instead, for this call and every later one, and the choice is logged once through `LatchkeyLog`.
/// `AppleKeychainStore` and `AppleAuthenticationContext` both go through here, so their items land in one keychain.
package enum AppleKeychainAccess {
    /// Whether the data-protection keychain is still believed usable.
    private static let dataProtection = Locked(true)

    /// errSecMissingEntitlement.
    static let missingEntitlement: OSStatus = -34018

    /// Runs `call` with `query` as it should go to the system: with `kSecUseDataProtectionKeychain` while that works,
    /// and again without it (from then on, always without) when the system answers errSecMissingEntitlement.
    package static func perform(_ query: [String: Any], _ call: ([String: Any]) -> OSStatus) -> OSStatus {
        if dataProtection.withLock({ $0 }) {
            var d = query
            d[kSecUseDataProtectionKeychain as String] = true
            let status = call(d)
            guard status == missingEntitlement else { return status }
            dataProtection.withLock { $0 = false }
            LatchkeyLog.log(.notice, category: "keychain",
                            "no keychain-access-groups entitlement: using the file-based login keychain")
        }
        var d = query
        d.removeValue(forKey: kSecUseDataProtectionKeychain as String)
        return call(d)
    }

    /// Forgets the decision (tests).
    package static func reset() { dataProtection.withLock { $0 = true } }

    /// Whether calls currently go to the data-protection keychain.
    package static var usesDataProtectionKeychain: Bool { dataProtection.withLock { $0 } }
}
#endif
