import Foundation

/// What happened when a refresh token was presented.
public enum RotationOutcome: Sendable, Equatable {
    /// The token was unused: it is now used, and `successor` was stored in the same transaction.
    case rotated(previous: RefreshTokenRecord, successor: RefreshTokenRecord)
    /// The token had already been used (or lost a race to a concurrent rotation): its whole family and
    /// session were revoked (if not already) and a `refresh_token_reuse` audit event written.
    case reused(familyID: String, accountID: String)
    /// The token, never used, was revoked before (logout, revocation, reuse of an ancestor).
    case revoked
    /// The token is past its expiry.
    case expired
    /// No such token.
    case notFound
}

extension Database {
    /// Starts a session with its first refresh token (and `audit`, when given), in one fully durable
    /// transaction, group-committed with concurrent sign-ins (one sync for all of them).
    public func createSession(_ session: SessionRecord, firstToken: RefreshTokenRecord, audit: AuditEvent? = nil) throws {
        try batchedTransaction(durability: .full) { conn in
            try conn.execute(SessionSQL.insert,
                             [.text(session.id), .text(session.accountID), .text(session.clientID), .integer(session.createdAt),
                              .integer(session.expiresAt), .optional(session.revokedAt), .optional(session.deviceName),
                              .optional(session.userAgent), .optional(session.clientAddress),
                              .optional(session.signInMethod?.rawValue), .integer(session.authTime),
                              .integer(session.amr.rawValue)])
            try insertRefreshToken(firstToken, on: conn)
            if let audit { try insertAudit(audit, on: conn) }
        }
    }

    public func session(id: String) throws -> SessionRecord? {
        try withConnection { conn in
            try conn.execute("SELECT \(SessionSQL.columns) FROM sessions WHERE id = ?", [.text(id)]).first.map(SessionRecord.init(row:))
        }
    }

    public func refreshToken(hash: String) throws -> RefreshTokenRecord? {
        try withConnection { conn in
            try conn.execute(RefreshTokenSQL.byHash, [.text(hash)])
                .first.map(RefreshTokenRecord.init(row:))
        }
    }

    /// All tokens of one family, oldest first.
    public func refreshTokens(familyID: String) throws -> [RefreshTokenRecord] {
        try withConnection { conn in
            try conn.execute("SELECT \(RefreshTokenRecord.columns) FROM refresh_tokens WHERE family_id = ? ORDER BY created_at, token_hash",
                             [.text(familyID)]).map(RefreshTokenRecord.init(row:))
        }
    }

    /// Rotates the refresh token whose hash is `presentedHash`: marks it used and stores its successor
    /// (hash `successorHash`, expiring at `successorExpiresAt` or the session's end, whichever is first), in ONE transaction, only if it was unused, unrevoked and unexpired.
    /// Exactly one of several concurrent callers (threads, or processes sharing PostgreSQL) wins; the
    /// others see `.reused`, which revokes the family.
    ///
    /// - Parameter graceSeconds: 0 (the default, recommended) treats every second use as reuse. A positive
    ///   value lets the token's *latest* successor be replaced once more within that many seconds of the
    ///   first use (for a client whose response was lost); older generations are never accepted.
    public func rotateRefreshToken(presentedHash: String, successorHash: String, now: Int64, successorExpiresAt: Int64,
                                   graceSeconds: Int64 = 0, ip: String? = nil) throws -> RotationOutcome {
        // A plain rotation commits `.relaxed` (a power cut right after it loses it: the client signs in again).
        // Anything that writes more — a grace replacement, a reuse revocation and its audit — is redone in a
        // fully durable transaction, so a revocation is never lost.
        // The relaxed attempt is group-committed with concurrent rotations on SQLite (one commit for all of
        // them), and one statement — one round trip — on PostgreSQL.
        do {
            if dialect == .postgres {
                return try rotateInOneStatement(presentedHash: presentedHash, successorHash: successorHash, now: now,
                                                successorExpiresAt: successorExpiresAt)
            }
            return try batchedTransaction(durability: .relaxed) { conn in
                try self.rotate(presentedHash: presentedHash, successorHash: successorHash, now: now,
                                successorExpiresAt: successorExpiresAt, graceSeconds: graceSeconds, ip: ip, on: conn,
                                durable: false)
            }
        } catch is DurableCommitNeeded {
            return try transaction(durability: .full) { conn in
                try rotate(presentedHash: presentedHash, successorHash: successorHash, now: now,
                           successorExpiresAt: successorExpiresAt, graceSeconds: graceSeconds, ip: ip, on: conn,
                           durable: true)
            }
        }
    }

