import Foundation
import LatchkeyCrypto

/// A way an account can sign in, as the server lists it (`GET /v1/me`'s `sign_in_methods`).
public enum AccountSignInMethod: String, Sendable, Hashable, CaseIterable, Codable {
    case password
    case passkey
    case apple

    /// "Password", "Passkey", "Sign in with Apple", in `language`.
    public func title(in language: MessageLanguage) -> String {
        switch self {
        case .password: language.pick(english: "Password", korean: "비밀번호")
        case .passkey: language.pick(english: "Passkey", korean: "패스키")
        case .apple: language.pick(english: "Sign in with Apple", korean: "Apple로 로그인")
        }
    }
}

/// The signed-in account as the server describes it (`GET /v1/me`).
public struct AccountProfile: Sendable, Hashable, Decodable {
    /// The account's identifier on the server.
    public var id: String
    /// The user name (`apple:<user>` for an account made with Sign in with Apple).
    public var username: String
    /// How the account can sign in; an account without `.password` can add one (`AccountManager.addPassword(_:)`).
    public var signInMethods: Set<AccountSignInMethod>
    /// When the session last signed in for real (a refresh does not renew it): what step-up checks.
    public var authenticatedAt: Date?

    public init(id: String, username: String, signInMethods: Set<AccountSignInMethod>, authenticatedAt: Date?) {
        self.id = id
        self.username = username
        self.signInMethods = signInMethods
        self.authenticatedAt = authenticatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, username
        case signInMethods = "sign_in_methods"
        case authTime = "auth_time"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        username = try container.decode(String.self, forKey: .username)
        // Methods this kit does not know yet are left out rather than failing the whole profile.
        let names = try container.decodeIfPresent([String].self, forKey: .signInMethods) ?? []
        signInMethods = Set(names.compactMap(AccountSignInMethod.init(rawValue:)))
        authenticatedAt = try container.decodeIfPresent(ServerInstant.self, forKey: .authTime)?.date
    }
}
