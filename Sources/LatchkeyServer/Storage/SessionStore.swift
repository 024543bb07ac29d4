import Foundation

/// A live session with its last use: the creation of its newest refresh token (its sign-in, its latest step-up or
/// refresh), read from the refresh-token family index, so a refresh writes nothing more to record it.
public struct SessionActivity: Sendable, Equatable {
    public var session: SessionRecord
    public var lastUsedAt: Int64
}

extension SessionRecord {
    init(row: SQLRow) throws {
        self.init(id: try row.text(0), accountID: try row.text(1), clientID: try row.text(2),
                  createdAt: try row.integer(3), expiresAt: try row.integer(4), revokedAt: row.optionalInteger(5),
                  deviceName: row.optionalText(6), userAgent: row.optionalText(7), clientAddress: row.optionalText(8),
                  signInMethod: row.optionalText(9).flatMap(SignInMethod.init(rawValue:)), authTime: try row.integer(10),
                  amr: AuthenticationMethods(rawValue: row.optionalInteger(11) ?? 0))
    }
}

extension Database {
    /// The account's sessions that are neither ended nor expired, with their last use, in no particular order.
    public func liveSessions(accountID: String, now: Int64) throws -> [SessionActivity] {
        try withConnection { conn in
            try conn.execute(SessionSQL.live, [.text(accountID), .integer(now)]).map { row in
                let session = try SessionRecord(row: row)
                return SessionActivity(session: session,
                                       lastUsedAt: row.optionalInteger(SessionSQL.columnCount) ?? session.createdAt)
            }
        }
    }

    /// Ends one live session of `accountID` (its refresh tokens are revoked in the same transaction). False when
    /// `id` is not a live session of that account — another account's, an ended or an unknown one alike.
    @discardableResult
    public func endSession(id: String, accountID: String, now: Int64) throws -> Bool {
        try transaction { conn in
            let ended = try conn.execute("""
                UPDATE sessions SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL AND expires_at > ?
                RETURNING id
                """, [.integer(now), .text(id), .text(accountID), .integer(now)])
            guard !ended.isEmpty else { return false }
            try revokeFamily(id, now: now, on: conn)
            return true
        }
    }

    /// Ends every live session of `accountID` but `except` (all of them when nil), with their refresh tokens, in one
    /// transaction. Returns how many ended.
    @discardableResult
    public func endSessions(accountID: String, except: String?, now: Int64) throws -> Int {
        try transaction { conn in try endSessionRows(accountID: accountID, except: except, now: now, on: conn) }
    }

    /// Re-authenticates (steps up) the live session `id` of `accountID`, in one transaction: the session's
    /// `auth_time`, `amr`, sign-in method and address are those of this sign-in (and its device name, when one is
    /// given); its unused refresh tokens are retired as by a rotation (marked used, so presenting one again is reuse);
    /// and a new refresh token of the family carries the new `auth_time` and `amr`. Returns that token, or nil when
    /// the session is not live (ended, expired, or not this account's).
    public func reauthenticateSession(id: String, accountID: String, proof: SignInProof, context: SignInContext,
                                      successorHash: String, now: Int64, refreshTokenLifetime: Int64, defaultScope: String,
                                      audit: AuditEvent? = nil) throws -> RefreshTokenRecord? {
        try transaction { conn in
            guard let session = try conn.execute("""
                UPDATE sessions SET auth_time = ?, amr = ?, sign_in_method = ?, client_address = COALESCE(?, client_address),
                    device_name = COALESCE(?, device_name), user_agent = COALESCE(?, user_agent)
                WHERE id = ? AND account_id = ? AND revoked_at IS NULL AND expires_at > ?
                RETURNING client_id, expires_at
                """, [.integer(now), .integer(proof.methods.rawValue), .text(proof.method.rawValue), .optional(context.clientAddress),
                      .optional(context.deviceName), .optional(context.userAgent), .text(id), .text(accountID),
                      .integer(now)]).first else { return nil }
            let retired = try conn.execute("""
                UPDATE refresh_tokens SET used_at = ?
                WHERE family_id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?
                RETURNING token_hash, scope
                """, [.integer(now), .text(id), .integer(now)])
            let token = RefreshTokenRecord(
                tokenHash: successorHash, familyID: id, parentHash: retired.count == 1 ? try retired[0].text(0) : nil,
                accountID: accountID, clientID: try session.text(0), scope: try retired.first?.text(1) ?? defaultScope,
                createdAt: now, expiresAt: min(now + refreshTokenLifetime, try session.integer(1)), authTime: now,
                amr: proof.methods)
            try insertRefreshToken(token, on: conn)
            if let audit { try insertAudit(audit, on: conn) }
            return token
        }
    }
}

/// The body of `Database.endSessions`, for callers that end sessions inside their own transaction.
@discardableResult
func endSessionRows(accountID: String, except: String?, now: Int64, on conn: any SQLConnection) throws -> Int {
    let ended = try conn.execute("""
        UPDATE sessions SET revoked_at = ?
        WHERE account_id = ? AND id <> ? AND revoked_at IS NULL AND expires_at > ?
        RETURNING id
        """, [.integer(now), .text(accountID), .text(except ?? ""), .integer(now)])
    guard !ended.isEmpty else { return 0 }
    try conn.execute("""
        UPDATE refresh_tokens SET revoked_at = ?
        WHERE family_id IN (SELECT id FROM sessions WHERE account_id = ? AND id <> ?) AND revoked_at IS NULL
        """, [.integer(now), .text(accountID), .text(except ?? "")])
    return ended.count
}

/// The session statements, built once (the statement cache is keyed by the SQL text).
enum SessionSQL {
    static let columns = """
        id, account_id, client_id, created_at, expires_at, revoked_at, device_name, user_agent, client_address, \
        sign_in_method, auth_time, amr
        """
    /// The number of `columns`.
    static let columnCount = 12
    static let insert = "INSERT INTO sessions (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    /// The newest token of each family is one seek in the (family_id, created_at) index.
    static let live = """
        SELECT \(columns), (SELECT MAX(created_at) FROM refresh_tokens WHERE refresh_tokens.family_id = sessions.id)
        FROM sessions WHERE account_id = ? AND revoked_at IS NULL AND expires_at > ?
        """
}
