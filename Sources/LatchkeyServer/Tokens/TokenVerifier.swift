import Foundation
import LatchkeyCrypto

/// Why an access token was refused. Texts never contain the token.
public enum TokenVerificationError: Error, Sendable, Equatable {
    case malformed
    /// `alg` is not ES256 (the only algorithm allowed), e.g. `none` or `HS256`.
    case disallowedAlgorithm
    /// `typ` is not `at+jwt`.
    case wrongType
    /// No published key has this `kid`.
    case unknownKey
    case badSignature
    case wrongIssuer
    case wrongAudience
    case expired
    /// `iat` lies in the future beyond the allowed skew.
    case issuedInFuture
}

extension TokenVerificationError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .malformed: return lang.pick(english: "The access token is malformed.", korean: "액세스 토큰 형식이 잘못되었습니다.")
        case .disallowedAlgorithm: return lang.pick(english: "The token's algorithm is not allowed.", korean: "허용되지 않는 토큰 알고리즘입니다.")
        case .wrongType: return lang.pick(english: "The token is not an access token (typ).", korean: "액세스 토큰이 아닙니다 (typ).")
        case .unknownKey: return lang.pick(english: "The token's signing key is unknown.", korean: "토큰 서명 키를 알 수 없습니다.")
        case .badSignature: return lang.pick(english: "The token's signature is invalid.", korean: "토큰 서명이 유효하지 않습니다.")
        case .wrongIssuer: return lang.pick(english: "The token's issuer is not trusted.", korean: "토큰 발급자를 신뢰할 수 없습니다.")
        case .wrongAudience: return lang.pick(english: "The token is meant for another audience.", korean: "다른 대상을 위한 토큰입니다.")
        case .expired: return lang.pick(english: "The access token has expired.", korean: "액세스 토큰이 만료되었습니다.")
        case .issuedInFuture: return lang.pick(english: "The token was issued in the future.", korean: "토큰 발급 시각이 미래입니다.")
        }
    }
}

/// Checks access tokens offline against a JWKS: JWS shape, `alg` ES256 only (allow-list), `typ` at+jwt,
/// `kid` among the published keys, the signature, `iss` exactly, `aud` containing the audience, `exp`
/// (with `leeway` seconds of skew) and `iat` not in the future. Resource servers use this without
/// calling the auth server; revocation is seen only by the auth server's own `/v1/me` check, so keep
/// access tokens short-lived.
public struct TokenVerifier: Sendable {
    public let issuer: String
    public let audience: String
    public let leeway: Int64
    private let keys: [String: P256.Signing.PublicKey]
    private let clock: any ServerClock
    /// What every token must satisfy, built once (only `now` changes per call).
    private let options: JWTValidationOptions

    /// A verifier over the keys of `keySet`.
    public init(keySet: PublishedKeySet, issuer: String, audience: String, leeway: Int64 = 60,
                clock: any ServerClock = SystemClock()) {
        var keys: [String: P256.Signing.PublicKey] = [:]
        for key in keySet.keys { if let publicKey = try? key.publicKey() { keys[key.kid] = publicKey } }
        self.init(keys: keys, issuer: issuer, audience: audience, leeway: leeway, clock: clock)
    }

    /// A verifier over public keys by `kid` (the signing key ring's own, without a JWK round trip).
    init(keys: [String: P256.Signing.PublicKey], issuer: String, audience: String, leeway: Int64, clock: any ServerClock) {
        self.keys = keys
        self.issuer = issuer; self.audience = audience; self.leeway = leeway; self.clock = clock
        options = JWTValidationOptions(allowedAlgorithms: [.ES256], issuer: issuer, audiences: [audience],
                                       clockSkew: TimeInterval(leeway), requireExpiration: true,
                                       expectedType: "at+jwt", requiredClaims: ["sub", "iat", "jti", "client_id", "sid"])
    }

    /// A verifier over a JWKS document (`GET /.well-known/jwks.json`).
    public init(jwksJSON: Data, issuer: String, audience: String, leeway: Int64 = 60,
                clock: any ServerClock = SystemClock()) throws {
        self.init(keySet: try PublishedKeySet(jsonData: jwksJSON), issuer: issuer, audience: audience,
                  leeway: leeway, clock: clock)
    }

    /// The key ids this verifier accepts.
    public var keyIDs: Set<String> { Set(keys.keys) }

    /// The verified claims of `token` (through LatchkeyCrypto's `JWT.verify`).
    public func verify(_ token: String) throws(TokenVerificationError) -> AccessTokenClaims {
        guard token.utf8.count <= AccessTokenCodec.maximumLength else { throw .malformed }
        var options = self.options
        options.now = clock.now()
        let verified: VerifiedJWT
        do {
            verified = try JWT.verify(token, options: options) { kid in kid.flatMap { keys[$0] }.map { .p256($0) } }
        } catch {
            throw TokenVerificationError(error)
        }
        // Built from the claims JWT.verify already parsed (no second JSON pass).
        let c = verified.claims
        guard let iss = c.iss, let sub = c.sub, let aud = c.aud, let exp = c.exp, let iat = c.iat, let jti = c.jti,
              let clientID = c[claim: "client_id"]?.stringValue, let sid = c[claim: "sid"]?.stringValue
        else { throw .malformed }
        var amr: [String]?
        if let elements = c[claim: "amr"]?.arrayValue {
            amr = elements.compactMap(\.stringValue)
            guard amr?.count == elements.count else { throw .malformed }
        }
        var claims = AccessTokenClaims(iss: iss, sub: sub, aud: aud.count == 1 ? aud[0] : aud.joined(separator: " "),
                                       exp: Int64(exp.timeIntervalSince1970.rounded()), iat: Int64(iat.timeIntervalSince1970.rounded()),
                                       jti: jti, clientID: clientID, scope: c[claim: "scope"]?.stringValue ?? "", sid: sid,
                                       authTime: c[claim: "auth_time"]?.intValue, amr: amr)
        if aud.count != 1 { claims.audiences = aud }
        return claims
    }
}

extension TokenVerificationError {
    init(_ error: JWTError) {
        switch error {
        case .unsupportedAlgorithm, .algorithmNotAllowed: self = .disallowedAlgorithm
        case .unknownKey: self = .unknownKey
        case .badSignature: self = .badSignature
        case .expired: self = .expired
        case .notYetValid, .issuedInFuture: self = .issuedInFuture
        case .wrongIssuer: self = .wrongIssuer
        case .wrongAudience: self = .wrongAudience
        case .wrongType: self = .wrongType
        case .malformed, .missingClaim: self = .malformed
        }
    }
}
