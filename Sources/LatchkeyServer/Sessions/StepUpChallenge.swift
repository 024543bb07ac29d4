import Foundation
import LatchkeyCrypto

/// The answer of a route that needs a recent sign-in when the Bearer token's `auth_time` is too old (RFC 9470 §3):
/// 401 with `WWW-Authenticate: Bearer error="insufficient_user_authentication", error_description="…", max_age=N`
/// and the `Error` body with `error` and `max_age`. The client signs in again with the same Bearer token (a step-up
/// of its session, which renews `auth_time`) and retries.
enum StepUpChallenge {
    static let code = "insufficient_user_authentication"

    static func description(maxAge: Int64) -> String {
        "A more recent sign-in is required: sign in again within \(maxAge) seconds of this request."
    }

    static func text(maxAge: Int64, _ language: MessageLanguage) -> String {
        language.pick(english: "Sign in again to continue (a sign-in within \(maxAge) seconds is required).",
                      korean: "계속하려면 다시 로그인하세요 (\(maxAge)초 이내의 로그인이 필요합니다).")
    }

    static let accountMismatchDescription = "The credentials belong to another account than the Bearer token's."

    static func accountMismatchText(_ language: MessageLanguage) -> String {
        language.pick(english: "The sign-in is of another account than the signed-in one.",
                      korean: "로그인한 계정과 다른 계정으로 로그인했습니다.")
    }

    /// The 401 answer with the challenge and the body's `max_age`.
    static func response(maxAge: Int64) -> HTTPResponse {
        var response = HTTPResponse.json(HTTPErrorBody(error: code, errorDescription: description(maxAge: maxAge),
                                                       maxAge: maxAge), status: 401)
        response.headers.append((name: "WWW-Authenticate", value: """
            Bearer error="\(code)", error_description="\(description(maxAge: maxAge))", max_age=\(maxAge)
            """))
        return response
    }
}

extension AuthService {
    /// Verifies a Bearer token as `authenticate(_:)` does and checks that its `auth_time` lies within
    /// `configuration.stepUpMaxAge` seconds (`insufficientUserAuthentication` otherwise, also for a token without one).
    public func authenticateRecently(_ authorization: String?) throws(OAuthError) -> AccessTokenClaims {
        let claims = try authenticate(authorization)
        try requireRecentAuthentication(claims)
        return claims
    }

    /// Throws `insufficientUserAuthentication` unless `claims.authTime` lies within `configuration.stepUpMaxAge` seconds.
    public func requireRecentAuthentication(_ claims: AccessTokenClaims) throws(OAuthError) {
        let maxAge = configuration.stepUpMaxAge
        guard let authTime = claims.authTime, clock.seconds - authTime <= maxAge else {
            throw .insufficientUserAuthentication(maxAge: maxAge)
        }
    }

    /// The session a sign-in request re-authenticates: the claims of its `Authorization: Bearer` token, whose session
    /// must be live. The token may have expired up to its lifetime ago (a passkey or Apple ceremony can outlast it).
    /// Nil without a Bearer token (another scheme is ignored, as before step-up existed); `invalidToken` for a token
    /// that does not verify or whose session ended.
    public func stepUpClaims(_ authorization: String?) throws(OAuthError) -> AccessTokenClaims? {
        guard let authorization, let scheme = authorization.utf8.split(separator: UInt8(ascii: " ")).first,
              asciiCaseInsensitiveEquals(String(Substring(scheme)), "bearer") else { return nil }
        guard let token = Self.bearerToken(authorization), let claims = try? verifiedClaims(token, allowExpired: true) else {
            throw .invalidToken
        }
        do {
            guard try database.isSessionActive(id: claims.sid, now: clock.seconds) else { throw OAuthError.invalidToken }
        } catch {
            throw OAuthError.storage(error)
        }
        return claims
    }
}
