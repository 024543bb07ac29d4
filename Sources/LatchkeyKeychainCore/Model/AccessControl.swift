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
    /// A paired watch / companion (`.watch` / `.companion`, 32). Linux has none: an alternative needing it
    /// can never be proven.
    public static let companion = AccessControlFlags(rawValue: 1 << 5)
    /// Any one of the constraints suffices (`.or`, 1<<14).
    public static let or = AccessControlFlags(rawValue: 1 << 14)
    /// Every constraint is required (`.and`, 1<<15). Also the meaning of several constraints without `.or`.
    public static let and = AccessControlFlags(rawValue: 1 << 15)
    /// The key may be used for private-key operations (`.privateKeyUsage`, 1<<30). No effect on item storage.
    public static let privateKeyUsage = AccessControlFlags(rawValue: 1 << 30)
    /// An application password (`.applicationPassword`, 1<<31): not a constraint but an extra encryption of the
    /// item's value, under a key derived (Argon2id) from the password the app gives its context
    /// (`LAContext.setCredential(_:type:)`) or the user types at the prompt.
    public static let applicationPassword = AccessControlFlags(rawValue: 1 << 31)

    /// The constraint flags: what a device authentication must prove (without the conjunctions,
    /// `privateKeyUsage` and `applicationPassword`).
    public var constraints: AccessControlFlags {
        intersection([.userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion])
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

    /// True when opening an item needs a device authentication (some constraint flag is set).
    public var requiresAuthentication: Bool { !flags.constraints.isEmpty }

    /// True when the item's value is also sealed under its application password.
    public var requiresApplicationPassword: Bool { flags.contains(.applicationPassword) }

    /// Apple's rules for `SecAccessControlCreateWithFlags` (SecAccessControl.m): errSecParam for `.or` with `.and`,
    /// for `.biometryAny` with `.biometryCurrentSet`, and for `.userPresence` with anything but
    /// `.applicationPassword` and `.privateKeyUsage`. Every other combination is valid.
    public func validate() throws(KeychainStoreError) {
        if flags.contains(.or) && flags.contains(.and) { throw KeychainStoreError(.param, .unsupportedAccessControl) }
        if flags.contains(.biometryAny) && flags.contains(.biometryCurrentSet) {
            throw KeychainStoreError(.param, .unsupportedAccessControl)
        }
        if flags.contains(.userPresence)
            && !flags.subtracting([.userPresence, .applicationPassword, .privateKeyUsage]).isEmpty {
            throw KeychainStoreError(.param, .unsupportedAccessControl)
        }
    }

    /// The ways to open the item on this machine: each alternative is a set of protection domains that must all
    /// be proven. `.or` gives one alternative per constraint; otherwise (`.and`, or a single constraint) one
    /// alternative with every constraint (Apple: k-of-n with k = 1 or n). Alternatives needing a companion are left
    /// out (Linux has none), so an item whose every alternative needs one has none: it never opens. Throws
    /// errSecParam for combinations Apple refuses (`validate()`).
    public func alternatives() throws(KeychainStoreError) -> [[ProtectionDomain]] {
        try validate()
        let c = flags.constraints
        // This order numbers the alternatives of stored items (a vault keeps one wrapped key per alternative).
        var domains: [ProtectionDomain] = []
        if c.contains(.userPresence) { domains.append(.userPresence) }
        if c.contains(.biometryAny) { domains.append(.biometryAny) }
        if c.contains(.biometryCurrentSet) { domains.append(.biometryCurrentSet) }
        if c.contains(.devicePasscode) { domains.append(.devicePasscode) }
        let companion = c.contains(.companion)
        if flags.contains(.or) { return domains.map { [$0] } }
        return companion || domains.isEmpty ? [] : [domains]
    }

    /// What opening the item needs proven (`AuthenticationContext.evaluate(_:reason:)`).
    public var requirement: AccessRequirement {
        AccessRequirement(alternatives: (try? alternatives()) ?? [], applicationPassword: requiresApplicationPassword)
    }

    /// What sealing a new item needs proven from a context that knows the domains only through their secrets (a
    /// device's context gives their sealing keys without asking, `AuthenticationContext.sealingKey(for:)`): every
    /// domain of every alternative, and the application password.
    public var sealingRequirement: AccessRequirement {
        var all: [ProtectionDomain] = []
        for domain in ((try? alternatives()) ?? []).joined() where !all.contains(domain) { all.append(domain) }
        return AccessRequirement(alternatives: all.isEmpty ? [] : [all], applicationPassword: requiresApplicationPassword)
    }

    /// The LocalAuthentication policy nearest to this access control (`AccessRequirement.policy`).
    public var policy: Policy { requirement.policy }
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
