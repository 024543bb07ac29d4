import Foundation

/// The claims of an access token (RFC 9068 JWT profile) plus `sid`, the session it belongs to.
public struct AccessTokenClaims: Codable, Sendable, Equatable {
    public var iss: String
    /// The account id.
    public var sub: String
    public var aud: String
    public var exp: Int64
    public var iat: Int64
    public var jti: String
    public var clientID: String
    /// Space-separated scopes.
    public var scope: String
    /// The session (refresh-token family) id: revoking the session kills the token at `/v1/me`.
    public var sid: String
    /// Unix seconds of the session's last real sign-in (RFC 9470 `auth_time`): a refresh keeps it, only a sign-in
    /// (a step-up of the same session) renews it. Nil in a token issued before the server wrote it.
    public var authTime: Int64?
    /// How that sign-in was made (RFC 8176 `amr`, see `SignInProof`). Nil when not written.
    public var amr: [String]?

    public init(iss: String, sub: String, aud: String, exp: Int64, iat: Int64, jti: String, clientID: String,
                scope: String, sid: String, authTime: Int64? = nil, amr: [String]? = nil) {
        self.iss = iss; self.sub = sub; self.aud = aud; self.exp = exp; self.iat = iat; self.jti = jti
        self.clientID = clientID; self.scope = scope; self.sid = sid; self.authTime = authTime; self.amr = amr
    }

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, jti, scope, sid, amr
        case clientID = "client_id"
        case authTime = "auth_time"
    }

    /// `aud` may arrive as a string or an array of strings (RFC 7519 §4.1.3); it is kept as one string
    /// here when the array holds exactly the expected audience (checked by `TokenVerifier`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        iss = try c.decode(String.self, forKey: .iss)
        sub = try c.decode(String.self, forKey: .sub)
        if let single = try? c.decode(String.self, forKey: .aud) {
            aud = single
        } else {
            let many = try c.decode([String].self, forKey: .aud)
            aud = many.joined(separator: " ")
            audiences = many
        }
        exp = try c.decode(Int64.self, forKey: .exp)
        iat = try c.decode(Int64.self, forKey: .iat)
        jti = try c.decode(String.self, forKey: .jti)
        clientID = try c.decode(String.self, forKey: .clientID)
        scope = try c.decodeIfPresent(String.self, forKey: .scope) ?? ""
        sid = try c.decode(String.self, forKey: .sid)
        authTime = try c.decodeIfPresent(Int64.self, forKey: .authTime)
        amr = try c.decodeIfPresent([String].self, forKey: .amr)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(iss, forKey: .iss); try c.encode(sub, forKey: .sub); try c.encode(aud, forKey: .aud)
        try c.encode(exp, forKey: .exp); try c.encode(iat, forKey: .iat); try c.encode(jti, forKey: .jti)
        try c.encode(clientID, forKey: .clientID); try c.encode(scope, forKey: .scope); try c.encode(sid, forKey: .sid)
        try c.encodeIfPresent(authTime, forKey: .authTime); try c.encodeIfPresent(amr, forKey: .amr)
    }

    /// The audiences when `aud` was an array.
    var audiences: [String]? = nil

    /// True when the token is meant for `audience`.
    public func isIntended(for audience: String) -> Bool {
        if let audiences { return audiences.contains(audience) }
        return aud == audience
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.iss == b.iss && a.sub == b.sub && a.aud == b.aud && a.exp == b.exp && a.iat == b.iat && a.jti == b.jti
            && a.clientID == b.clientID && a.scope == b.scope && a.sid == b.sid && a.authTime == b.authTime && a.amr == b.amr
    }
}
