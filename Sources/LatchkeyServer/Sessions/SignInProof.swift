import Foundation

/// How a session signed in.
public enum SignInMethod: String, Sendable, Codable, CaseIterable {
    case password
    case passkey
    case apple
}

/// RFC 8176 authentication method references, as a set: what an access token's `amr` claim lists (in the order of
/// `all`). Stored as its `rawValue`, an integer, beside each refresh token: a rotation copies one integer column
/// (a text column cost a refresh ≈ 3,500 more instructions of SQLite's).
public struct AuthenticationMethods: OptionSet, Sendable, Hashable {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// `pwd`: a password.
    public static let password = AuthenticationMethods(rawValue: 1 << 0)
    /// `hwk`: proof of possession of a hardware-secured key.
    public static let hardwareKey = AuthenticationMethods(rawValue: 1 << 1)
    /// `swk`: proof of possession of a software-secured key.
    public static let softwareKey = AuthenticationMethods(rawValue: 1 << 2)
    /// `user`: a user-presence test.
    public static let userPresence = AuthenticationMethods(rawValue: 1 << 3)
    /// `mfa`: multiple factors.
    public static let multipleFactors = AuthenticationMethods(rawValue: 1 << 4)
    /// `fed`: a federated identity provider (not registered by RFC 8176; the value Microsoft Entra ID writes).
    public static let federated = AuthenticationMethods(rawValue: 1 << 5)

    /// Each method with its `amr` value, in the order a claim lists them.
    static let all: [(AuthenticationMethods, String)] = [
        (.password, "pwd"), (.hardwareKey, "hwk"), (.softwareKey, "swk"), (.userPresence, "user"),
        (.multipleFactors, "mfa"), (.federated, "fed"),
    ]

    /// The `amr` values.
    public var references: [String] { Self.all.compactMap { contains($0.0) ? $0.1 : nil } }
}

/// What a sign-in proved: its method and the RFC 8176 authentication method references (`amr`) its access tokens
/// carry. Only what the server can tell is claimed:
/// - a password: `pwd`;
/// - a passkey: `hwk` when the credential is not backup-eligible (a key that cannot leave its authenticator) or
///   `swk` when it is (a synced passkey: a software-protected copy can exist elsewhere), with `user` (the assertion's
///   UP flag, which every assertion has) and `mfa` when the UV flag is set — the authenticator verified the user by a
///   biometric or a PIN on top of the key; WebAuthn does not say which, so neither `face`, `fpt` nor `pin` is claimed;
/// - Sign in with Apple: `fed` — an identity provider authenticated the user. RFC 8176 registers no value for that
///   (`fed` is the one Microsoft Entra ID writes), and Apple's identity token does not say how Apple verified the
///   user, so nothing more is claimed.
public struct SignInProof: Sendable, Equatable {
    public var method: SignInMethod
    public var methods: AuthenticationMethods

    public init(method: SignInMethod, methods: AuthenticationMethods) {
        self.method = method
        self.methods = methods
    }

    /// The `amr` values.
    public var amr: [String] { methods.references }

    public static let password = SignInProof(method: .password, methods: .password)
    public static let apple = SignInProof(method: .apple, methods: .federated)

    public static func passkey(backupEligible: Bool, userVerified: Bool) -> SignInProof {
        var methods: AuthenticationMethods = [backupEligible ? .softwareKey : .hardwareKey, .userPresence]
        if userVerified { methods.insert(.multipleFactors) }
        return SignInProof(method: .passkey, methods: methods)
    }
}
