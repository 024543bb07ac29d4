import Foundation

/// One Apple refresh token waiting in the outbox to be revoked at Apple: still sealed, with the `sub` it is sealed to
/// (the seal's associated data) and the app it was issued to.
public struct AppleRevocation: Sendable, Equatable {
    public var id: String
    public var subject: String
    public var clientID: String?
    public var tokenSealed: String
    /// Attempts made so far, the claimed one included.
    public var attempts: Int
}

extension Database {
    /// Claims the oldest due revocation for `worker` until `claimedUntil`: of several instances asking at once, one
    /// gets it (the claiming `UPDATE` re-checks that no live claim exists, under the row's lock), and a claim whose
    /// holder died expires at `claimedUntil`. Nil when nothing is due.
    public func claimAppleRevocation(worker: String, now: Int64, claimedUntil: Int64) throws -> AppleRevocation? {
        try withConnection { conn in
            try conn.execute(AppleRevocationSQL.claim, [.text(worker), .integer(claimedUntil), .integer(now), .integer(now),
                                                        .integer(now)]).first.map { row in
                AppleRevocation(id: try row.text(0), subject: try row.text(1), clientID: row.optionalText(2),
                                tokenSealed: try row.text(3), attempts: Int(try row.integer(4)))
            }
        }
    }

    /// Removes a revocation Apple accepted (only while `worker` holds its claim). False when the claim was lost.
    @discardableResult
    public func completeAppleRevocation(id: String, worker: String) throws -> Bool {
        try withConnection { conn in
            !(try conn.execute("DELETE FROM apple_revocations WHERE id = ? AND claimed_by = ? RETURNING id",
                               [.text(id), .text(worker)])).isEmpty
        }
    }

    /// Releases a failed attempt's claim and sets when to try again; `error` says why (never the token).
    public func rescheduleAppleRevocation(id: String, worker: String, nextAttemptAt: Int64, error: String) throws {
        try withConnection { conn in
            try conn.execute("""
                UPDATE apple_revocations SET next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL, last_error = ?
                WHERE id = ? AND claimed_by = ?
                """, [.integer(nextAttemptAt), .text(error), .text(id), .text(worker)])
        }
    }

    /// When the next revocation falls due (its retry time, or the end of a claim that is held), nil when none waits.
    public func nextAppleRevocationDue() throws -> Int64? {
        try withConnection { conn in
            try conn.execute("""
                SELECT MIN(CASE WHEN claimed_until IS NOT NULL AND claimed_until > next_attempt_at THEN claimed_until
                                ELSE next_attempt_at END) FROM apple_revocations
                """).first?.optionalInteger(0)
        }
    }

    /// How many revocations wait (for status and tests).
    public func pendingAppleRevocations() throws -> Int {
        try withConnection { conn in
            Int(try conn.execute("SELECT COUNT(*) FROM apple_revocations").first?.integer(0) ?? 0)
        }
    }
}

/// The outbox statements, built once.
enum AppleRevocationSQL {
    static let insert = """
        INSERT INTO apple_revocations (id, subject, client_id, token_sealed, created_at, attempts, next_attempt_at)
        VALUES (?, ?, ?, ?, ?, 0, ?)
        """
    /// The due row is chosen by the subquery and claimed only if it is still unclaimed when its lock is held: on
    /// PostgreSQL a concurrent claimer waits for the row and then re-checks the condition against the new version.
    static let claim = """
        UPDATE apple_revocations SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1
        WHERE id = (SELECT id FROM apple_revocations
                    WHERE next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
                    ORDER BY next_attempt_at, id LIMIT 1)
          AND (claimed_until IS NULL OR claimed_until <= ?)
        RETURNING id, subject, client_id, token_sealed, attempts
        """
}
