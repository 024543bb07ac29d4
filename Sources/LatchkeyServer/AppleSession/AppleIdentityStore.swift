import Foundation

/// The link between an Apple ID (`sub`) and an account, with what Apple told about the user.
/// Names are kept from the first sign-in only (Apple sends them once).
public struct AppleIdentityRecord: Sendable, Equatable {
    public var subject: String
    public var accountID: String
    public var email: String?
    public var emailVerified: Bool
    public var isPrivateEmail: Bool
    /// False after an `email-disabled` notification (the private relay stopped forwarding).
    public var emailEnabled: Bool
    public var firstName: String?
    public var lastName: String?
    /// Apple's refresh token, sealed with AES-256-GCM under the server's key (base64url of nonce‖ct‖tag).
    public var refreshTokenSealed: String?
    public var createdAt: Int64
    /// The app (bundle id or Services ID: the identity token's `aud`) the refresh token was issued to, which its
    /// revocation must name. Nil for a link made before the server recorded it.
    public var clientID: String? = nil
}

/// What Apple's `account-delete` did to the account of an Apple ID (`Database.removeAppleID`).
public enum AppleIDRemoval: Sendable, Equatable {
    /// Nothing else signed in to the account: it was deleted.
    case accountDeleted(AccountDeletion)
    /// The account also has a password or a passkey (or another Apple ID): the link went and its sessions ended.
    case unlinked(accountID: String)
}

extension Database {
    public func appleIdentity(subject: String) throws -> AppleIdentityRecord? {
        try withConnection { conn in
            try conn.execute("""
                SELECT sub, account_id, email, email_verified, is_private_email, email_enabled, first_name, last_name,
                       refresh_token_sealed, created_at, client_id FROM apple_identities WHERE sub = ?
                """, [.text(subject)]).first.map { row in
                AppleIdentityRecord(subject: try row.text(0), accountID: try row.text(1), email: row.optionalText(2),
                                    emailVerified: try row.integer(3) != 0, isPrivateEmail: try row.integer(4) != 0,
                                    emailEnabled: try row.integer(5) != 0, firstName: row.optionalText(6),
                                    lastName: row.optionalText(7), refreshTokenSealed: row.optionalText(8),
                                    createdAt: try row.integer(9), clientID: row.optionalText(10))
            }
        }
    }

