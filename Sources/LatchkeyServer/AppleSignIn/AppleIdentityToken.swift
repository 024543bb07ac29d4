import Foundation

/// A boolean Apple sends either as JSON `true`/`false` or as the strings "true"/"false".
public struct AppleBool: Sendable, Hashable, Codable {
    public var value: Bool
    public init(_ value: Bool) { self.value = value }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { value = b; return }
        switch try c.decode(String.self).lowercased() {
        case "true": value = true
        case "false": value = false
        default: throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a boolean")
        }
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(value)
    }
}

/// The claims of a verified Sign in with Apple identity token.
public struct AppleIdentity: Sendable, Hashable, Codable {
    /// The stable user identifier (per team). Accounts are keyed on this, never on the email.
    public var subject: String
    public var audience: String
    public var email: String?
    public var emailVerified: Bool?
    public var isPrivateEmail: Bool?
    /// 0 unsupported, 1 unknown, 2 likely real (Apple's `real_user_status`).
    public var realUserStatus: Int?
    public var issuedAt: Date
    public var expiresAt: Date
}

/// The raw claims as Apple writes them.
struct AppleIdentityClaims: Decodable {
    var iss: String?
    var sub: String?
    var aud: AudienceClaim?
    var exp: Double?
    var iat: Double?
    var nonce: String?
    var nonce_supported: AppleBool?
    var email: String?
    var email_verified: AppleBool?
    var is_private_email: AppleBool?
    var real_user_status: Int?

    /// `aud` as a string or an array of strings.
    struct AudienceClaim: Decodable {
        var values: [String]
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let one = try? c.decode(String.self) { values = [one] } else { values = try c.decode([String].self) }
        }
    }
}
