import Foundation
import LatchkeyCrypto

/// Verifies Sign in with Apple identity tokens: RS256 only, key by `kid` from Apple's key set,
/// `iss` exactly Apple, `aud` in the allow-list, `exp`/`iat` with skew, and the nonce.
public struct AppleIdentityTokenVerifier: Sendable {
    public let configuration: AppleSignInConfiguration
    public let keys: AppleKeyStore
    let now: @Sendable () -> Date

    public init(configuration: AppleSignInConfiguration, keys: AppleKeyStore, now: @escaping @Sendable () -> Date = Date.init) {
        self.configuration = configuration
        self.keys = keys
        self.now = now
    }

    /// Verifies `token`. `rawNonce` is the nonce the client generated (before hashing); when given,
    /// the token must carry its SHA-256 hex (native) or the raw value (web), per `nonceEncoding`.
    /// Without it, a token whose `nonce_supported` is true is refused.
    public func verify(_ token: String, rawNonce: String?) async throws(AppleSignInError) -> AppleIdentity {
        let jws: JWS
        do { jws = try JWS(compactSerialization: token, maximumSize: 16 * 1024) } catch {
            if case let .unsupportedAlgorithm(name) = error { throw .algorithmNotAllowed(name) }
            throw .malformedToken
        }
        guard jws.header.alg == .RS256 else { throw .algorithmNotAllowed(jws.header.alg.rawValue) }
        let key = try await keys.key(id: jws.header.kid)
        let options = JWTValidationOptions(allowedAlgorithms: [.RS256], issuer: configuration.issuer,
                                           audiences: configuration.clientIDs, clockSkew: configuration.clockSkew,
                                           now: now(), requireExpiration: true, requiredClaims: ["sub", "iat"])
        let verified: VerifiedJWT
        do { verified = try JWT.verify(token, key: key, options: options) } catch {
            throw Self.map(error)
        }
        let claims: AppleIdentityClaims
        do { claims = try verified.decode(AppleIdentityClaims.self) } catch { throw .malformedToken }
        guard let sub = claims.sub, !sub.isEmpty else { throw .missingClaim("sub") }
        guard let exp = claims.exp, let iat = claims.iat else { throw .missingClaim("exp") }
        guard let aud = claims.aud?.values.first(where: configuration.clientIDs.contains) else { throw .wrongAudience }

        if let rawNonce {
            let expected = configuration.nonceEncoding == .sha256Hex
                ? SHA256.hash(data: Data(rawNonce.utf8)).hexString : rawNonce
            guard let nonce = claims.nonce, ConstantTime.equals(Data(nonce.utf8), Data(expected.utf8)) else {
                throw .nonceMismatch
            }
        } else if claims.nonce_supported?.value == true || claims.nonce != nil {
            throw .nonceMismatch
        }
        return AppleIdentity(subject: sub, audience: aud, email: claims.email, emailVerified: claims.email_verified?.value,
                             isPrivateEmail: claims.is_private_email?.value, realUserStatus: claims.real_user_status,
                             issuedAt: Date(timeIntervalSince1970: iat), expiresAt: Date(timeIntervalSince1970: exp))
    }

    static func map(_ error: JWTError) -> AppleSignInError {
        switch error {
        case .malformed: .malformedToken
        case let .unsupportedAlgorithm(name): .algorithmNotAllowed(name)
        case .algorithmNotAllowed: .algorithmNotAllowed("?")
        case let .unknownKey(kid): .unknownKey(kid)
        case .badSignature: .badSignature
        case .expired: .expired
        case .notYetValid, .issuedInFuture: .issuedInFuture
        case .wrongIssuer: .wrongIssuer
        case .wrongAudience: .wrongAudience
        case .wrongType: .malformedToken
        case let .missingClaim(name): .missingClaim(name)
        }
    }
}
