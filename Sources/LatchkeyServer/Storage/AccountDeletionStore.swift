import Foundation

/// What an account deletion removed.
public struct AccountDeletion: Sendable, Equatable {
    public var accountID: String
    /// Sessions that were live (every device signed out).
    public var sessions: Int
    public var passkeys: Int
    public var appleIDs: Int
    /// Apple refresh tokens moved to the revocation outbox (`AppleRevocationOutbox` sends them).
    public var appleRevocationsQueued: Int

    /// The `account_deleted` audit record's detail: counts only, nothing about the person.
    var auditDetail: String {
        "sessions \(sessions), passkeys \(passkeys), apple ids \(appleIDs), apple revocations queued \(appleRevocationsQueued)"
    }
}

extension Database {
    /// Deletes the account `id` and every row that belongs to it, in one transaction: its Apple refresh tokens move
    /// into the revocation outbox (when `revokeAppleTokens`), then its Apple ID links, passkeys, WebAuthn user handle
    /// with the challenges and pending registrations made for it, refresh tokens, sessions, the per-name login
    /// throttle, its audit events and the account row go, and one `account_deleted` audit event is written with the
    /// account id (random, not personal data) and the counts — no name, e-mail or address.
    /// Returns nil when there is no such account (already deleted, possibly by a concurrent call: the first statement
    /// locks the account's row, so of two deletions one does the work and the other finds nothing).
    public func deleteAccount(id: String, now: Int64, revokeAppleTokens: Bool = true) throws -> AccountDeletion? {
        try transaction { conn in try deleteAccountRows(id: id, now: now, revokeAppleTokens: revokeAppleTokens, on: conn) }
    }
}

/// The body of `Database.deleteAccount`, for callers that decide inside their own transaction.
func deleteAccountRows(id: String, now: Int64, revokeAppleTokens: Bool, on conn: any SQLConnection) throws -> AccountDeletion? {
    // A no-op update takes the row lock (PostgreSQL; SQLite holds the write lock already) before anything is read.
    guard let usernameKey = try conn.execute("UPDATE accounts SET failed_count = failed_count WHERE id = ? RETURNING username_key",
                                             [.text(id)]).first?.text(0) else { return nil }
    let account = [SQLValue.text(id)]
    var queued = 0
    if revokeAppleTokens {
        for row in try conn.execute("""
            SELECT sub, client_id, refresh_token_sealed FROM apple_identities
            WHERE account_id = ? AND refresh_token_sealed IS NOT NULL
            """, account) {
            try conn.execute(AppleRevocationSQL.insert, [
                .text(UUID().uuidString.lowercased()), .text(try row.text(0)), .optional(row.optionalText(1)),
                .text(try row.text(2)), .integer(now), .integer(now)])
            queued += 1
        }
    }
    let appleIDs = try conn.execute("DELETE FROM apple_identities WHERE account_id = ? RETURNING sub", account).count
    let passkeys = try conn.execute("DELETE FROM passkeys WHERE account_id = ? RETURNING id", account).count
    if let handle = try conn.execute("DELETE FROM webauthn_users WHERE account_id = ? RETURNING user_handle", account).first {
        let userHandle = [SQLValue.text(try handle.text(0))]
        try conn.execute("DELETE FROM webauthn_challenges WHERE user_handle = ?", userHandle)
        try conn.execute("DELETE FROM webauthn_pending_accounts WHERE user_handle = ?", userHandle)
    }
    try conn.execute("DELETE FROM refresh_tokens WHERE family_id IN (SELECT id FROM sessions WHERE account_id = ?)", account)
    let sessions = try conn.execute("DELETE FROM sessions WHERE account_id = ? RETURNING revoked_at, expires_at", account)
        .filter { $0.isNull(0) && ($0.optionalInteger(1) ?? 0) > now }.count
    try conn.execute("DELETE FROM login_throttle WHERE throttle_key = ?", [.text("user:" + usernameKey)])
    try conn.execute("DELETE FROM audit_events WHERE account_id = ?", account)
    try conn.execute("DELETE FROM accounts WHERE id = ?", account)
    let deletion = AccountDeletion(accountID: id, sessions: sessions, passkeys: passkeys, appleIDs: appleIDs,
                                   appleRevocationsQueued: queued)
    try insertAudit(AuditEvent(at: now, accountID: id, event: "account_deleted", ip: nil, detail: deletion.auditDetail), on: conn)
    return deletion
}
