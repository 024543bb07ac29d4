import Foundation
import LatchkeyCrypto

/// WebAuthn challenges kept in the server's database, so every `latchkey serve` process sharing one
/// database accepts a response to a challenge another issued, and a challenge is consumed at most once
/// across all of them (`DELETE ... RETURNING` is atomic in SQLite and PostgreSQL).
public struct DatabaseChallengeStore: ChallengeStore {
    public let database: any Database
    let now: @Sendable () -> Date

    /// `now` is the clock expired challenges are swept by (the relying party checks expiry itself).
    public init(database: any Database, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func insert(_ challenge: IssuedChallenge) async throws {
        let expires = Int64(challenge.expiresAt.timeIntervalSince1970.rounded(.up))
        try database.withConnection { conn in
            // Bounded: expired challenges go as new ones arrive.
            try conn.execute("DELETE FROM webauthn_challenges WHERE expires_at < ?",
                             [.integer(Int64(now().timeIntervalSince1970) - 3600)])
            try conn.execute("INSERT INTO webauthn_challenges (challenge, ceremony, user_handle, expires_at) VALUES (?, ?, ?, ?)",
                             [.text(challenge.challenge.base64URLEncodedString()), .text(challenge.ceremony.rawValue),
                              .optional(challenge.userHandle?.base64URLEncodedString()), .integer(expires)])
        }
    }

    public func consume(_ challenge: Data) async throws -> IssuedChallenge? {
        let rows = try database.withConnection { conn in
            try conn.execute("DELETE FROM webauthn_challenges WHERE challenge = ? RETURNING ceremony, user_handle, expires_at",
                             [.text(challenge.base64URLEncodedString())])
        }
        guard let row = rows.first, let ceremony = IssuedChallenge.Ceremony(rawValue: try row.text(0)) else { return nil }
        let handle = row.optionalText(1).flatMap { Data(base64URLEncoded: $0) }
        return IssuedChallenge(challenge: challenge, ceremony: ceremony, userHandle: handle,
                               expiresAt: Date(timeIntervalSince1970: TimeInterval(try row.integer(2))))
    }
}
