import Foundation
import LatchkeyCrypto

/// How the server talks to Sign in with Apple. Every URL is configurable so tests run against a
/// local fake of Apple's endpoints; the defaults are Apple's.
public struct AppleSignInConfiguration: Sendable {
    /// Apple's Sign in with Apple endpoint root.
    public static let appleBaseURL = URL(string: "https://appleid.apple.com")!  // a valid literal
    /// Bundle ids (native apps) and Services IDs (web) whose tokens are accepted (`aud` allow-list).
    public var clientIDs: Set<String>
    /// How the `nonce` claim relates to the raw nonce the client sends.
    public enum NonceEncoding: Sendable { case sha256Hex, raw }
    /// Native apps send SHA-256 hex of the raw nonce in the request; the web flow passes it raw.
    public var nonceEncoding: NonceEncoding
    public var issuer: String
    public var keysURL: URL
    public var tokenURL: URL
    public var revokeURL: URL
    /// Tolerance for `exp` / `iat`.
    public var clockSkew: TimeInterval
    /// How long a fetched key set is used before it is fetched again.
    public var keyCacheLifetime: TimeInterval
    /// An unknown `kid` triggers a refetch at most this often (a flood of forged kids cannot hammer Apple).
    public var minimumRefetchInterval: TimeInterval
    /// For the client secret: team id, key id and the `.p8` key of Sign in with Apple.
    public var teamID: String?
    public var keyID: String?
    public var privateKey: P256.Signing.PrivateKey?

    public init(clientIDs: Set<String>, nonceEncoding: NonceEncoding = .sha256Hex,
                issuer: String = "https://appleid.apple.com",
                baseURL: URL = AppleSignInConfiguration.appleBaseURL,
                clockSkew: TimeInterval = 60, keyCacheLifetime: TimeInterval = 3600, minimumRefetchInterval: TimeInterval = 60,
                teamID: String? = nil, keyID: String? = nil, privateKey: P256.Signing.PrivateKey? = nil) {
        self.clientIDs = clientIDs
        self.nonceEncoding = nonceEncoding
        self.issuer = issuer
        self.keysURL = baseURL.appendingPathComponent("auth/keys")
        self.tokenURL = baseURL.appendingPathComponent("auth/token")
        self.revokeURL = baseURL.appendingPathComponent("auth/revoke")
        self.clockSkew = clockSkew
        self.keyCacheLifetime = keyCacheLifetime
        self.minimumRefetchInterval = minimumRefetchInterval
        self.teamID = teamID
        self.keyID = keyID
        self.privateKey = privateKey
    }
}
