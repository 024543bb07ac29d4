import Foundation

/// How a session signed in.
public enum SignInMethod: String, Sendable, Codable, CaseIterable {
    case password
    case passkey
    case apple
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
    public var amr: [String]

    public init(method: SignInMethod, amr: [String]) {
        self.method = method
        self.amr = amr
    }

    public static let password = SignInProof(method: .password, amr: ["pwd"])
    public static let apple = SignInProof(method: .apple, amr: ["fed"])

    public static func passkey(backupEligible: Bool, userVerified: Bool) -> SignInProof {
        SignInProof(method: .passkey, amr: [backupEligible ? "swk" : "hwk", "user"] + (userVerified ? ["mfa"] : []))
    }

    /// `amr` as stored: the references separated by spaces (none contains one).
    var storedAMR: String { amr.joined(separator: " ") }

    /// The references of a stored `amr` column.
    static func references(stored: String) -> [String] {
        stored.utf8.split(separator: UInt8(ascii: " ")).map { String(Substring($0)) }
    }
}
