import LatchkeyAuthCore

/// What must be proven before an item opens (`SecAccessControlCreateFlags`), with Apple's raw values.
public struct AccessControlFlags: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Biometry or the passcode (`.userPresence`, 1).
    public static let userPresence = AccessControlFlags(rawValue: 1 << 0)
    /// Any enrolled biometry; survives new enrolments (`.biometryAny`, 2).
    public static let biometryAny = AccessControlFlags(rawValue: 1 << 1)
    /// The biometry enrolled now; dies when enrolment changes (`.biometryCurrentSet`, 8).
    public static let biometryCurrentSet = AccessControlFlags(rawValue: 1 << 3)
    /// The device passcode (on Linux: the user's password through PAM) (`.devicePasscode`, 16).
    public static let devicePasscode = AccessControlFlags(rawValue: 1 << 4)
    /// A paired watch / companion (`.watch` / `.companion`, 32). Not available on Linux.
    public static let companion = AccessControlFlags(rawValue: 1 << 5)
    /// Any one of the constraints suffices (`.or`, 1<<14).
    public static let or = AccessControlFlags(rawValue: 1 << 14)
    /// Every constraint is required (`.and`, 1<<15). Also the meaning of several constraints without `.or`.
    public static let and = AccessControlFlags(rawValue: 1 << 15)
    /// The key may be used for private-key operations (`.privateKeyUsage`, 1<<30). No effect on item storage.
    public static let privateKeyUsage = AccessControlFlags(rawValue: 1 << 30)
    /// An application password (`.applicationPassword`, 1<<31). Not supported by Latchkey's stores.
    public static let applicationPassword = AccessControlFlags(rawValue: 1 << 31)

    /// The constraint flags (without the conjunctions and `privateKeyUsage`).
    public var constraints: AccessControlFlags {
        intersection([.userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion, .applicationPassword])
    }
}

/// An item's access control (`SecAccessControl`): its accessibility plus the proofs it needs.
public struct AccessControl: Sendable, Hashable, Codable {
    /// When the item is readable at all (the `protection` argument of `SecAccessControlCreateWithFlags`).
    public var accessibility: Accessibility
    /// The proofs needed to open it.
    public var flags: AccessControlFlags

    /// Creates an access control, as `SecAccessControlCreateWithFlags(nil, protection, flags, &error)`.
    public init(accessibility: Accessibility, flags: AccessControlFlags) {
        self.accessibility = accessibility
        self.flags = flags
    }

    /// True when opening an item needs an authentication context (some constraint flag is set).
    public var requiresAuthentication: Bool { !flags.constraints.isEmpty }

    /// The ways to open the item: each alternative is a set of protection domains that must all be proven.
    /// `.or` gives one alternative per constraint; otherwise (`.and`, or a single constraint) one alternative
    /// with every constraint. Throws `errSecParam` for flags Latchkey cannot honour (companion, applicationPassword).
    public func alternatives() throws(KeychainStoreError) -> [[ProtectionDomain]] {
        let c = flags.constraints
        if c.contains(.companion) || c.contains(.applicationPassword) {
            throw KeychainStoreError(.unimplemented, .unsupportedAccessControl)
        }
        if flags.contains(.or) && flags.contains(.and) { throw KeychainStoreError(.param, .unsupportedAccessControl) }
        var domains: [ProtectionDomain] = []
        if c.contains(.userPresence) { domains.append(.userPresence) }
        if c.contains(.biometryAny) { domains.append(.biometryAny) }
        if c.contains(.biometryCurrentSet) { domains.append(.biometryCurrentSet) }
        if c.contains(.devicePasscode) { domains.append(.devicePasscode) }
        if domains.isEmpty { return [] }
        return flags.contains(.or) ? domains.map { [$0] } : [domains]
    }

    /// The LocalAuthentication policy an evaluation needs to satisfy this access control:
    /// biometrics only when every alternative is biometric, otherwise biometrics with passcode fallback.
    public var policy: Policy {
        let alternatives = (try? alternatives()) ?? []
        let biometricOnly = !alternatives.isEmpty && alternatives.allSatisfy { alt in
            alt.allSatisfy { $0 == .biometryAny || $0 == .biometryCurrentSet }
        }
        return biometricOnly ? .deviceOwnerAuthenticationWithBiometrics : .deviceOwnerAuthentication
    }
}

/// A value from another module (the `Security` facade's `SecAccessControl`) that stands for an `AccessControl`
/// in a query dictionary under "accc".
public protocol AccessControlConvertible {
    /// The access control this object represents.
    var latchkeyAccessControl: AccessControl { get }
}

/// A value from another module (the `LocalAuthentication` facade's `LAContext`) that stands for an
/// authentication context in a query dictionary under "u_AuthCtx".
public protocol AuthenticationContextConvertible {
    /// The context this object wraps.
    var latchkeyAuthenticationContext: any AuthenticationContext { get }
}
