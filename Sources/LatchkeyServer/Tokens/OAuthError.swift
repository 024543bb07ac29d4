import Foundation
import LatchkeyCrypto

/// Token-endpoint errors (RFC 6749 §5.2) and their HTTP answers.
public enum OAuthError: Error, Sendable, Equatable {
    case invalidRequest(String)
    case invalidGrant
    case unsupportedGrantType
    case invalidClient
    case invalidScope
    case invalidToken
    /// Throttled: try again after the given number of seconds.
    case slowDown(retryAfter: Int64)
    case serverError
    /// The database is restarting or overloaded: try again after the given number of seconds (503).
    case temporarilyUnavailable(retryAfter: Int64)
    /// A step-up's credentials belong to another account than its Bearer token's (403).
    case accountMismatch
    /// The Bearer token's `auth_time` is older than `maxAge` seconds: sign in again (step-up) first (401, RFC 9470).
    case insufficientUserAuthentication(maxAge: Int64)

    /// The answer for a storage failure: 503 for a transient one (`DatabaseError.isTransient`), else 500.
    static func storage(_ error: any Error) -> OAuthError {
        if let error = error as? OAuthError { return error }
        if let database = error as? DatabaseError, database.isTransient { return .temporarilyUnavailable(retryAfter: 2) }
        return .serverError
    }

    /// The `error` code of the JSON body.
    public var code: String {
        switch self {
        case .invalidRequest: "invalid_request"
        case .invalidGrant: "invalid_grant"
        case .unsupportedGrantType: "unsupported_grant_type"
        case .invalidClient: "invalid_client"
        case .invalidScope: "invalid_scope"
        case .invalidToken: "invalid_token"
        case .slowDown: "slow_down"
        case .serverError: "server_error"
        case .temporarilyUnavailable: "temporarily_unavailable"
        case .accountMismatch: "account_mismatch"
        case .insufficientUserAuthentication: StepUpChallenge.code
        }
    }

    /// The HTTP status.
    public var status: Int {
        switch self {
        case .invalidRequest, .invalidGrant, .unsupportedGrantType, .invalidScope: 400
        case .invalidClient, .invalidToken, .insufficientUserAuthentication: 401
        case .accountMismatch: 403
        case .slowDown: 429
        case .serverError: 500
        case .temporarilyUnavailable: 503
        }
    }

    /// The English `error_description` (protocol text; never names an account or echoes a secret).
    public var protocolDescription: String {
        switch self {
        case .invalidRequest(let why): why
        case .invalidGrant: "The credentials or the grant are invalid, expired or revoked."
        case .unsupportedGrantType: "The grant_type is not supported."
        case .invalidClient: "Client authentication failed."
        case .invalidScope: "The requested scope is invalid."
        case .invalidToken: "The access token is missing, invalid, expired or revoked."
        case .slowDown(let seconds): "Too many failed attempts; retry after \(seconds) seconds."
        case .serverError: "The server could not complete the request."
        case .temporarilyUnavailable(let seconds): "The service is temporarily unavailable; retry after \(seconds) seconds."
        case .accountMismatch: StepUpChallenge.accountMismatchDescription
        case .insufficientUserAuthentication(let maxAge): StepUpChallenge.description(maxAge: maxAge)
        }
    }
}

extension OAuthError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .invalidRequest(let why): return lang.pick(english: "Invalid request: \(why)", korean: "잘못된 요청: \(why)")
        case .invalidGrant: return lang.pick(english: "The credentials or the grant are invalid.", korean: "자격 증명 또는 그랜트가 유효하지 않습니다.")
        case .unsupportedGrantType: return lang.pick(english: "Unsupported grant type.", korean: "지원되지 않는 그랜트 유형입니다.")
        case .invalidClient: return lang.pick(english: "Client authentication failed.", korean: "클라이언트 인증에 실패했습니다.")
        case .invalidScope: return lang.pick(english: "Invalid scope.", korean: "잘못된 범위입니다.")
        case .invalidToken: return lang.pick(english: "The access token is invalid.", korean: "액세스 토큰이 유효하지 않습니다.")
        case .slowDown(let s): return lang.pick(english: "Too many attempts; retry after \(s) s.", korean: "시도가 너무 많습니다. \(s)초 후 다시 시도하세요.")
        case .serverError: return lang.pick(english: "Server error.", korean: "서버 오류입니다.")
        case .temporarilyUnavailable(let s):
            return lang.pick(english: "The service is temporarily unavailable; retry after \(s) s.",
                             korean: "서비스를 잠시 사용할 수 없습니다. \(s)초 후 다시 시도하세요.")
        case .accountMismatch: return StepUpChallenge.accountMismatchText(lang)
        case .insufficientUserAuthentication(let maxAge): return StepUpChallenge.text(maxAge: maxAge, lang)
        }
    }
}