    /// Inserts a new link. Throws `DatabaseError.uniqueViolation` when the `sub` is already linked.
    public func insertAppleIdentity(_ r: AppleIdentityRecord, createAccount: AccountRecord?) throws {
        try transaction { conn in
            if let a = createAccount {
                try conn.execute("""
                    INSERT INTO accounts (id, username, username_key, password_hash, created_at, locked_until, failed_count)
                    VALUES (?, ?, ?, ?, ?, NULL, 0)
                    """, [.text(a.id), .text(a.username), .text(a.usernameKey), .text(a.passwordHash), .integer(a.createdAt)])
            }
            try conn.execute("""
                INSERT INTO apple_identities (sub, account_id, email, email_verified, is_private_email, email_enabled,
                    first_name, last_name, refresh_token_sealed, created_at, updated_at, client_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(r.subject), .text(r.accountID), .optional(r.email), .integer(r.emailVerified ? 1 : 0),
                      .integer(r.isPrivateEmail ? 1 : 0), .integer(r.emailEnabled ? 1 : 0), .optional(r.firstName),
                      .optional(r.lastName), .optional(r.refreshTokenSealed), .integer(r.createdAt), .integer(r.createdAt),
                      .optional(r.clientID)])
        }
    }

    /// Updates the e-mail facts of a later sign-in (never the names).
    public func updateAppleEmail(subject: String, email: String?, emailVerified: Bool, isPrivateEmail: Bool, now: Int64) throws {
        try withConnection { conn in
            try conn.execute("""
                UPDATE apple_identities SET email = COALESCE(?, email), email_verified = ?, is_private_email = ?, updated_at = ?
                WHERE sub = ?
                """, [.optional(email), .integer(emailVerified ? 1 : 0), .integer(isPrivateEmail ? 1 : 0), .integer(now),
                      .text(subject)])
        }
    }

    public func updateAppleEmailEnabled(subject: String, enabled: Bool, email: String?, isPrivateEmail: Bool?, now: Int64) throws {
        try withConnection { conn in
            try conn.execute("""
                UPDATE apple_identities SET email_enabled = ?, email = COALESCE(?, email),
                    is_private_email = COALESCE(?, is_private_email), updated_at = ? WHERE sub = ?
                """, [.integer(enabled ? 1 : 0), .optional(email), isPrivateEmail.map { .integer($0 ? 1 : 0) } ?? .null,
                      .integer(now), .text(subject)])
        }
    }

    /// Stores Apple's refresh token (sealed) and the app it was issued to.
    public func updateAppleRefreshToken(subject: String, sealed: String?, clientID: String? = nil, now: Int64) throws {
        try withConnection { conn in
            try conn.execute("""
                UPDATE apple_identities SET refresh_token_sealed = ?, client_id = COALESCE(?, client_id), updated_at = ?
                WHERE sub = ?
                """, [.optional(sealed), .optional(clientID), .integer(now), .text(subject)])
        }
    }

    public func deleteAppleIdentity(subject: String) throws {
        try withConnection { conn in try conn.execute("DELETE FROM apple_identities WHERE sub = ?", [.text(subject)]) }
    }

    /// Apple's `account-delete` for `subject`, in one transaction: an account that nothing else signs in to (no
    /// password, no passkey, no other Apple ID) is deleted (`deleteAccount`'s rows, without queueing a revocation:
    /// Apple deleted the Apple ID); another loses this link and every session. Nil when the Apple ID is linked to
    /// nothing (any more). The account's row is locked before anything is decided, as a user's deletion locks it
    /// first too: whichever comes second finds the other's result.
    public func removeAppleID(subject: String, now: Int64) throws -> AppleIDRemoval? {
        try transaction { conn in
            guard let accountID = try conn.execute("SELECT account_id FROM apple_identities WHERE sub = ?", [.text(subject)])
                .first?.text(0) else { return nil }
            guard let hash = try conn.execute("UPDATE accounts SET failed_count = failed_count WHERE id = ? RETURNING password_hash",
                                              [.text(accountID)]).first?.text(0) else { return nil }
            let others = try conn.execute("""
                SELECT CASE WHEN EXISTS (SELECT 1 FROM passkeys WHERE account_id = ?)
                         OR EXISTS (SELECT 1 FROM apple_identities WHERE account_id = ? AND sub <> ?) THEN 1 ELSE 0 END
                """, [.text(accountID), .text(accountID), .text(subject)]).first?.integer(0) ?? 0
            if hash == AccountRecord.noPassword, others == 0 {
                return try deleteAccountRows(id: accountID, now: now, revokeAppleTokens: false, on: conn)
                    .map(AppleIDRemoval.accountDeleted)
            }
            try endSessionRows(accountID: accountID, except: nil, now: now, on: conn)
            guard !(try conn.execute("DELETE FROM apple_identities WHERE sub = ? RETURNING sub", [.text(subject)])).isEmpty
            else { return nil }
            return .unlinked(accountID: accountID)
        }
    }

    /// Revokes every active session of an account; returns how many.
    @discardableResult
    public func revokeAllSessions(accountID: String, now: Int64) throws -> Int {
        try endSessions(accountID: accountID, except: nil, now: now)
    }
}

/// The notification ledger in the database: a `jti` is recorded once across all server processes.
public struct DatabaseAppleNotificationLedger: AppleNotificationLedger {
    public let database: any Database
    public init(database: any Database) { self.database = database }

    public func record(_ jti: String, expiresAt: Date) throws -> Bool {
        let expires = Int64(expiresAt.timeIntervalSince1970)
        do {
            try database.withConnection { conn in
                try conn.execute("DELETE FROM apple_notifications WHERE expires_at < ?",
                                 [.integer(Int64(Date().timeIntervalSince1970) - 86_400 * 30)])
                try conn.execute("INSERT INTO apple_notifications (jti, expires_at) VALUES (?, ?)", [.text(jti), .integer(expires)])
            }
            return true
        } catch DatabaseError.uniqueViolation {
            return false
        }
    }
}
