import Foundation
import LatchkeyAuthCore

/// What a Secure Enclave key's access control asks before each use — the parts of a `SecAccessControl` the key keeps:
/// its accessibility (`kSecAttrAccessible…` raw value), its flags (`SecAccessControlCreateFlags` raw value) and the
/// alternatives of protection domains its constraints give (`Security` computes them with the keychain's rules;
/// empty with no constraint, and also when every alternative needs a companion, which Linux never has).
package struct SecureEnclaveAccess: Sendable, Hashable {
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`, the protection of Apple's default access control.
    package static let defaultAccessibility = "cku"

    package let accessibility: String
    package let flags: UInt64
    package let alternatives: [[ProtectionDomain]]
    /// Whether a use needs an authentication (some constraint flag is set), even when no alternative can give it.
    package let requiresAuthentication: Bool

    package init(accessibility: String, flags: UInt64, alternatives: [[ProtectionDomain]], requiresAuthentication: Bool) {
        self.accessibility = accessibility
        self.flags = flags
        self.alternatives = alternatives
        self.requiresAuthentication = requiresAuthentication
    }

    /// Apple's default for SecureEnclave keys: `SecAccessControlCreateWithFlags(nil,
    /// kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil)`, usable without authentication.
    package static let unconstrained = SecureEnclaveAccess(accessibility: defaultAccessibility, flags: 0,
                                                           alternatives: [], requiresAuthentication: false)

    /// Every domain of every alternative, once, in order: what making the key needs released (each alternative's
    /// wrapping of the key's authorization is derived from its domains' secrets).
    var sealingRequirement: AccessRequirement {
        var all: [ProtectionDomain] = []
        for domain in alternatives.joined() where !all.contains(domain) { all.append(domain) }
        return AccessRequirement(alternatives: all.isEmpty ? [] : [all])
    }

    /// What using the key needs proven.
    var requirement: AccessRequirement { AccessRequirement(alternatives: alternatives) }
}

extension ProtectionDomain {
    /// The domain's code in a key's `dataRepresentation`.
    var blobCode: UInt8 {
        switch self {
        case .biometryAny: 1
        case .biometryCurrentSet: 2
        case .devicePasscode: 3
        case .userPresence: 4
        }
    }

    init?(blobCode: UInt8) {
        guard let domain = ProtectionDomain.allCases.first(where: { $0.blobCode == blobCode }) else { return nil }
        self = domain
    }
}
