import Foundation
import LatchkeyCrypto

/// Why a Sign in with Apple token, exchange or notification was refused.
public enum AppleSignInError: Error, Sendable, Equatable {
    /// Not a compact JWS, or its claims are not the expected JSON.
    case malformedToken
    /// The header's `alg` is not RS256 (HS256, none and the rest are refused).
    case algorithmNotAllowed(String)
    /// No key with this `kid` in Apple's key set, even after a refetch.
    case unknownKey(String?)
    case badSignature
    case wrongIssuer
    case wrongAudience
    case expired
    case issuedInFuture
    case missingClaim(String)
    /// The token's `nonce` is not the one derived from the client's raw nonce (or is missing).
    case nonceMismatch
    /// Apple's key set could not be fetched (network or HTTP status), or did not parse.
    case keySetUnavailable(String)
    /// Apple answered an exchange or revocation with an error (`invalid_grant`, ...).
    case appleRejected(status: Int, error: String)
    /// The client secret cannot be made: team id, key id or private key is not configured.
    case clientSecretUnavailable
    /// A notification's `events` claim did not parse, or names an unknown event type.
    case malformedEvent(String)
    /// This notification (`jti`) was already processed.
    case duplicateNotification
}

extension AppleSignInError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        let (en, ko): (String, String)
        switch self {
        case .malformedToken: (en, ko) = ("The Apple token is malformed.", "Apple 토큰 형식이 잘못되었습니다.")
        case let .algorithmNotAllowed(a): (en, ko) = ("Algorithm \(a) is not allowed for Apple tokens.", "Apple 토큰에 \(a) 알고리즘은 허용되지 않습니다.")
        case let .unknownKey(kid): (en, ko) = ("Apple has no key \(kid ?? "(none)").", "Apple 키 \(kid ?? "(없음)")을(를) 찾을 수 없습니다.")
        case .badSignature: (en, ko) = ("The Apple token's signature is invalid.", "Apple 토큰 서명이 유효하지 않습니다.")
        case .wrongIssuer: (en, ko) = ("The token was not issued by Apple.", "Apple이 발급한 토큰이 아닙니다.")
        case .wrongAudience: (en, ko) = ("The token is for another app.", "다른 앱을 위한 토큰입니다.")
        case .expired: (en, ko) = ("The Apple token has expired.", "Apple 토큰이 만료되었습니다.")
        case .issuedInFuture: (en, ko) = ("The Apple token is issued in the future.", "Apple 토큰의 발급 시각이 미래입니다.")
        case let .missingClaim(c): (en, ko) = ("The Apple token lacks the claim \(c).", "Apple 토큰에 \(c) 클레임이 없습니다.")
        case .nonceMismatch: (en, ko) = ("The nonce does not match the sign-in request.", "nonce가 로그인 요청과 일치하지 않습니다.")
        case let .keySetUnavailable(w): (en, ko) = ("Apple's keys are unavailable: \(w).", "Apple 키를 가져올 수 없습니다: \(w).")
        case let .appleRejected(s, e): (en, ko) = ("Apple refused the request (\(s) \(e)).", "Apple이 요청을 거부했습니다 (\(s) \(e)).")
        case .clientSecretUnavailable: (en, ko) = ("Sign in with Apple is not configured (team id, key id, key).", "Apple 로그인이 설정되지 않았습니다 (팀 ID, 키 ID, 키).")
        case let .malformedEvent(w): (en, ko) = ("The Apple notification is malformed: \(w).", "Apple 알림 형식이 잘못되었습니다: \(w).")
        case .duplicateNotification: (en, ko) = ("This Apple notification was already processed.", "이미 처리된 Apple 알림입니다.")
        }
        return lang.pick(english: en, korean: ko)
    }
}
