import Foundation

extension Database {
    /// The current failure record for `key`, if any.
    public func throttleState(key: String) throws -> ThrottleState? {
        try withConnection { conn in
            try conn.execute("SELECT throttle_key, failures, last_failure_at, blocked_until FROM login_throttle WHERE throttle_key = ?",
                             [.text(key)]).first.map(decodeThrottle)
        }
    }

    /// Atomically counts one failure for `key` (restarting the count when the previous failure is older
    /// than `resetAfter` seconds) and stores the block that `blockUntil(failures)` computes.
    public func recordFailure(key: String, now: Int64, resetAfter: Int64,
                              blockUntil: (Int) -> Int64) throws -> ThrottleState {
        // Relaxed: a failure count lost in a power cut gives a guesser a few more tries, while a synced
        // commit per failed attempt would make every bad password cost the server a disk flush.
        let computed: ThrottleState = try transaction(durability: .relaxed) { conn in
            let rows = try conn.execute("""
                INSERT INTO login_throttle (throttle_key, failures, last_failure_at, blocked_until) VALUES (?, 1, ?, 0)
                ON CONFLICT (throttle_key) DO UPDATE SET
                    failures = CASE WHEN login_throttle.last_failure_at < ? THEN 1 ELSE login_throttle.failures + 1 END,
                    last_failure_at = excluded.last_failure_at
                RETURNING failures
                """, [.text(key), .integer(now), .integer(now - resetAfter)])
            let failures = Int(try rows.first?.integer(0) ?? 1)
            let blocked = blockUntil(failures)
            try conn.execute("UPDATE login_throttle SET blocked_until = ? WHERE throttle_key = ?", [.integer(blocked), .text(key)])
            return ThrottleState(key: key, failures: failures, lastFailureAt: now, blockedUntil: blocked)
        }
        return computed
    }

    /// Forgets the failures of `key` (after a successful login).
    public func clearThrottle(key: String) throws {
        try withConnection { conn in try conn.execute("DELETE FROM login_throttle WHERE throttle_key = ?", [.text(key)]) }
    }
}

private func decodeThrottle(_ row: SQLRow) throws -> ThrottleState {
    ThrottleState(key: try row.text(0), failures: Int(try row.integer(1)), lastFailureAt: try row.integer(2),
                  blockedUntil: try row.integer(3))
}
