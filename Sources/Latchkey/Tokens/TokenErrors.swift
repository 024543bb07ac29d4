import Foundation
import LatchkeyCrypto

/// Why a refresh request failed.
public enum TokenRefreshError: Error, Sendable, Hashable {
    /// The server refused the refresh token (`invalid_grant`): it is expired, revoked or was already used.
    case invalidGrant
    /// The request did not reach the server or no answer came back.
    case network(String)
    /// The server answered something that is not a valid token response (the reason, not the body).
    case badResponse(String)
    /// The server answered an error status, with its OAuth `error` code if it sent one.
    case server(status: Int, code: String?)
    /// The refresh's App Attest assertion could not be made, or the server refused it (the tokens are kept).
    case appAttest(AppAttestClientError)
}

extension TokenRefreshError: LocalizedError {
    public var errorDescription: String? {
        let language = MessageLanguage.current
        switch self {
        case .invalidGrant:
            return language.pick(english: "The server refused the refresh token; log in again.",
                                 korean: "서버가 갱신 토큰을 거부했습니다. 다시 로그인하세요.")
        case .network(let why):
            return language.pick(english: "The token server could not be reached: \(why)",
                                 korean: "토큰 서버에 연결할 수 없습니다: \(why)")
        case .badResponse(let why):
            return language.pick(english: "The token server sent an invalid response: \(why)",
                                 korean: "토큰 서버의 응답이 올바르지 않습니다: \(why)")
        case .server(let status, let code):
            let shown = code.map { " (\($0))" } ?? ""
            return language.pick(english: "The token server answered HTTP \(status)\(shown).",
                                 korean: "토큰 서버가 HTTP \(status)\(shown)로 응답했습니다.")
        case .appAttest(let error):
            return language.pick(english: "The refresh's App Attest assertion failed: \(error.message(in: language))",
                                 korean: "갱신 요청의 App Attest 어서션이 실패했습니다: \(error.message(in: language))")
        }
    }
}

/// Why `TokenManager` could not hand out tokens.
public enum TokenManagerError: Error, Sendable, Hashable {
    /// No tokens are stored, or the refresh token was refused and the tokens were deleted: log in again.
    case loggedOut
    /// The stored tokens could not be decoded; they were deleted (the user must log in again).
    case corruptStoredTokens
    /// The tokens need a refresh that failed for a reason other than refusal (kept for a retry).
    case refreshFailed(TokenRefreshError)
    /// The token storage failed (the keychain's status or message; never token contents).
    case storage(String)
}

extension TokenManagerError: LocalizedError {
    public var errorDescription: String? {
        let language = MessageLanguage.current
        switch self {
        case .loggedOut:
            return language.pick(english: "You are logged out; log in again.",
                                 korean: "로그아웃되었습니다. 다시 로그인하세요.")
        case .corruptStoredTokens:
            return language.pick(english: "The stored tokens were damaged and have been removed; log in again.",
                                 korean: "저장된 토큰이 손상되어 삭제했습니다. 다시 로그인하세요.")
        case .refreshFailed(let error):
            let inner = error.errorDescription ?? ""
            return language.pick(english: "The tokens could not be refreshed. \(inner)",
                                 korean: "토큰을 갱신할 수 없습니다. \(inner)")
        case .storage(let why):
            return language.pick(english: "The token storage failed: \(why)",
                                 korean: "토큰 저장소 오류: \(why)")
        }
    }
}
