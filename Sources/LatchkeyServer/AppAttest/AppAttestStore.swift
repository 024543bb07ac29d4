import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// What `Database.acceptAppAttestAssertion` decided.
public enum AppAttestAcceptance: Sendable, Equatable {
    /// The counter moved forward and the challenge was used up.
    case accepted
    /// Another assertion with this counter or a higher one was accepted first (nothing changed).
    case counterNotIncreasing(stored: UInt32)
    /// The challenge is unknown, expired or was used (nothing changed).
    case challengeInvalid
}

/// App Attest keys and challenges in the server's database, shared by every process on it.
extension Database {
    /// Issues a one-time challenge valid until `expiresAt`; expired ones are swept as new ones arrive.
    public func insertAppAttestChallenge(_ challenge: Data, expiresAt: Int64, now: Int64) throws {
        try withConnection { conn in
            try conn.execute("DELETE FROM app_attest_challenges WHERE expires_at < ?", [.integer(now - 3600)])
            try conn.execute("INSERT INTO app_attest_challenges (challenge, expires_at) VALUES (?, ?)",
                             [.text(challenge.base64URLEncodedString()), .integer(expiresAt)])
        }
    }

    /// Uses up a challenge: true when it was issued, not yet used and not expired at `now`. Atomic across processes
    /// (`DELETE … RETURNING`): of two requests with one challenge, one gets true.
    public func consumeAppAttestChallenge(_ challenge: Data, now: Int64) throws -> Bool {
        try withConnection { conn in try consumeChallenge(challenge, now: now, on: conn) }
    }

    /// Stores a newly attested key. Returns false (and changes nothing) when the key was attested before: a second
    /// valid attestation of a key (a client that lost the first answer) neither resets its counter nor replaces it.
    public func insertAppAttestKey(_ key: AppAttestKeyRecord) throws -> Bool {
        try withConnection { conn in
            !(try conn.execute("""
                INSERT INTO app_attest_keys (key_id, app_id, environment, public_key, sign_count, receipt, created_at,
                    last_used_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
                ON CONFLICT (key_id) DO NOTHING RETURNING key_id
                """, [.text(key.keyID.base64URLEncodedString()), .text(key.appID), .text(key.environment.rawValue),
                      .text(key.publicKey.base64URLEncodedString()), .integer(Int64(key.counter)),
                      .text(key.receipt.base64URLEncodedString()), .integer(key.createdAt)]).isEmpty)
        }
    }

    /// The attested key with this identifier.
    public func appAttestKey(id: Data) throws -> AppAttestKeyRecord? {
        try withConnection { conn in
            try conn.execute("""
                SELECT key_id, app_id, environment, public_key, sign_count, receipt, created_at, last_used_at
                FROM app_attest_keys WHERE key_id = ?
                """, [.text(id.base64URLEncodedString())]).first.map(appAttestKeyRecord)
        }
    }

    /// Records a verified assertion in one transaction: the key's counter moves to `counter` only if that is greater
    /// than the stored one (`UPDATE … WHERE sign_count < ?`: of concurrent assertions with one counter, on any number
    /// of processes, at most one passes), and the challenge is used up. If either fails nothing changes, so a replayed
    /// assertion cannot use up the challenge of the genuine request it races.
    public func acceptAppAttestAssertion(keyID: Data, counter: UInt32, challenge: Data, now: Int64) throws -> AppAttestAcceptance {
        let id = keyID.base64URLEncodedString()
        do {
            return try transaction { conn in
                let moved = try conn.execute("""
                    UPDATE app_attest_keys SET sign_count = ?, last_used_at = ? WHERE key_id = ? AND sign_count < ?
                    RETURNING key_id
                    """, [.integer(Int64(counter)), .integer(now), .text(id), .integer(Int64(counter))])
                guard !moved.isEmpty else {
                    let stored = try conn.execute("SELECT sign_count FROM app_attest_keys WHERE key_id = ?", [.text(id)])
                        .first.map { UInt32(clamping: try $0.integer(0)) } ?? 0
                    throw AppAttestRollback(outcome: .counterNotIncreasing(stored: stored))
                }
                guard try consumeChallenge(challenge, now: now, on: conn) else {
                    throw AppAttestRollback(outcome: .challengeInvalid)
                }
                return AppAttestAcceptance.accepted
            }
        } catch let rollback as AppAttestRollback {
            return rollback.outcome
        }
    }
}

/// Undoes `acceptAppAttestAssertion`'s transaction and carries why.
private struct AppAttestRollback: Error {
    let outcome: AppAttestAcceptance
}

private func consumeChallenge(_ challenge: Data, now: Int64, on conn: any SQLConnection) throws -> Bool {
    guard let row = try conn.execute("DELETE FROM app_attest_challenges WHERE challenge = ? RETURNING expires_at",
                                     [.text(challenge.base64URLEncodedString())]).first else { return false }
    return try row.integer(0) >= now
}

private func appAttestKeyRecord(_ row: SQLRow) throws -> AppAttestKeyRecord {
    func bytes(_ i: Int) throws -> Data {
        guard let data = Data(base64URLEncoded: try row.text(i)) else { throw DatabaseError.unexpectedValue(column: i) }
        return data
    }
    guard let environment = AppAttestEnvironment(rawValue: try row.text(2)) else {
        throw DatabaseError.unexpectedValue(column: 2)
    }
    return AppAttestKeyRecord(keyID: try bytes(0), appID: try row.text(1), environment: environment,
                              publicKey: try bytes(3), counter: UInt32(clamping: try row.integer(4)),
                              receipt: try bytes(5), createdAt: try row.integer(6), lastUsedAt: row.optionalInteger(7))
}