    /// The claim and the successor's insert as one PostgreSQL statement (data-modifying CTEs; SQLite has
    /// none): the same claiming UPDATE, under the same row lock. Anything but a claimed token goes to the
    /// durable path, which finds out why.
    private func rotateInOneStatement(presentedHash: String, successorHash: String, now: Int64,
                                      successorExpiresAt: Int64) throws -> RotationOutcome {
        let rows = try executeAlone(RefreshTokenSQL.postgresRotation,
                                    [.integer(now), .text(presentedHash), .integer(now), .text(successorHash), .integer(now),
                                     .integer(successorExpiresAt), .integer(successorExpiresAt)],
                                    durability: .relaxed)
        guard let row = rows.first else { throw DurableCommitNeeded() }
        let previous = try RefreshTokenRecord(row: row)
        let successor = RefreshTokenRecord(tokenHash: successorHash, familyID: previous.familyID, parentHash: previous.tokenHash,
                                           accountID: previous.accountID, clientID: previous.clientID, scope: previous.scope,
                                           createdAt: now, expiresAt: try row.integer(RefreshTokenRecord.columnCount),
                                           authTime: previous.authTime, amr: previous.amr)
        return .rotated(previous: previous, successor: successor)
    }

    private func rotate(presentedHash: String, successorHash: String, now: Int64, successorExpiresAt: Int64,
                        graceSeconds: Int64, ip: String?, on conn: any SQLConnection, durable: Bool) throws -> RotationOutcome {
        let claimed = try conn.execute(RefreshTokenSQL.claim, [.integer(now), .text(presentedHash), .integer(now)])
        if let row = claimed.first {
            // The claim also returned the session's end, so the successor is capped without another read.
            let previous = try RefreshTokenRecord(row: row)
            let successor = try insertSuccessor(of: previous, hash: successorHash, now: now,
                                                expiresAt: min(successorExpiresAt,
                                                               row.optionalInteger(RefreshTokenRecord.columnCount) ?? successorExpiresAt),
                                                on: conn)
            return .rotated(previous: previous, successor: successor)
        }
        guard let row = try conn.execute(RefreshTokenSQL.byHash, [.text(presentedHash)]).first else { return .notFound }
        let token = try RefreshTokenRecord(row: row)
        // A used token presented again is reuse, even when its family is already revoked (each replay
        // is audited); an unused one failed because it was revoked or expired.
        guard let usedAt = token.usedAt else { return token.revokedAt != nil ? .revoked : .expired }
        guard durable else { throw DurableCommitNeeded() }
        if graceSeconds > 0, token.revokedAt == nil, now - usedAt <= graceSeconds {
            // Replace the still-unused direct successor (the client never received it), once.
            let superseded = try conn.execute("""
                UPDATE refresh_tokens SET revoked_at = ?
                WHERE family_id = ? AND parent_hash = ? AND used_at IS NULL AND revoked_at IS NULL
                RETURNING token_hash
                """, [.integer(now), .text(token.familyID), .text(presentedHash)])
            if !superseded.isEmpty {
                let successor = try insertSuccessor(of: token, hash: successorHash, now: now,
                                                    expiresAt: try cappedExpiry(successorExpiresAt, familyID: token.familyID, on: conn),
                                                    on: conn)
                try insertAudit(AuditEvent(at: now, accountID: token.accountID, event: "refresh_token_grace_reuse",
                                           ip: ip, detail: "family \(token.familyID)"), on: conn)
                return .rotated(previous: token, successor: successor)
            }
        }
        try revokeFamily(token.familyID, now: now, on: conn)
        try insertAudit(AuditEvent(at: now, accountID: token.accountID, event: "refresh_token_reuse", ip: ip,
                                   detail: "family \(token.familyID) revoked"), on: conn)
        return .reused(familyID: token.familyID, accountID: token.accountID)
    }

    /// Revokes a session: its refresh-token family and (through the session check) its access tokens.
    /// Returns false when the session was unknown or already revoked.
    @discardableResult
    public func revokeSession(id: String, now: Int64) throws -> Bool {
        try transaction { conn in try revokeFamily(id, now: now, on: conn) }
    }

    /// True when the session exists, is not revoked and has not expired.
    public func isSessionActive(id: String, now: Int64) throws -> Bool {
        guard let session = try session(id: id) else { return false }
        return session.revokedAt == nil && session.expiresAt > now
    }

