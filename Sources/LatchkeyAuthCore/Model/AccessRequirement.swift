/// What an access-controlled keychain item needs proven before it opens — the LocalAuthentication side of a
/// `SecAccessControl`: any one of `alternatives` (each a set of protection domains that must all be released)
/// and, with `applicationPassword`, the application password (`LAContext.setCredential(_:type:)`).
///
/// How a context proves it (`AuthenticationContext.evaluate(_:reason:)`) follows the domains, as Apple's
/// `evaluateAccessControl` follows the access control's constraints: `devicePasscode` asks for the passcode
/// and never scans biometry; `biometryAny` / `biometryCurrentSet` need a biometric match; `userPresence` is
/// either; an alternative with both kinds needs both. An empty `alternatives` needs no device authentication.
public struct AccessRequirement: Sendable, Hashable {
    /// Any one of these suffices; every domain of the chosen one must be proven.
    public var alternatives: [[ProtectionDomain]]
    /// Whether the application password is needed too (not a constraint: an extra encryption of the item).
    public var applicationPassword: Bool

    /// A requirement with every value given.
    public init(alternatives: [[ProtectionDomain]], applicationPassword: Bool = false) {
        self.alternatives = alternatives
        self.applicationPassword = applicationPassword
    }

    /// What a LocalAuthentication policy proves: biometrics → a biometric match; device owner → biometry or
    /// the passcode.
    public init(policy: Policy) {
        switch policy {
        case .deviceOwnerAuthenticationWithBiometrics: self.init(alternatives: [[.biometryAny]])
        case .deviceOwnerAuthentication: self.init(alternatives: [[.userPresence]])
        }
    }

    /// The ways of proving one alternative.
    package enum Need: Sendable, Hashable {
        /// A biometric match alone (biometric domains, perhaps with `userPresence`).
        case biometry
        /// The passcode alone (`devicePasscode`, perhaps with `userPresence`).
        case passcode
        /// Either one (`userPresence` only).
        case either
        /// A biometric match and the passcode.
        case both
    }

    /// What an alternative needs.
    package static func need(_ alternative: [ProtectionDomain]) -> Need {
        let biometric = alternative.contains { $0 == .biometryAny || $0 == .biometryCurrentSet }
        let passcode = alternative.contains(.devicePasscode)
        switch (biometric, passcode) {
        case (true, true): return .both
        case (true, false): return .biometry
        case (false, true): return .passcode
        case (false, false): return .either
        }
    }

    /// Some alternative is proven by a biometric match alone.
    package var biometryAlone: Bool { alternatives.contains { [.biometry, .either].contains(Self.need($0)) } }
    /// Some alternative is proven by the passcode alone.
    package var passcodeAlone: Bool { alternatives.contains { [.passcode, .either].contains(Self.need($0)) } }
    /// Some alternative needs a biometric match and the passcode.
    package var needsBoth: Bool { alternatives.contains { Self.need($0) == .both } }

    /// The LocalAuthentication policy nearest to this requirement, for contexts that evaluate only policies
    /// (and for prompts): biometrics when no alternative can be proven by the passcode alone, else device owner.
    public var policy: Policy {
        passcodeAlone ? .deviceOwnerAuthentication : .deviceOwnerAuthenticationWithBiometrics
    }
}
