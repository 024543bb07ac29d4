import Foundation

extension Database {
    /// Inserts an account. Throws `DatabaseError.uniqueViolation` when the folded name is taken.
    public func insertAccount(_ account: AccountRecord) throws {
        try withConnection { conn in
            try conn.execute("""
                INSERT INTO accounts (id, username, username_key, password_hash, created_at, locked_until, failed_count)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.text(account.id), .text(account.username), .text(account.usernameKey), .text(account.passwordHash),
                      .integer(account.createdAt), .optional(account.lockedUntil), .integer(Int64(account.failedCount))])
        }
    }

    public func account(usernameKey: String) throws -> AccountRecord? {
        try withConnection { conn in
            try conn.execute("SELECT \(accountColumns) FROM accounts WHERE username_key = ?", [.text(usernameKey)])
                .first.map(accountRecord)
        }
    }

    public func account(id: String) throws -> AccountRecord? {
        try withConnection { conn in
            try conn.execute("SELECT \(accountColumns) FROM accounts WHERE id = ?", [.text(id)]).first.map(accountRecord)
        }
    }

    /// Replaces the password hash (rehash on login after the parameters rose).
    public func updatePasswordHash(accountID: String, passwordHash: String) throws {
        try withConnection { conn in
            try conn.execute("UPDATE accounts SET password_hash = ? WHERE id = ?", [.text(passwordHash), .text(accountID)])
        }
    }

    /// The ways `account` can sign in: a password when it has one (`hasPassword`), a passkey when one is registered, Apple when an Apple ID is linked — in that order.
    public func signInMethods(of account: AccountRecord) throws -> [SignInMethod] {
        let linked = try withConnection { conn in
            try conn.execute("""
                SELECT CASE WHEN EXISTS (SELECT 1 FROM passkeys WHERE account_id = ?) THEN 1 ELSE 0 END,
                       CASE WHEN EXISTS (SELECT 1 FROM apple_identities WHERE account_id = ?) THEN 1 ELSE 0 END
                """, [.text(account.id), .text(account.id)]).first
        }
        var methods: [SignInMethod] = []
        if account.hasPassword { methods.append(.password) }
        if try linked?.integer(0) ?? 0 != 0 { methods.append(.passkey) }
        if try linked?.integer(1) ?? 0 != 0 { methods.append(.apple) }
        return methods
    }

    /// Sets a new password (a PHC string) and ends every other session of the account, in one transaction, with
    /// `audit`; clears the lockout mirror. Returns how many sessions ended, or nil when the account is gone.
    public func changePassword(accountID: String, passwordHash: String, keepingSession session: String, now: Int64,
                               audit: AuditEvent) throws -> Int? {
        try transaction { conn in
            guard !(try conn.execute("""
                UPDATE accounts SET password_hash = ?, failed_count = 0, locked_until = NULL WHERE id = ? RETURNING id
                """, [.text(passwordHash), .text(accountID)])).isEmpty else { return nil }
            let ended = try endSessionRows(accountID: accountID, except: session, now: now, on: conn)
            var audit = audit
            audit.detail = [audit.detail, "\(ended) other sessions ended"].compactMap { $0 }.joined(separator: ", ")
            try insertAudit(audit, on: conn)
            return ended
        }
    }

    /// Mirrors the throttle state into the account row (for administrators; the throttle table decides).
    public func updateAccountLockState(accountID: String, failedCount: Int, lockedUntil: Int64?) throws {
        try withConnection { conn in
            try conn.execute("UPDATE accounts SET failed_count = ?, locked_until = ? WHERE id = ?",
                             [.integer(Int64(failedCount)), .optional(lockedUntil), .text(accountID)])
        }
    }
}

private let accountColumns = "id, username, username_key, password_hash, created_at, locked_until, failed_count"

private func accountRecord(_ row: SQLRow) throws -> AccountRecord {
    AccountRecord(id: try row.text(0), username: try row.text(1), usernameKey: try row.text(2),
                  passwordHash: try row.text(3), createdAt: try row.integer(4), lockedUntil: row.optionalInteger(5),
                  failedCount: Int(try row.integer(6)))
}
