import Foundation
import LatchkeyServer

/// The server's Apple revocation outbox under power cuts: tokens queued by account deletions, a sender's claim (one
/// attempt more, the claim's holder and end), the completion (the row goes) and the rescheduling of a failed attempt.
package final class AppleRevocationsPowercut: ServerDatabaseStore {
    package let name = "apple-revocations"
    package let operations = ["claim", "completion", "rescheduling", "queueing (account deletion)"]

    struct Revocation: Equatable, Sendable {
        var token: String
        var attempts: Int64
        var claimedBy: String?
        var claimedUntil: Int64?
        var nextAttemptAt: Int64
        var lastError: String?
    }

    private static let worker = "powercut-worker"
    package var directory = URL(fileURLWithPath: "/")
    package var database: SQLiteDatabase?
    /// By the subject the token is sealed to (one per row here: each queued token is a new Apple ID's).
    private var revocations = PowercutLedger<Revocation>()
    private var counter = 0
    private var template: AppleIdentityRecord?

    package init() {}

    /// The outbox's clock: ten seconds per operation, so that claims (thirty seconds) run out after a few.
    private var now: Int64 { ServerDatabasePowercut.epoch + 10 * Int64(counter) }

    package func prepare(in directory: URL) throws {
        self.directory = directory
        revocations = PowercutLedger()
        counter = 0
        let database = try ServerDatabasePowercut.open(in: directory)
        template = try ServerDatabasePowercut.appleIdentityTemplate(database)
        for _ in 0..<4 {
            counter += 1
            try queue(counter, database)
            revocations.set(Self.subject(counter), Revocation(token: "sealed-\(counter)", attempts: 0, nextAttemptAt: now))
        }
    }

    private static func subject(_ n: Int) -> String { "00\(n).apple" }

    /// Links account number `n` to a new Apple ID with the refresh token `sealed-<n>`, then deletes the account, which
    /// queues the token (two transactions).
    private func queue(_ n: Int, _ database: SQLiteDatabase) throws {
        let account = "revoked-account-\(n)"
        try database.insertLinkedAccount(template, account: account, subject: Self.subject(n), token: "sealed-\(n)", passwordHash: "-")
        guard try database.deleteAccount(id: account, now: now) != nil else {
            throw PowercutSimulator.Failure(description: "account \(account) was not there to delete")
        }
    }

    package func perform(_ operation: Int, _ database: SQLiteDatabase, _ trial: PowercutTrial) {
        counter += 1
        let now = self.now
        let claimed = revocations.keys.filter { revocations[$0]?.claimedBy == Self.worker }.sorted()
        switch operation {
        case 1 where !claimed.isEmpty, 2 where !claimed.isEmpty:
            let subject = claimed[trial.random(0..<claimed.count)]
            guard var revocation = revocations[subject], let id = try? Self.read(database)[subject]?.id else {
                return trial.unexpected("revocation \(subject) is not in the outbox")
            }
            if operation == 1 {
                revocations.begin([(subject, nil)])
                if trial.attempt("completion", {
                    guard try database.completeAppleRevocation(id: id, worker: Self.worker) else {
                        throw PowercutSimulator.Failure(description: "the claim on \(subject) was lost")
                    }
                }) {
                    revocations.acknowledge()
                }
            } else {
                revocation.claimedBy = nil
                revocation.claimedUntil = nil
                revocation.nextAttemptAt = now + 60
                revocation.lastError = "HTTP 503 (attempt \(revocation.attempts))"
                let error = revocation.lastError ?? ""
                revocations.begin([(subject, revocation)])
                if trial.attempt("rescheduling", {
                    try database.rescheduleAppleRevocation(id: id, worker: Self.worker, nextAttemptAt: now + 60, error: error)
                }) {
                    revocations.acknowledge()
                }
            }
        case 3:
            let n = counter
            revocations.begin([(Self.subject(n), Revocation(token: "sealed-\(n)", attempts: 0, nextAttemptAt: now))])
            if trial.attempt("queueing", { try queue(n, database) }) { revocations.acknowledge() }
        default:
            // The claim takes the due row that comes first by (next attempt, id): read what the outbox holds to know it.
            guard let rows = try? Self.read(database) else { return trial.unexpected("reading the outbox failed") }
            let due = rows.filter { $0.value.revocation.nextAttemptAt <= now && ($0.value.revocation.claimedUntil ?? 0) <= now }
                .min { ($0.value.revocation.nextAttemptAt, $0.value.id) < ($1.value.revocation.nextAttemptAt, $1.value.id) }
            guard let (subject, row) = due else { return }
            var revocation = row.revocation
            revocation.attempts += 1
            revocation.claimedBy = Self.worker
            revocation.claimedUntil = now + 30
            revocations.begin([(subject, revocation)])
            if trial.attempt("claim", {
                guard try database.claimAppleRevocation(worker: Self.worker, now: now, claimedUntil: now + 30)?.subject == subject else {
                    throw PowercutSimulator.Failure(description: "the claim did not take \(subject)")
                }
            }) {
                revocations.acknowledge()
            }
        }
    }

    /// Every row of the outbox, by subject.
    private static func read(_ database: SQLiteDatabase) throws -> [String: (id: String, revocation: Revocation)] {
        try database.withConnection { conn in
            var rows: [String: (id: String, revocation: Revocation)] = [:]
            for row in try conn.execute("""
                SELECT subject, id, token_sealed, attempts, claimed_by, claimed_until, next_attempt_at, last_error
                FROM apple_revocations
                """) {
                rows[try row.text(0)] = (try row.text(1), Revocation(
                    token: try row.text(2), attempts: try row.integer(3), claimedBy: row.optionalText(4),
                    claimedUntil: row.optionalInteger(5), nextAttemptAt: try row.integer(6), lastError: row.optionalText(7)))
            }
            return rows
        }
    }

    package func check(_ database: SQLiteDatabase, _ trial: PowercutTrial) throws {
        revocations.check(try Self.read(database).mapValues(\.revocation), trial) { "revocation of \($0)" }
    }
}
