import Foundation
import LatchkeyCrypto
import LatchkeySupport

/// Sends the Apple refresh tokens of deleted accounts to Apple's `POST /auth/revoke` (TN3194: a Sign in with Apple
/// account's tokens must be revoked when the account is deleted) — at least once, from whichever instance gets to a
/// row first, across restarts.
///
/// The deletion moves each sealed token into the `apple_revocations` table in its own transaction and is never held
/// up by Apple. A worker claims one due row at a time (`Database.claimAppleRevocation`: a conditional `UPDATE` with a
/// lease, so no two workers — threads, processes, instances on one PostgreSQL — send one row at once), opens the seal,
/// sends the revocation with the team's client secret and deletes the row when Apple answers 200. Anything else (no
/// answer, an error status) releases the claim with the next attempt set by exponential backoff
/// (`Policy.firstRetryDelay`, doubling up to `Policy.maximumRetryDelay`), forever: Apple answers 200 for any
/// token once it is reachable and the client secret is right. A worker that dies holding a claim loses it when its
/// lease ends (`Policy.claimLease`, longer than a request to Apple may take), and another sends the row again —
/// harmless, as a revocation is idempotent.
public final class AppleRevocationOutbox: Sendable {
    public struct Policy: Sendable, Equatable {
        /// Seconds before the first retry of a failed revocation; each further retry waits twice as long as the last.
        public var firstRetryDelay: Int64
        /// The longest wait between two attempts, in seconds.
        public var maximumRetryDelay: Int64
        /// Seconds a claim holds: longer than one request to Apple can take (`URLSessionAppleHTTPClient`: 10 s).
        public var claimLease: Int64
        /// The longest `run()` sleeps between two looks at the table (rows queued by other instances, expired claims).
        public var pollInterval: Int64

        public init(firstRetryDelay: Int64 = 60, maximumRetryDelay: Int64 = 3600, claimLease: Int64 = 120,
                    pollInterval: Int64 = 60) {
            self.firstRetryDelay = max(1, firstRetryDelay)
            self.maximumRetryDelay = max(self.firstRetryDelay, maximumRetryDelay)
            self.claimLease = max(1, claimLease)
            self.pollInterval = max(1, pollInterval)
        }

        /// The wait after the `attempts`-th failed attempt.
        func retryDelay(afterAttempts attempts: Int) -> Int64 {
            let doublings = min(max(attempts - 1, 0), 40)
            return min(firstRetryDelay.multipliedReportingOverflow(by: Int64(1) << doublings).partialValue, maximumRetryDelay)
        }
    }

    public let database: any Database
    public let policy: Policy
    let client: AppleAuthClient
    let key: SymmetricKey
    let clock: any ServerClock
    /// This worker's name in the claims it takes.
    let worker = "worker-" + UUID().uuidString.lowercased()

    public init(database: any Database, client: AppleAuthClient, key: SymmetricKey, clock: any ServerClock = SystemClock(),
                policy: Policy = Policy()) {
        self.database = database
        self.client = client
        self.key = key
        self.clock = clock
        self.policy = policy
    }

    /// What one pass over the due rows did.
    public struct Pass: Sendable, Equatable {
        public var revoked = 0
        public var failed = 0
    }

    /// Sends every revocation that is due now, one claim at a time, until none is left (a failed one is due again
    /// only later). Safe to call from several tasks and instances at once.
    @discardableResult
    public func processDue() async -> Pass {
        var pass = Pass()
        while true {
            let now = clock.seconds
            let claimed: AppleRevocation?
            do { claimed = try database.claimAppleRevocation(worker: worker, now: now, claimedUntil: now + policy.claimLease) } catch {
                LatchkeyLog.log(.warning, category: "apple", "revocation outbox: \(error.localizedDescription)")
                return pass
            }
            guard let revocation = claimed else { return pass }
            if await send(revocation) { pass.revoked += 1 } else { pass.failed += 1 }
        }
    }

    /// Sends one claimed revocation; true when Apple accepted it and the row is gone.
    private func send(_ revocation: AppleRevocation) async -> Bool {
        do {
            let token = try unseal(revocation)
            try await client.revoke(token: token, clientID: revocation.clientID ?? defaultClientID)
            try database.completeAppleRevocation(id: revocation.id, worker: worker)
            try? database.appendAudit(AuditEvent(at: clock.seconds, accountID: nil, event: "apple_token_revoked", ip: nil,
                                                 detail: "attempt \(revocation.attempts)"))
            return true
        } catch {
            let delay = policy.retryDelay(afterAttempts: revocation.attempts)
            let reason = String(String(describing: error).prefix(200))
            LatchkeyLog.log(.warning, category: "apple",
                            "revocation outbox: attempt \(revocation.attempts) failed (\(error.localizedDescription)); next in \(delay) s")
            do {
                try database.rescheduleAppleRevocation(id: revocation.id, worker: worker, nextAttemptAt: clock.seconds + delay,
                                                       error: reason)
            } catch {
                // The claim ends by itself at its lease: the row is tried again then.
                LatchkeyLog.log(.warning, category: "apple", "revocation outbox: \(error.localizedDescription)")
            }
            return false
        }
    }

    /// The token of a row: the seal was made with the `sub` as associated data (`AppleSessionService.exchange`).
    private func unseal(_ revocation: AppleRevocation) throws -> String {
        guard let combined = Data(base64URLEncoded: revocation.tokenSealed) else {
            throw CryptoError.malformedInput("sealed Apple refresh token")
        }
        let token = try AES.GCM.open(try AES.GCM.SealedBox(combined: combined), using: key,
                                     authenticating: Data(revocation.subject.utf8))
        return String(decoding: token, as: UTF8.self)
    }

    /// The app a token of an old row (without a client id) is revoked for: the configuration's only client id, or the
    /// first in order.
    private var defaultClientID: String { client.configuration.clientIDs.sorted().first ?? "" }

    /// Processes the outbox until the task is cancelled: every due row, then a sleep until the next one falls due (at
    /// most `Policy.pollInterval`). Run one per server process.
    public func run() async {
        while !Task.isCancelled {
            await processDue()
            let next = (try? database.nextAppleRevocationDue()) ?? Int64.max
            let wait = min(max(next - clock.seconds, 1), policy.pollInterval)
            try? await Task.sleep(for: .seconds(wait))
        }
    }

    /// Starts an attempt now (after a deletion queued revocations), beside `run()`'s schedule.
    public func wake() {
        Task.detached { [self] in await processDue() }
    }
}
