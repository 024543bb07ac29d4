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
