import Foundation

/// An OAuth 2.0 token set as an app keeps it: access token, refresh token, expiry, type and scope.
///
/// Encoded as JSON with snake_case keys and the expiry as an ISO 8601 string (whatever the encoder's date
/// strategy). `description` never shows the tokens.
public struct AuthTokens: Sendable, Hashable, Codable {
    /// The bearer credential sent with requests.
    public var accessToken: String
    /// The credential that obtains a new access token; `nil` when the server issued none.
    public var refreshToken: String?
    /// When the access token stops being accepted.
    public var expiresAt: Date
    /// The token type (`Bearer`).
    public var tokenType: String
    /// The granted scope, space-separated, if the server said.
    public var scope: String?

    /// Creates a token set.
    public init(accessToken: String, refreshToken: String?, expiresAt: Date, tokenType: String = "Bearer",
                scope: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.tokenType = tokenType
        self.scope = scope
    }

    /// True when the access token expires within `window` seconds of `now` (or already has).
    public func expires(within window: TimeInterval, now: Date) -> Bool {
        expiresAt.timeIntervalSince(now) <= window
    }

    /// True when the access token has expired at `now`.
    public func isExpired(now: Date) -> Bool {
        expiresAt <= now
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresAt = "expires_at"
        case tokenType = "token_type"
        case scope
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType) ?? "Bearer"
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        let text = try container.decode(String.self, forKey: .expiresAt)
        guard let date = ISO8601.date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: .expiresAt, in: container,
                                                   debugDescription: "expires_at is not an ISO 8601 date")
        }
        expiresAt = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encode(ISO8601.string(from: expiresAt), forKey: .expiresAt)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encodeIfPresent(scope, forKey: .scope)
    }
}

extension AuthTokens: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "AuthTokens(type: \(tokenType), expiresAt: \(ISO8601.string(from: expiresAt)), "
            + "refreshable: \(refreshToken != nil), scope: \(scope ?? "-"))"
    }

    public var debugDescription: String { description }

    /// Mirrors without the tokens, so `dump()` and debuggers do not print them.
    public var customMirror: Mirror {
        Mirror(self, children: ["tokenType": tokenType, "expiresAt": expiresAt,
                                "refreshable": refreshToken != nil, "scope": scope as Any])
    }
}

/// ISO 8601 with optional fractional seconds, in UTC.
enum ISO8601 {
    static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func date(from text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
