import Foundation

extension Database {
    /// The PostgreSQL advisory lock key that serializes signing-key rotation across instances.
    static var signingKeyLock: Int64 { 0x4C4B_5349_474E } // "LKSIGN"

    public func insertSigningKey(_ key: SigningKeyRecord) throws {
        try withConnection { conn in
            try conn.execute("INSERT INTO signing_keys (kid, private_key, public_jwk, created_at, retired_at) VALUES (?, ?, ?, ?, ?)",
                             [.text(key.kid), .text(key.privateKey), .text(key.publicJWK), .integer(key.createdAt),
                              .optional(key.retiredAt)])
        }
    }

    /// Every stored key, newest first.
    public func signingKeys() throws -> [SigningKeyRecord] {
        try withConnection { conn in
            try conn.execute("SELECT kid, private_key, public_jwk, created_at, retired_at FROM signing_keys ORDER BY created_at DESC, kid")
                .map { row in
                    SigningKeyRecord(kid: try row.text(0), privateKey: try row.text(1), publicJWK: try row.text(2),
                                     createdAt: try row.integer(3), retiredAt: row.optionalInteger(4))
                }
        }
    }

    /// Installs `key` as the active key and retires the previous one, in one transaction.
    ///
    /// With `onlyIfActiveCreatedBefore`, the key is installed only when no active key exists or the active
    /// one was created before that time; with `onlyIfNoActiveKey`, only when no active key exists. Several
    /// instances may call this at the same moment: the transaction is serialized (SQLite `BEGIN IMMEDIATE`,
    /// a PostgreSQL transaction-scoped advisory lock) and the condition is checked inside it, so exactly
    /// one of them creates the next key. Returns false when the condition did not hold (another instance
    /// rotated first).
    @discardableResult
    public func installSigningKey(_ key: SigningKeyRecord, now: Int64, onlyIfActiveCreatedBefore cutoff: Int64? = nil,
                                  onlyIfNoActiveKey: Bool = false) throws -> Bool {
        try transaction { conn in
            if dialect == .postgres { try conn.execute("SELECT pg_advisory_xact_lock(\(Self.signingKeyLock))", []) }
            let active = try conn.execute("SELECT created_at FROM signing_keys WHERE retired_at IS NULL", [])
                .map { try $0.integer(0) }
            if onlyIfNoActiveKey, !active.isEmpty { return false }
            if let cutoff, active.contains(where: { $0 >= cutoff }) { return false }
            try conn.execute("UPDATE signing_keys SET retired_at = ? WHERE retired_at IS NULL", [.integer(now)])
            try conn.execute("INSERT INTO signing_keys (kid, private_key, public_jwk, created_at, retired_at) VALUES (?, ?, ?, ?, ?)",
                             [.text(key.kid), .text(key.privateKey), .text(key.publicJWK), .integer(key.createdAt),
                              .optional(key.retiredAt)])
            return true
        }
    }

    /// Deletes keys retired before `before` (their tokens can no longer be valid).
    @discardableResult
    public func deleteSigningKeys(retiredBefore before: Int64) throws -> Int {
        try withConnection { conn in
            try conn.execute("DELETE FROM signing_keys WHERE retired_at IS NOT NULL AND retired_at < ? RETURNING kid",
                             [.integer(before)]).count
        }
    }
}
