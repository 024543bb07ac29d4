/// What a token endpoint answered (RFC 6749 §5.1), before it is turned into `AuthTokens`.
public struct TokenGrant: Sendable, Hashable, Decodable {
    /// The new access token.
    public var accessToken: String
    /// The token type (`Bearer`).
    public var tokenType: String
    /// Seconds until the access token expires, if the server said.
    public var expiresIn: Double?
    /// A new refresh token (rotation); `nil` means keep using the old one.
    public var refreshToken: String?
    /// The granted scope, if the server said.
    public var scope: String?

    /// Creates a grant.
    public init(accessToken: String, tokenType: String = "Bearer", expiresIn: Double?, refreshToken: String?,
                scope: String? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.scope = scope
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
    }
}

/// Obtains new tokens with a refresh token. `OAuthTokenRefresher` is the RFC 6749 §6 implementation.
public protocol TokenRefresher: Sendable {
    /// Exchanges `refreshToken` for a new grant. Throws `.invalidGrant` when the server refuses the token.
    func refresh(using refreshToken: String, scope: String?) async throws(TokenRefreshError) -> TokenGrant
}
