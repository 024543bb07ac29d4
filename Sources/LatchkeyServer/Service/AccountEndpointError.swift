import Foundation
import LatchkeyCrypto

/// Why an account or session endpoint (`DELETE /v1/me`, `POST /v1/me/password`, `/v1/sessions`) refused a request;
/// each maps to one HTTP answer.
public enum AccountEndpointError: Error, Sendable, Equatable {
    /// A malformed body or a missing field (400 `invalid_request`).
    case invalidRequest(String)
    /// The Bearer token is missing, invalid, expired or its session ended (401 `invalid_token`).
    case invalidToken
    /// The token's `auth_time` is too old for the operation: sign in again first (401, RFC 9470).
    case insufficientUserAuthentication(maxAge: Int64)
    /// The current password given with a password change is wrong (403 `invalid_grant`).
    case wrongPassword
    /// The new password breaks the password policy (400 `weak_password`).
    case weakPassword(PasswordPolicyViolation)
    /// Too many wrong passwords for the account (429 `slow_down` with `Retry-After`).
    case slowDown(retryAfter: Int64)
    /// No live session with this id on the caller's account (404 `not_found`).
    case notFound
    /// Storage failed (500).
    case serverError
    /// The database is restarting or overloaded (503 with `Retry-After`).
    case temporarilyUnavailable(retryAfter: Int64)

    /// The error for a failure inside an endpoint: itself, the account-endpoint form of an `OAuthError`, or a
    /// storage failure (503 when transient, else 500).
    static func from(_ error: any Error) -> AccountEndpointError {
        if let error = error as? AccountEndpointError { return error }
        switch OAuthError.storage(error) {
        case .insufficientUserAuthentication(let maxAge): return .insufficientUserAuthentication(maxAge: maxAge)
        case .slowDown(let seconds): return .slowDown(retryAfter: seconds)
        case .temporarilyUnavailable(let seconds): return .temporarilyUnavailable(retryAfter: seconds)
        case .invalidRequest(let why): return .invalidRequest(why)
        case .invalidToken, .invalidGrant, .accountMismatch, .invalidClient: return .invalidToken
        case .serverError, .unsupportedGrantType, .invalidScope: return .serverError
        }
    }

    var status: Int {
        switch self {
        case .invalidRequest, .weakPassword: 400
        case .invalidToken, .insufficientUserAuthentication: 401
        case .wrongPassword: 403
        case .notFound: 404
        case .slowDown: 429
        case .serverError: 500
        case .temporarilyUnavailable: 503
        }
    }

    var code: String {
        switch self {
        case .invalidRequest: "invalid_request"
        case .invalidToken: "invalid_token"
        case .insufficientUserAuthentication: StepUpChallenge.code
        case .wrongPassword: "invalid_grant"
        case .weakPassword: "weak_password"
        case .slowDown: "slow_down"
        case .notFound: "not_found"
        case .serverError: "server_error"
        case .temporarilyUnavailable: "temporarily_unavailable"
        }
    }

    /// The English text sent in `error_description` (never a submitted value).
    var protocolDescription: String {
        switch self {
        case .invalidRequest(let why): why
        case .invalidToken: OAuthError.invalidToken.protocolDescription
        case .insufficientUserAuthentication(let maxAge): StepUpChallenge.description(maxAge: maxAge)
        case .wrongPassword: "The current password is not correct."
        case .weakPassword(let violation): violation.englishDescription
        case .slowDown(let seconds): OAuthError.slowDown(retryAfter: seconds).protocolDescription
        case .notFound: "No such session."
        case .serverError: OAuthError.serverError.protocolDescription
        case .temporarilyUnavailable(let seconds): OAuthError.temporarilyUnavailable(retryAfter: seconds).protocolDescription
        }
    }

    /// The HTTP answer: the `Error` body, with `WWW-Authenticate` on a 401 and `Retry-After` on a 429 or 503.
    var response: HTTPResponse {
        switch self {
        case .insufficientUserAuthentication(let maxAge):
            return StepUpChallenge.response(maxAge: maxAge)
        case .invalidToken:
            return AuthService.bearerError(.invalidToken)
        case .slowDown(let seconds):
            return AuthService.oauthError(.slowDown(retryAfter: seconds))
        case .temporarilyUnavailable(let seconds):
            return AuthService.oauthError(.temporarilyUnavailable(retryAfter: seconds))
        default:
            return .error(status: status, code: code, description: protocolDescription)
        }
    }
}

extension AccountEndpointError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .invalidRequest(let why): return OAuthError.invalidRequest(why).errorDescription
        case .invalidToken: return OAuthError.invalidToken.errorDescription
        case .insufficientUserAuthentication(let maxAge): return StepUpChallenge.text(maxAge: maxAge, lang)
        case .wrongPassword:
            return lang.pick(english: "The current password is not correct.", korean: "현재 비밀번호가 올바르지 않습니다.")
        case .weakPassword(let violation): return violation.errorDescription
        case .slowDown(let seconds): return OAuthError.slowDown(retryAfter: seconds).errorDescription
        case .notFound: return lang.pick(english: "No such session.", korean: "해당 세션이 없습니다.")
        case .serverError: return OAuthError.serverError.errorDescription
        case .temporarilyUnavailable(let seconds): return OAuthError.temporarilyUnavailable(retryAfter: seconds).errorDescription
        }
    }
}