    /// Deletes refresh tokens and sessions that expired before `before` (housekeeping).
    @discardableResult
    public func deleteExpiredTokens(before: Int64) throws -> Int {
        try transaction { conn in
            let tokens = try conn.execute("DELETE FROM refresh_tokens WHERE expires_at < ? RETURNING token_hash", [.integer(before)])
            try conn.execute("""
                DELETE FROM sessions WHERE expires_at < ?
                AND NOT EXISTS (SELECT 1 FROM refresh_tokens WHERE refresh_tokens.family_id = sessions.id)
                """, [.integer(before)])
            return tokens.count
        }
    }
}

/// Thrown inside a `.relaxed` rotation that found more to write than the claim: the rotation is rolled back
/// and run again as a `.full` transaction.
private struct DurableCommitNeeded: Error {}

func insertRefreshToken(_ token: RefreshTokenRecord, on conn: any SQLConnection) throws {
    try conn.execute(RefreshTokenSQL.insert,
                     [.text(token.tokenHash), .text(token.familyID), .optional(token.parentHash), .text(token.accountID),
                      .text(token.clientID), .text(token.scope), .integer(token.createdAt), .integer(token.expiresAt),
                      .optional(token.usedAt), .optional(token.revokedAt), .integer(token.authTime), .integer(token.amr.rawValue)])
}

private func insertSuccessor(of previous: RefreshTokenRecord, hash: String, now: Int64, expiresAt: Int64,
                             on conn: any SQLConnection) throws -> RefreshTokenRecord {
    let successor = RefreshTokenRecord(tokenHash: hash, familyID: previous.familyID, parentHash: previous.tokenHash,
                                       accountID: previous.accountID, clientID: previous.clientID, scope: previous.scope,
                                       createdAt: now, expiresAt: expiresAt, authTime: previous.authTime, amr: previous.amr)
    try insertRefreshToken(successor, on: conn)
    return successor
}

/// A successor never outlives its session (the session's absolute lifetime). Used on the rare grace path;
/// the normal rotation reads the session's end in its claiming UPDATE.
private func cappedExpiry(_ expiresAt: Int64, familyID: String, on conn: any SQLConnection) throws -> Int64 {
    let sessionExpiry = try conn.execute("SELECT expires_at FROM sessions WHERE id = ?", [.text(familyID)]).first?.integer(0)
    return min(expiresAt, sessionExpiry ?? expiresAt)
}

@discardableResult
func revokeFamily(_ familyID: String, now: Int64, on conn: any SQLConnection) throws -> Bool {
    try conn.execute("UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL",
                     [.integer(now), .text(familyID)])
    let sessions = try conn.execute("UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING id",
                                    [.integer(now), .text(familyID)])
    return !sessions.isEmpty
}

/// The rotation's statements, built once: the connection's statement cache is keyed by the SQL text, which
/// an interpolation would rebuild on every call.
private enum RefreshTokenSQL {
    static let byHash = "SELECT \(RefreshTokenRecord.columns) FROM refresh_tokens WHERE token_hash = ?"
    static let insert = "INSERT INTO refresh_tokens (\(RefreshTokenRecord.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    /// `claim` and the successor's insert in one statement, for PostgreSQL: the claimed token's columns and
    /// the successor's expiry (capped at the session's end), or no row.
    static let postgresRotation = """
        WITH claimed AS (
            UPDATE refresh_tokens SET used_at = ?
            WHERE token_hash = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?
            RETURNING \(RefreshTokenRecord.columns)
        ), successor AS (
            INSERT INTO refresh_tokens (\(RefreshTokenRecord.columns))
            SELECT ?::text, claimed.family_id, claimed.token_hash, claimed.account_id, claimed.client_id, claimed.scope,
                ?::bigint, LEAST(?::bigint, COALESCE((SELECT expires_at FROM sessions WHERE sessions.id = claimed.family_id),
                                                      ?::bigint)), NULL, NULL, claimed.auth_time, claimed.amr
            FROM claimed
            RETURNING expires_at
        )
        SELECT claimed.*, successor.expires_at FROM claimed, successor
        """

    /// Claims an unused, unrevoked, unexpired token and returns it with its session's end.
    static let claim = """
        UPDATE refresh_tokens SET used_at = ?
        WHERE token_hash = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?
        RETURNING \(RefreshTokenRecord.columns),
            (SELECT expires_at FROM sessions WHERE sessions.id = refresh_tokens.family_id)
        """
}
