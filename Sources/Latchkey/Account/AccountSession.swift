import Foundation

/// One signed-in device of the account (`GET /v1/sessions`): a refresh-token family on the server.
public struct AccountSession: Sendable, Hashable, Identifiable, Decodable {
    /// The session's identifier (for `AccountManager.endSession(_:)`).
    public var id: String
    /// When it signed in first.
    public var createdAt: Date
    /// When it was last used (a sign-in, a refresh), if the server knows.
    public var lastUsedAt: Date?
    /// The device name the app gave at sign-in, else the client's User-Agent; `nil` when neither was sent.
    public var deviceName: String?
    /// The client's address as the server saw it.
    public var clientAddress: String?
    /// How the session signed in (`password`, `passkey`, `apple`; a value this kit does not know stays as sent).
    public var signInMethod: String?
    /// The authentication methods of its last sign-in (RFC 8176 values: `pwd`, `hwk`, `user`...).
    public var authenticationMethods: [String]
    /// When it last signed in for real.
    public var authenticatedAt: Date?
    /// This app's own session.
    public var isCurrent: Bool

    public init(id: String, createdAt: Date, lastUsedAt: Date?, deviceName: String?, clientAddress: String?,
                signInMethod: String?, authenticationMethods: [String] = [], authenticatedAt: Date? = nil,
                isCurrent: Bool) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.deviceName = deviceName
        self.clientAddress = clientAddress
        self.signInMethod = signInMethod
        self.authenticationMethods = authenticationMethods
        self.authenticatedAt = authenticatedAt
        self.isCurrent = isCurrent
    }

    /// `signInMethod` when it is one the kit knows.
    public var method: AccountSignInMethod? { signInMethod.flatMap(AccountSignInMethod.init(rawValue:)) }

    enum CodingKeys: String, CodingKey {
        case id, amr, current
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case deviceName = "device_name"
        case clientAddress = "client_address"
        case signInMethod = "sign_in_method"
        case authTime = "auth_time"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        createdAt = try container.decode(ServerInstant.self, forKey: .createdAt).date
        lastUsedAt = try container.decodeIfPresent(ServerInstant.self, forKey: .lastUsedAt)?.date
        deviceName = try container.decodeIfPresent(String.self, forKey: .deviceName)
        clientAddress = try container.decodeIfPresent(String.self, forKey: .clientAddress)
        signInMethod = try container.decodeIfPresent(String.self, forKey: .signInMethod)
        authenticationMethods = try container.decodeIfPresent([String].self, forKey: .amr) ?? []
        authenticatedAt = try container.decodeIfPresent(ServerInstant.self, forKey: .authTime)?.date
        isCurrent = try container.decodeIfPresent(Bool.self, forKey: .current) ?? false
    }
}
