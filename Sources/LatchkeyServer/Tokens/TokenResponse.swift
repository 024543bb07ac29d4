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

extension TokenResponse {
    /// The JSON body the token endpoint sends: the bytes the server's `JSONEncoder` writes for this value
    /// (sorted keys, absent optionals left out), built directly since every refresh answers with one.
    var jsonBody: Data {
        var out = JSONObjectWriter(capacity: 96 + accessToken.utf8.count + (refreshToken?.utf8.count ?? 0)
                                       + (scope?.utf8.count ?? 0))
        out.member("access_token", accessToken)
        out.member("expires_in", Int64(expiresIn))
        if let refreshToken { out.member("refresh_token", refreshToken) }
        if let scope { out.member("scope", scope) }
        out.member("token_type", tokenType)
        return out.finish()
    }
}
