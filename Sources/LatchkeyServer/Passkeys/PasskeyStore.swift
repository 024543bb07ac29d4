import Foundation
import LatchkeyCrypto

/// A stored passkey with the account that owns it.
public struct PasskeyRecord: Sendable, Hashable {
    public var accountID: String
    public var name: String
    public var credential: StoredCredential
}

extension Database {
    /// The account's WebAuthn user handle (64 random bytes), made and stored on first use.
    public func webAuthnUserHandle(accountID: String) throws -> Data {
        let candidate = WebAuthnRelyingParty.makeUserHandle().base64URLEncodedString()
        func lookUpOrInsert() throws -> String {
            try transaction { conn in
                if let row = try conn.execute("SELECT user_handle FROM webauthn_users WHERE account_id = ?",
                                              [.text(accountID)]).first {
                    return try row.text(0)
                }
                try conn.execute("INSERT INTO webauthn_users (account_id, user_handle) VALUES (?, ?)",
                                 [.text(accountID), .text(candidate)])
                return candidate
            }
        }
        let stored: String
        // Two first requests at once (two processes): the loser's insert conflicts and it reads the winner's.
        do { stored = try lookUpOrInsert() } catch DatabaseError.uniqueViolation { stored = try lookUpOrInsert() }
        guard let data = Data(base64URLEncoded: stored) else { throw DatabaseError.unexpectedValue(column: 0) }
        return data
    }

    /// The account a user handle belongs to.
    public func accountID(userHandle: Data) throws -> String? {
        try withConnection { conn in
            try conn.execute("SELECT account_id FROM webauthn_users WHERE user_handle = ?",
                             [.text(userHandle.base64URLEncodedString())]).first.map { try $0.text(0) }
        }
    }

    /// Remembers that `userHandle` was offered to a not-yet-existing account named `username`.
    public func insertPendingPasskeyAccount(userHandle: Data, username: String, expiresAt: Int64, now: Int64) throws {
        try withConnection { conn in
            try conn.execute("DELETE FROM webauthn_pending_accounts WHERE expires_at < ?", [.integer(now)])
            try conn.execute("INSERT INTO webauthn_pending_accounts (user_handle, username, expires_at) VALUES (?, ?, ?)",
                             [.text(userHandle.base64URLEncodedString()), .text(username), .integer(expiresAt)])
        }
    }

    /// Takes (once) the pending new-account registration of a user handle.
    public func consumePendingPasskeyAccount(userHandle: Data, now: Int64) throws -> String? {
        try withConnection { conn in
            try conn.execute("DELETE FROM webauthn_pending_accounts WHERE user_handle = ? RETURNING username, expires_at",
                             [.text(userHandle.base64URLEncodedString())]).first.flatMap { row in
                try row.integer(1) >= now ? try row.text(0) : nil
            }
        }
    }

    /// Creates a passwordless account with its user handle and first passkey, in one transaction.
    /// Throws `DatabaseError.uniqueViolation` when the name is taken.
    public func insertPasskeyAccount(_ account: AccountRecord, passkey: StoredCredential, name: String) throws {
        try transaction { conn in
            try conn.execute("""
                INSERT INTO accounts (id, username, username_key, password_hash, created_at, locked_until, failed_count)
                VALUES (?, ?, ?, ?, ?, NULL, 0)
                """, [.text(account.id), .text(account.username), .text(account.usernameKey), .text(account.passwordHash),
                      .integer(account.createdAt)])
            try conn.execute("INSERT INTO webauthn_users (account_id, user_handle) VALUES (?, ?)",
                             [.text(account.id), .text(passkey.userHandle.base64URLEncodedString())])
            try insertPasskeyRow(passkey, accountID: account.id, name: name, on: conn)
        }
    }

    /// Stores a new passkey of an existing account.
    public func insertPasskey(_ passkey: StoredCredential, accountID: String, name: String) throws {
        try withConnection { conn in try insertPasskeyRow(passkey, accountID: accountID, name: name, on: conn) }
    }

    public func passkey(id: Data) throws -> PasskeyRecord? {
        try withConnection { conn in
            try conn.execute("SELECT \(passkeyColumns) FROM passkeys WHERE id = ?", [.text(id.base64URLEncodedString())])
                .first.map(passkeyRecord)
        }
    }

