#if os(Linux)
import CryptoKit
import Foundation
import LatchkeyKeychainCore
import LocalAuthentication

// CryptoKit's `SecureEnclave` initializers that take a `SecAccessControl`. Apple declares them in CryptoKit, which
// imports Security; the Linux `Security` sits above `CryptoKit` (its keychain stores use CryptoKit), so they are declared
// here, with Apple's signature, and reach code that imports `Security` — as code naming a `SecAccessControl` does.

@available(iOS 13.0, macOS 10.15, watchOS 6.0, tvOS 13.0, macCatalyst 13.0, *)
extension SecureEnclave.P256.Signing.PrivateKey {
    /// A new key in the TPM whose every use needs what `accessControl` asks (evaluated with `authenticationContext`,
    /// or a new context when nil). Making a key with constraints needs their secrets, so it evaluates them first when
    /// the context has not (as adding an access-controlled keychain item does on Linux).
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, *)
    public init(compactRepresentable: Bool = true,
                accessControl: SecAccessControl = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil)!,
                authenticationContext: LAContext? = nil) throws {
        try self.init(compactRepresentable: compactRepresentable, latchkeyAccess: accessControl.secureEnclaveAccess,
                      authenticationContext: authenticationContext)
    }
}

@available(iOS 13.0, macOS 10.15, watchOS 6.0, tvOS 13.0, macCatalyst 13.0, *)
extension SecureEnclave.P256.KeyAgreement.PrivateKey {
    /// A new key-agreement key in the TPM whose every use needs what `accessControl` asks (see the signing key's).
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, *)
    public init(compactRepresentable: Bool = true,
                accessControl: SecAccessControl = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil)!,
                authenticationContext: LAContext? = nil) throws {
        try self.init(compactRepresentable: compactRepresentable, latchkeyAccess: accessControl.secureEnclaveAccess,
                      authenticationContext: authenticationContext)
    }
}

extension SecAccessControl {
    /// What a Secure Enclave key keeps of this access control: the keychain's alternatives of protection domains.
    var secureEnclaveAccess: SecureEnclaveAccess {
        let control = latchkeyAccessControl
        return SecureEnclaveAccess(accessibility: control.accessibility.rawValue, flags: UInt64(control.flags.rawValue),
                                   alternatives: (try? control.alternatives()) ?? [],
                                   requiresAuthentication: control.requiresAuthentication)
    }
}
#endif
