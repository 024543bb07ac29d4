import Foundation
import LatchkeyCrypto

/// What the server tells a client about an account (`POST /v1/accounts`, `GET /v1/me`). Never the hash.
public struct AccountInfo: Codable, Sendable, Equatable {
    public var id: String
    public var username: String
    public var createdAt: Int64
    /// How the account can sign in (`GET /v1/me` only): what a client can offer for a step-up.
    public var signInMethods: [SignInMethod]?
    /// The Bearer token's `auth_time` (`GET /v1/me` only).
    public var authTime: Int64?

    public init(id: String, username: String, createdAt: Int64, signInMethods: [SignInMethod]? = nil, authTime: Int64? = nil) {
        self.id = id; self.username = username; self.createdAt = createdAt
        self.signInMethods = signInMethods; self.authTime = authTime
    }

    init(_ record: AccountRecord) { self.init(id: record.id, username: record.username, createdAt: record.createdAt) }

    enum CodingKeys: String, CodingKey {
        case id, username
        case createdAt = "created_at"
        case signInMethods = "sign_in_methods"
        case authTime = "auth_time"
    }
}

/// Why an account could not be created.
public enum AccountCreationError: Error, Sendable, Equatable {
    case invalidUsername
    case weakPassword(PasswordPolicyViolation)
    /// The (case-folded) name is taken. Answering this reveals that the name exists; sign-up forms
    /// everywhere do, and the login endpoint does not.
    case usernameTaken
    case serverError
    /// The database is restarting or overloaded (503, retry).
    case temporarilyUnavailable
}

extension AccountCreationError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .invalidUsername:
            return lang.pick(english: "The user name is empty, too long or contains control characters.",
                             korean: "사용자 이름이 비어 있거나 너무 길거나 제어 문자를 포함합니다.")
        case .weakPassword(let violation): return violation.errorDescription
        case .usernameTaken: return lang.pick(english: "The user name is taken.", korean: "이미 사용 중인 사용자 이름입니다.")
        case .serverError: return lang.pick(english: "Server error.", korean: "서버 오류입니다.")
        case .temporarilyUnavailable:
            return lang.pick(english: "The service is temporarily unavailable; try again.",
                             korean: "서비스를 잠시 사용할 수 없습니다. 다시 시도하세요.")
        }
    }
}
