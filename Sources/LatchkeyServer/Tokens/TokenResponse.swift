import Foundation

/// The successful token response of RFC 6749 §5.1, as every OAuth client expects it.
public struct TokenResponse: Codable, Sendable, Equatable {
    public var accessToken: String
    public var tokenType: String
    /// Seconds until the access token expires.
    public var expiresIn: Int
    public var refreshToken: String?
    public var scope: String?

    public init(accessToken: String, tokenType: String = "Bearer", expiresIn: Int, refreshToken: String?, scope: String?) {
        self.accessToken = accessToken; self.tokenType = tokenType; self.expiresIn = expiresIn
        self.refreshToken = refreshToken; self.scope = scope
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
    }
}
