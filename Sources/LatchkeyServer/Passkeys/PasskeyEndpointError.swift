import Foundation
import LatchkeyCrypto

/// Why a passkey endpoint refused a request; each maps to one HTTP answer.
public enum PasskeyEndpointError: Error, Sendable, Equatable {
    /// A malformed request or a registration that failed verification (400 `invalid_request`).
    case invalidRequest(String)
    /// The user name of a new account is taken (409 `username_taken`).
    case usernameTaken
    /// The user name is not acceptable (400 `invalid_username`).
    case invalidUsername
    /// The Bearer token is missing, invalid or its session ended (401 `invalid_token`).
    case invalidToken
    /// A sign-in assertion failed verification (401 `invalid_grant`).
    case invalidGrant(String)
    /// A passkey name that `PasskeyName` refuses (400 `invalid_name`).
    case invalidPasskeyName(PasskeyNameError)
    /// The authenticator model is refused by its metadata status, revoked or compromised (403 `authenticator_refused`).
    case authenticatorRefused(String)
    /// No such passkey for this account (404 `not_found`).
    case notFound
    /// A step-up's passkey belongs to another account than its Bearer token's (403 `account_mismatch`).
    case accountMismatch
    /// Adding a passkey needs a recent sign-in of the Bearer token's session (401, RFC 9470).
    case insufficientUserAuthentication(maxAge: Int64)
    /// Storage failed (500 `server_error`).
    case serverError
    /// The database is restarting or overloaded (503 `temporarily_unavailable`, with `Retry-After`).
    case temporarilyUnavailable

    /// How long a client is asked to wait after `temporarilyUnavailable`, in seconds.
    static let retryAfterSeconds = 2

    /// The error for a failure inside an endpoint: itself when it is one already, `temporarilyUnavailable` for a
    /// transient storage failure (`DatabaseError.isTransient`), else `serverError`.
    static func storage(_ error: any Error) -> PasskeyEndpointError {
        if let error = error as? PasskeyEndpointError { return error }
        if let database = error as? DatabaseError, database.isTransient { return .temporarilyUnavailable }
        if let error = error as? OAuthError { return from(error) }
        return .serverError
    }

    /// The passkey endpoints' form of an error of the auth service (a Bearer token's check, a session's start).
    static func from(_ error: OAuthError) -> PasskeyEndpointError {
        switch error {
        case .serverError: .serverError
        case .temporarilyUnavailable: .temporarilyUnavailable
        case .accountMismatch: .accountMismatch
        case .insufficientUserAuthentication(let maxAge): .insufficientUserAuthentication(maxAge: maxAge)
        default: .invalidToken
        }
    }

    var status: Int {
        switch self {
        case .invalidRequest, .invalidUsername, .invalidPasskeyName: 400
        case .authenticatorRefused, .accountMismatch: 403
        case .usernameTaken: 409
        case .invalidToken, .invalidGrant, .insufficientUserAuthentication: 401
        case .notFound: 404
        case .serverError: 500
        case .temporarilyUnavailable: 503
        }
    }

    var code: String {
        switch self {
        case .invalidRequest: "invalid_request"
        case .usernameTaken: "username_taken"
        case .invalidUsername: "invalid_username"
        case .invalidPasskeyName: "invalid_name"
        case .authenticatorRefused: "authenticator_refused"
        case .invalidToken: "invalid_token"
        case .invalidGrant: "invalid_grant"
        case .notFound: "not_found"
        case .accountMismatch: OAuthError.accountMismatch.code
        case .insufficientUserAuthentication: StepUpChallenge.code
        case .serverError: "server_error"
        case .temporarilyUnavailable: "temporarily_unavailable"
        }
    }

    /// The English text sent in `error_description`.
    var protocolDescription: String {
        switch self {
        case .invalidRequest(let why), .invalidGrant(let why), .authenticatorRefused(let why): why
        case .invalidPasskeyName(let error): error.englishText
        case .usernameTaken: "The user name is taken."
        case .invalidUsername: "The user name is not acceptable."
        case .invalidToken: "The access token is invalid or its session ended."
        case .notFound: "No such passkey."
        case .accountMismatch: StepUpChallenge.accountMismatchDescription
        case .insufficientUserAuthentication(let maxAge): StepUpChallenge.description(maxAge: maxAge)
        case .serverError: "The server failed."
        case .temporarilyUnavailable: "The service is temporarily unavailable; retry after \(Self.retryAfterSeconds) seconds."
        }
    }
}

extension PasskeyEndpointError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .invalidRequest(let why):
            MessageLanguage.current.pick(english: "Invalid passkey request: \(why)", korean: "잘못된 패스키 요청: \(why)")
        case .usernameTaken: MessageLanguage.current.pick(english: "The user name is taken.", korean: "이미 사용 중인 사용자 이름입니다.")
        case .invalidUsername:
            MessageLanguage.current.pick(english: "The user name is not acceptable.", korean: "사용할 수 없는 사용자 이름입니다.")
        case .invalidToken:
            MessageLanguage.current.pick(english: "The access token is invalid or its session ended.",
                                         korean: "액세스 토큰이 유효하지 않거나 세션이 끝났습니다.")
        case .invalidGrant(let why):
            MessageLanguage.current.pick(english: "Passkey sign-in failed: \(why)", korean: "패스키 로그인 실패: \(why)")
        case .invalidPasskeyName(let error): error.errorDescription
        case .authenticatorRefused(let why):
            MessageLanguage.current.pick(english: "The authenticator is refused: \(why)", korean: "인증기가 거부되었습니다: \(why)")
        case .notFound: MessageLanguage.current.pick(english: "No such passkey.", korean: "해당 패스키가 없습니다.")
        case .accountMismatch: StepUpChallenge.accountMismatchText(.current)
        case .insufficientUserAuthentication(let maxAge): StepUpChallenge.text(maxAge: maxAge, .current)
        case .serverError: MessageLanguage.current.pick(english: "The server failed.", korean: "서버 오류가 발생했습니다.")
        case .temporarilyUnavailable:
            MessageLanguage.current.pick(english: "The service is temporarily unavailable; retry after \(Self.retryAfterSeconds) s.",
                                         korean: "서비스를 일시적으로 사용할 수 없습니다. \(Self.retryAfterSeconds)초 후에 다시 시도하세요.")
        }
    }
}
