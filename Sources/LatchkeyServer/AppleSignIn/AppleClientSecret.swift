import Foundation
import LatchkeyCrypto

/// The `client_secret` Apple's token and revoke endpoints require: an ES256 JWT signed with the team's
/// Sign in with Apple key (`.p8`), `kid` = key id, `iss` = team id, `sub` = client id,
/// `aud` = https://appleid.apple.com, valid at most six months. The signature is JOSE's raw r||s.
public enum AppleClientSecret {
    /// Apple's limit on the secret's life.
    public static let maximumLifetime: TimeInterval = 180 * 24 * 3600

    struct Claims: Encodable {
        var iss: String
        var iat: Int64
        var exp: Int64
        var aud: String
        var sub: String
    }

    public static func make(teamID: String, keyID: String, clientID: String, privateKey: P256.Signing.PrivateKey,
                            audience: String = "https://appleid.apple.com", now: Date,
                            lifetime: TimeInterval = 3600) throws(AppleSignInError) -> String {
        let life = min(max(lifetime, 60), maximumLifetime)
        let iat = Int64(now.timeIntervalSince1970)
        let claims = Claims(iss: teamID, iat: iat, exp: iat + Int64(life), aud: audience, sub: clientID)
        do {
            return try JWT.sign(claims: claims, header: JWSHeader(alg: .ES256, kid: keyID), key: .p256(privateKey))
        } catch {
            throw .clientSecretUnavailable
        }
    }
}
