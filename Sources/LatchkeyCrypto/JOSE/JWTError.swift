import Foundation

/// Why a JWT was rejected.
public enum JWTError: Error, Sendable, Equatable, LocalizedError {
    /// Not a well-formed compact JWS/JWT (parts, base64url, JSON, claim types, size).
    case malformed
    /// The header names an algorithm LatchkeyCrypto never accepts (`none`, HS256, ...).
    case unsupportedAlgorithm(String)
    /// The algorithm is not in the allow-list, or does not suit the key.
    case algorithmNotAllowed
    /// No key matches the header's `kid` (nil when the token has no `kid`).
    case unknownKey(String?)
    /// The signature does not verify.
    case badSignature
    /// `exp` has passed (beyond the clock skew).
    case expired
    /// `nbf` is still in the future (beyond the clock skew).
    case notYetValid
    /// `iat` is in the future (beyond the clock skew).
    case issuedInFuture
    /// `iss` is not the expected issuer.
    case wrongIssuer
    /// `aud` names none of the expected audiences.
    case wrongAudience
    /// The header `typ` is not the expected type.
    case wrongType
    /// A required claim is missing.
    case missingClaim(String)

    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .malformed:
            return lang.pick(english: "The token is malformed.", korean: "토큰 형식이 잘못되었습니다.")
        case let .unsupportedAlgorithm(name):
            return lang.pick(english: "The token uses an unsupported algorithm (\(name)).",
                             korean: "토큰이 지원되지 않는 알고리즘(\(name))을 사용합니다.")
        case .algorithmNotAllowed:
            return lang.pick(english: "The token's algorithm is not allowed for this key.",
                             korean: "이 키에는 토큰의 알고리즘이 허용되지 않습니다.")
        case let .unknownKey(kid):
            return lang.pick(english: "No key matches the token's key ID (\(kid ?? "none")).",
                             korean: "토큰의 키 ID(\(kid ?? "없음"))와 일치하는 키가 없습니다.")
        case .badSignature:
            return lang.pick(english: "The token's signature is invalid.", korean: "토큰 서명이 올바르지 않습니다.")
        case .expired:
            return lang.pick(english: "The token has expired.", korean: "토큰이 만료되었습니다.")
        case .notYetValid:
            return lang.pick(english: "The token is not valid yet.", korean: "토큰이 아직 유효하지 않습니다.")
        case .issuedInFuture:
            return lang.pick(english: "The token was issued in the future.", korean: "토큰 발급 시각이 미래입니다.")
        case .wrongIssuer:
            return lang.pick(english: "The token comes from an unexpected issuer.", korean: "토큰 발급자가 예상과 다릅니다.")
        case .wrongAudience:
            return lang.pick(english: "The token is not meant for this audience.", korean: "토큰의 대상(audience)이 맞지 않습니다.")
        case .wrongType:
            return lang.pick(english: "The token has an unexpected type.", korean: "토큰 유형(typ)이 예상과 다릅니다.")
        case let .missingClaim(name):
            return lang.pick(english: "The token lacks the required claim \(name).",
                             korean: "토큰에 필수 클레임 \(name)이(가) 없습니다.")
        }
    }
}