    public func passkeys(accountID: String) throws -> [PasskeyRecord] {
        try withConnection { conn in
            try conn.execute("SELECT \(passkeyColumns) FROM passkeys WHERE account_id = ? ORDER BY created_at, id",
                             [.text(accountID)]).map(passkeyRecord)
        }
    }

    /// Stores what a verified assertion changed. Guarded by the previous counter, so of two concurrent
    /// sign-ins with one assertion counter only one moves it; returns false for the loser.
    public func updatePasskeyAfterUse(_ credential: StoredCredential, previousSignCount: UInt32) throws -> Bool {
        try withConnection { conn in
            !(try conn.execute("""
                UPDATE passkeys SET sign_count = ?, backup_state = ?, last_used_at = ?
                WHERE id = ? AND sign_count = ? RETURNING id
                """, [.integer(Int64(credential.signCount)), .integer(credential.backupState ? 1 : 0),
                      .optional(credential.lastUsedAt.map { Int64($0.timeIntervalSince1970) }),
                      .text(credential.id.base64URLEncodedString()), .integer(Int64(previousSignCount))]).isEmpty)
        }
    }

    /// Renames one of the account's passkeys; false when it has none with that id.
    public func renamePasskey(id: String, accountID: String, name: String) throws -> Bool {
        try withConnection { conn in
            !(try conn.execute("UPDATE passkeys SET name = ? WHERE id = ? AND account_id = ? RETURNING id",
                               [.text(name), .text(id), .text(accountID)]).isEmpty)
        }
    }

    /// Deletes one of the account's passkeys; false when it has none with that id.
    public func deletePasskey(id: String, accountID: String) throws -> Bool {
        try withConnection { conn in
            !(try conn.execute("DELETE FROM passkeys WHERE id = ? AND account_id = ? RETURNING id",
                               [.text(id), .text(accountID)]).isEmpty)
        }
    }
}

private let passkeyColumns = """
    account_id, name, id, user_handle, public_key, algorithm, sign_count, transports, backup_eligible, backup_state,
    uv_at_registration, aaguid, attestation_format, attestation_trust, created_at, last_used_at
    """

private func insertPasskeyRow(_ c: StoredCredential, accountID: String, name: String, on conn: any SQLConnection) throws {
    try conn.execute("""
        INSERT INTO passkeys (id, account_id, user_handle, public_key, algorithm, sign_count, transports, backup_eligible,
            backup_state, uv_at_registration, aaguid, attestation_format, attestation_trust, name, created_at, last_used_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
        """, [.text(c.id.base64URLEncodedString()), .text(accountID), .text(c.userHandle.base64URLEncodedString()),
              .text(c.publicKey.base64URLEncodedString()), .integer(Int64(c.algorithm)), .integer(Int64(c.signCount)),
              .text(c.transports.joined(separator: ",")), .integer(c.backupEligible ? 1 : 0), .integer(c.backupState ? 1 : 0),
              .integer(c.userVerifiedAtRegistration ? 1 : 0), .text(c.aaguid.base64URLEncodedString()),
              .text(c.attestationFormat), .text(c.attestationTrust.rawValue), .text(name),
              .integer(Int64(c.createdAt.timeIntervalSince1970))])
}

private func passkeyRecord(_ row: SQLRow) throws -> PasskeyRecord {
    func bytes(_ i: Int) throws -> Data {
        guard let data = Data(base64URLEncoded: try row.text(i)) else { throw DatabaseError.unexpectedValue(column: i) }
        return data
    }
    let transports = try row.text(7)
    let credential = StoredCredential(
        id: try bytes(2), userHandle: try bytes(3), publicKey: try bytes(4), keyAlgorithm: Int(try row.integer(5)),
        signCount: UInt32(clamping: try row.integer(6)),
        transports: transports.utf8.split(separator: UInt8(ascii: ",")).map { String(Substring($0)) },
        backupEligible: try row.integer(8) != 0, backupState: try row.integer(9) != 0,
        userVerifiedAtRegistration: try row.integer(10) != 0, aaguid: try bytes(11),
        attestationFormat: try row.text(12), attestationTrust: AttestationTrust(rawValue: try row.text(13)) ?? .none,
        createdAt: Date(timeIntervalSince1970: TimeInterval(try row.integer(14))),
        lastUsedAt: row.optionalInteger(15).map { Date(timeIntervalSince1970: TimeInterval($0)) })
    return PasskeyRecord(accountID: try row.text(0), name: try row.text(1), credential: credential)
}
