import Foundation

extension Database {
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

    /// Marks every active key except `kid` retired at `now`, in one transaction with inserting `key`.
    public func installSigningKey(_ key: SigningKeyRecord, now: Int64) throws {
        try transaction { conn in
            try conn.execute("UPDATE signing_keys SET retired_at = ? WHERE retired_at IS NULL", [.integer(now)])
            try conn.execute("INSERT INTO signing_keys (kid, private_key, public_jwk, created_at, retired_at) VALUES (?, ?, ?, ?, ?)",
                             [.text(key.kid), .text(key.privateKey), .text(key.publicJWK), .integer(key.createdAt),
                              .optional(key.retiredAt)])
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
