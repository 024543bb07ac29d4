import Foundation

/// A stored account. `passwordHash` is a PHC string (Argon2id); it never leaves the server.
public struct AccountRecord: Sendable, Equatable {
    public var id: String
    /// The name as the user typed it.
    public var username: String
    /// The case-folded form that is unique (`Username.key(_:)`).
    public var usernameKey: String
    public var passwordHash: String
    public var createdAt: Int64
    public var lockedUntil: Int64?
    public var failedCount: Int

    public init(id: String, username: String, usernameKey: String, passwordHash: String, createdAt: Int64,
                lockedUntil: Int64? = nil, failedCount: Int = 0) {
        self.id = id; self.username = username; self.usernameKey = usernameKey; self.passwordHash = passwordHash
        self.createdAt = createdAt; self.lockedUntil = lockedUntil; self.failedCount = failedCount
    }

    /// The `passwordHash` of an account without a password (passkey or Sign in with Apple only): no PHC string, so
    /// no password ever verifies against it.
    public static let noPassword = "!"

    /// True when a password can sign in to the account.
    public var hasPassword: Bool { passwordHash != Self.noPassword }
}

/// A login session: one refresh-token family. Its id is the family id and the `sid` of its access tokens.
public struct SessionRecord: Sendable, Equatable {
    public var id: String
    public var accountID: String
    public var clientID: String
    public var createdAt: Int64
    public var expiresAt: Int64
    public var revokedAt: Int64?
    /// What the client called the device at sign-in (`DeviceName` rules), if anything.
    public var deviceName: String?
    /// The User-Agent of the sign-in (cut to `DeviceName.maximumBytes`), shown when no device name was given.
    public var userAgent: String?
    /// The client's address at its last sign-in (after the `--trusted-proxy` rules).
    public var clientAddress: String?
    /// How its last sign-in was made; nil for a session started before the server recorded it.
    public var signInMethod: SignInMethod?
    /// Unix seconds of its last real sign-in (the session's start, or its latest step-up). Refreshes keep it.
    public var authTime: Int64
    /// RFC 8176 method references of that sign-in.
    public var amr: AuthenticationMethods

    public init(id: String, accountID: String, clientID: String, createdAt: Int64, expiresAt: Int64, revokedAt: Int64? = nil,
                deviceName: String? = nil, userAgent: String? = nil, clientAddress: String? = nil,
                signInMethod: SignInMethod? = nil, authTime: Int64? = nil, amr: AuthenticationMethods = []) {
        self.id = id; self.accountID = accountID; self.clientID = clientID
        self.createdAt = createdAt; self.expiresAt = expiresAt; self.revokedAt = revokedAt
        self.deviceName = deviceName; self.userAgent = userAgent; self.clientAddress = clientAddress
        self.signInMethod = signInMethod; self.authTime = authTime ?? createdAt; self.amr = amr
    }
}

/// A refresh token as stored: only the SHA-256 hash (hex) of the token, never the token. It carries its session's
/// `auth_time` and `amr` (copied by every rotation), which the access tokens it is exchanged for carry.
public struct RefreshTokenRecord: Sendable, Equatable {
    public var tokenHash: String
    public var familyID: String
    public var parentHash: String?
    public var accountID: String
    public var clientID: String
    public var scope: String
    public var createdAt: Int64
    public var expiresAt: Int64
    public var usedAt: Int64?
    public var revokedAt: Int64?
    /// Unix seconds of the session's last real sign-in when this token was issued.
    public var authTime: Int64
    /// That sign-in's RFC 8176 method references.
    public var amr: AuthenticationMethods

    public init(tokenHash: String, familyID: String, parentHash: String?, accountID: String, clientID: String,
                scope: String, createdAt: Int64, expiresAt: Int64, usedAt: Int64? = nil, revokedAt: Int64? = nil,
                authTime: Int64? = nil, amr: AuthenticationMethods = []) {
        self.tokenHash = tokenHash; self.familyID = familyID; self.parentHash = parentHash
        self.accountID = accountID; self.clientID = clientID; self.scope = scope
        self.createdAt = createdAt; self.expiresAt = expiresAt; self.usedAt = usedAt; self.revokedAt = revokedAt
        self.authTime = authTime ?? createdAt; self.amr = amr
    }

    static let columns = "token_hash, family_id, parent_hash, account_id, client_id, scope, created_at, expires_at, used_at, revoked_at, auth_time, amr"
    /// The number of `columns` (a query that returns more reads them after these).
    static let columnCount = 12

    init(row: SQLRow) throws {
        self.init(tokenHash: try row.text(0), familyID: try row.text(1), parentHash: row.optionalText(2),
                  accountID: try row.text(3), clientID: try row.text(4), scope: try row.text(5),
                  createdAt: try row.integer(6), expiresAt: try row.integer(7),
                  usedAt: row.optionalInteger(8), revokedAt: row.optionalInteger(9),
                  authTime: try row.integer(10), amr: AuthenticationMethods(rawValue: row.optionalInteger(11) ?? 0))
    }
}

/// A stored signing key. `privateKey` is what `SigningKeyStore` wrote (see there for its protection).
public struct SigningKeyRecord: Sendable, Equatable {
    public var kid: String
    public var privateKey: String
    /// The public key as a JWK (JSON text).
    public var publicJWK: String
    public var createdAt: Int64
    public var retiredAt: Int64?

    public init(kid: String, privateKey: String, publicJWK: String, createdAt: Int64, retiredAt: Int64? = nil) {
        self.kid = kid; self.privateKey = privateKey; self.publicJWK = publicJWK
        self.createdAt = createdAt; self.retiredAt = retiredAt
    }
}

/// One audit event. `detail` is free text that must never contain a secret (no passwords, no tokens,
/// no hashes of tokens).
public struct AuditEvent: Sendable, Equatable {
    public var id: String
    public var at: Int64
    public var accountID: String?
    public var event: String
    public var ip: String?
    public var detail: String?

    public init(id: String = UUID().uuidString.lowercased(), at: Int64, accountID: String?, event: String,
                ip: String?, detail: String? = nil) {
        self.id = id; self.at = at; self.accountID = accountID; self.event = event; self.ip = ip; self.detail = detail
    }
}

/// Failed-login bookkeeping for one key (`user:<folded name>` or `ip:<address>`).
public struct ThrottleState: Sendable, Equatable {
    public var key: String
    public var failures: Int
    public var lastFailureAt: Int64
    public var blockedUntil: Int64
}
