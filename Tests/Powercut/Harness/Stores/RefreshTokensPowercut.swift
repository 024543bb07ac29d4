import Dispatch
import Foundation
import LatchkeyServer
import LatchkeySupport

/// The server's refresh tokens under power cuts: rotations on several threads at once (SQLite group-commits them, each
/// `.relaxed`), session starts (`.full`, group-committed with the rotations) and revocations (`.full`).
///
/// A rotation acknowledged `.relaxed` is promised to survive a power cut only once a later full commit has synced the
/// log (docs/ARCHITECTURE.md, "Server"): the check holds each family's chain to that. A family after a cut is a prefix of
/// the chain its thread built (every token but the last used), never shorter than its last durable rotation, never
/// longer than what was sent; a relaxed rotation with no full commit after it may be undone (counted apart).
package final class RefreshTokensPowercut: PowercutStore {
    package let name = "refresh-tokens"
    package let operations = ["rotation (group commit)", "session start", "session revocation"]

    /// One session's token chain as the harness built it.
    struct Family: Sendable {
        var tokens: [String]
        /// Index of the newest token whose rotation (or the session start, for 0) was acknowledged.
        var acknowledged = 0
        /// Index of the newest token known durable: acknowledged by a full commit, or a relaxed rotation acknowledged
        /// before a full commit that started after it was acknowledged.
        var durable = 0
        /// Relaxed rotations acknowledged and not yet known durable: (index, the sequence number at acknowledgement).
        var relaxed: [(index: Int, at: Int)] = []
        /// The session start is in flight (not yet acknowledged).
        var starting = false
        var revoked = false
        var revoking = false
    }

    /// What the threads of a trial share (Sendable: everything behind one lock).
    final class Ledger: Sendable {
        private let state = Locked(State())
        struct State {
            var families: [String: Family] = [:]
            var sequence = 0
            /// The newest start (sequence number) of an acknowledged full commit.
            var fullCommitStart = -1
        }

        func next() -> Int { state.withLock { $0.sequence += 1; return $0.sequence } }
        func with<R>(_ body: (inout State) -> R) -> R { state.withLock(body) }
    }

    private var directory = URL(fileURLWithPath: "/")
    private var database: SQLiteDatabase?
    private let ledger = Ledger()
    private var counter = 0
    static let account = "owner"
    static let threads = 3

    package init() {}

    package func prepare(in directory: URL) throws {
        self.directory = directory
        ledger.with { $0 = Ledger.State() }
        let database = try ServerDatabasePowercut.open(in: directory)
        try database.insertAccount(AccountRecord(id: Self.account, username: Self.account, usernameKey: Self.account,
                                                 passwordHash: "-", createdAt: ServerDatabasePowercut.epoch))
        for _ in 0..<Self.threads {
            counter += 1
            let id = "session-\(counter)", first = "token-\(counter)-0"
            try database.createSession(session(id), firstToken: token(first, family: id, parent: nil))
            ledger.with { $0.families[id] = Family(tokens: [first]) }
        }
    }

    private func session(_ id: String) -> SessionRecord {
        SessionRecord(id: id, accountID: Self.account, clientID: "app", createdAt: ServerDatabasePowercut.epoch,
                      expiresAt: ServerDatabasePowercut.epoch + 86_400 * 365)
    }

    private func token(_ hash: String, family: String, parent: String?) -> RefreshTokenRecord {
        RefreshTokenRecord(tokenHash: hash, familyID: family, parentHash: parent, accountID: Self.account, clientID: "app",
                           scope: "", createdAt: ServerDatabasePowercut.epoch, expiresAt: ServerDatabasePowercut.epoch + 86_400 * 365)
    }

    package func close() { database = nil }

    package func run(_ operation: Int, _ trial: PowercutTrial) {
        guard let database else { return trial.unexpected("no database open") }
        switch operation {
        case 1:
            if trial.random(0..<2) == 0 { rotations(database, trial, armed: false) }
            trial.armCut()
            start(database, trial)
        case 2:
            if trial.random(0..<2) == 0 { rotations(database, trial, armed: false) }
            trial.armCut()
            revoke(database, trial)
        default:
            rotations(database, trial, armed: true)
        }
    }

    /// The families neither revoked nor starting, by name.
    private func activeFamilies() -> [String] {
        ledger.with { (state: inout Ledger.State) -> [String] in
            var names: [String] = []
            for (id, family) in state.families where !family.revoked && !family.starting { names.append(id) }
            return names.sorted()
        }
    }

    /// A session start: a new family, fully durable.
    private func start(_ database: SQLiteDatabase, _ trial: PowercutTrial) {
        counter += 1
        let id = "session-\(counter)", first = "token-\(counter)-0"
        let ledger = self.ledger
        let begun = ledger.next()
        ledger.with { $0.families[id] = Family(tokens: [first], starting: true) }
        if trial.attempt("session start", { try database.createSession(session(id), firstToken: token(first, family: id, parent: nil)) }) {
            ledger.with {
                $0.families[id]?.starting = false
                $0.fullCommitStart = max($0.fullCommitStart, begun)
            }
        }
    }

    /// A revocation of a family still active (another session starts in its place, so rotations keep their threads).
    private func revoke(_ database: SQLiteDatabase, _ trial: PowercutTrial) {
        let ledger = self.ledger
        let active = activeFamilies()
        guard active.count > Self.threads else { return start(database, trial) }
        let id = active[trial.random(0..<active.count)]
        let begun = ledger.next()
        ledger.with { $0.families[id]?.revoking = true }
        if trial.attempt("session revocation", {
            guard try database.revokeSession(id: id, now: ServerDatabasePowercut.epoch + 1) else {
                throw PowercutSimulator.Failure(description: "the session was not active")
            }
        }) {
            ledger.with {
                $0.families[id]?.revoked = true
                $0.families[id]?.revoking = false
                $0.fullCommitStart = max($0.fullCommitStart, begun)
            }
        }
    }

    /// Rotations on `threads` threads at once, one family each, with session starts on another thread: the commits
    /// SQLite groups. With `armed`, the cut is armed first and the threads go on until it comes (or a few rounds).
    private func rotations(_ database: SQLiteDatabase, _ trial: PowercutTrial, armed: Bool) {
        let ledger = self.ledger
        var families = activeFamilies()
        while families.count < Self.threads {
            start(database, trial)
            if trial.hasCut { return }
            families = activeFamilies()
        }
        var dice = trial.generator(counter)
        let chosen = Array(families.shuffled(using: &dice).prefix(Self.threads))
        let rounds = armed ? 12 : trial.random(1..<4)
        let base = counter
        counter += rounds * (Self.threads + 1)
        if armed { trial.armCut() }
        DispatchQueue.concurrentPerform(iterations: Self.threads + 1) { thread in
            guard thread < Self.threads else {
                // Full commits among the rotations: session starts.
                for round in 0..<rounds where round % 4 == 1 {
                    let id = "session-\(base)-\(round)", first = "token-\(base)-\(round)-0"
                    let begun = ledger.next()
                    ledger.with { $0.families[id] = Family(tokens: [first], starting: true) }
                    let record = SessionRecord(id: id, accountID: Self.account, clientID: "app", createdAt: ServerDatabasePowercut.epoch,
                                               expiresAt: ServerDatabasePowercut.epoch + 86_400 * 365)
                    let firstToken = RefreshTokenRecord(tokenHash: first, familyID: id, parentHash: nil, accountID: Self.account,
                                                        clientID: "app", scope: "", createdAt: ServerDatabasePowercut.epoch,
                                                        expiresAt: ServerDatabasePowercut.epoch + 86_400 * 365)
                    guard trial.attempt("session start", { try database.createSession(record, firstToken: firstToken) }) else { return }
                    ledger.with {
                        $0.families[id]?.starting = false
                        $0.fullCommitStart = max($0.fullCommitStart, begun)
                    }
                }
                return
            }
            let id = chosen[thread]
            for round in 0..<rounds {
                guard let current = ledger.with({ $0.families[id]?.tokens.last }) else { return }
                let successor = "token-\(id)-\(base)-\(round)"
                ledger.with { $0.families[id]?.tokens.append(successor) }
                let now = ServerDatabasePowercut.epoch + Int64(base + round)
                var outcome: RotationOutcome?
                guard trial.attempt("rotation", {
                    outcome = try database.rotateRefreshToken(presentedHash: current, successorHash: successor, now: now,
                                                             successorExpiresAt: ServerDatabasePowercut.epoch + 86_400 * 365)
                }) else { return }
                guard case .rotated = outcome else {
                    trial.unexpected("rotation of \(id) answered \(String(describing: outcome))")
                    return
                }
                let at = ledger.next()
                trial.relaxed()
                ledger.with {
                    guard var family = $0.families[id] else { return }
                    family.acknowledged = family.tokens.count - 1
                    family.relaxed.append((family.acknowledged, at))
                    $0.families[id] = family
                }
            }
        }
    }

    package func reopen(_ trial: PowercutTrial) -> PowercutReopen {
        database = nil
        let (opened, outcome) = ServerDatabasePowercut.reopen(in: directory, trial)
        guard let opened else { return outcome }
        do {
            let stored = Set(try ServerDatabasePowercut.texts(opened, "SELECT id FROM sessions"))
            let families = ledger.with { $0.families }
            let fullCommitStart = ledger.with { $0.fullCommitStart }
            var settled: [String: Family] = [:]
            for id in stored where families[id] == nil { trial.wrong("session \(id) was never started") }
            for (id, family) in families.sorted(by: { $0.key < $1.key }) {
                let session = try opened.session(id: id)
                if session == nil {
                    if !family.starting { trial.lost("session \(id): acknowledged, missing") }
                    continue
                }
                if family.starting { trial.inFlightCommitted() }
                let rows = try opened.refreshTokens(familyID: id)
                if let settledFamily = check(id, family, rows, revoked: session?.revokedAt != nil,
                                             fullCommitStart: fullCommitStart, trial) {
                    settled[id] = settledFamily
                }
            }
            ledger.with {
                $0.families = settled
                $0.fullCommitStart = -1
            }
        } catch {
            trial.unexpected("reading the sessions: \(error)")
            return .restart
        }
        database = opened
        return .checked
    }

    /// One family against its chain; returns it as found (the new durable state).
    private func check(_ id: String, _ family: Family, _ rows: [RefreshTokenRecord], revoked: Bool, fullCommitStart: Int,
                       _ trial: PowercutTrial) -> Family? {
        let byHash = Dictionary(rows.map { ($0.tokenHash, $0) }, uniquingKeysWith: { first, _ in first })
        for row in rows where !family.tokens.contains(row.tokenHash) { trial.wrong("session \(id): a token never issued") }
        let present = family.tokens.prefix { byHash[$0] != nil }.count
        guard present > 0 else {
            trial.lost("session \(id): its first token is missing")
            return nil
        }
        if family.tokens.dropFirst(present).contains(where: { byHash[$0] != nil }) {
            trial.wrong("session \(id): a token is missing from the middle of its chain")
        }
        let last = present - 1
        for hash in family.tokens.prefix(last) where byHash[hash]?.usedAt == nil {
            trial.wrong("session \(id): a rotated token is unused")
        }
        if !revoked, byHash[family.tokens[last]]?.usedAt != nil { trial.wrong("session \(id): its current token is used") }
        // Durable: what a full commit acknowledged, and relaxed rotations a full commit started after.
        var durable = family.durable
        for relaxed in family.relaxed where relaxed.at < fullCommitStart { durable = max(durable, relaxed.index) }
        if last < durable {
            trial.lost("session \(id): a durable rotation is missing (token \(last) current, \(durable) durable)")
        } else if last < family.acknowledged {
            trial.relaxedRolledBack(family.acknowledged - last)
        } else if last > family.acknowledged {
            if last == family.tokens.count - 1 && last == family.acknowledged + 1 {
                trial.inFlightCommitted()
            } else {
                trial.wrong("session \(id): a rotation that was not sent is there")
            }
        }
        if revoked && !family.revoked && !family.revoking { trial.wrong("session \(id): revoked, never asked") }
        if !revoked && family.revoked { trial.lost("session \(id): an acknowledged revocation is missing") }
        if revoked && family.revoking { trial.inFlightCommitted() }
        var settled = Family(tokens: Array(family.tokens.prefix(present)))
        settled.acknowledged = last
        settled.durable = last
        settled.revoked = revoked
        return settled
    }

    package func summary(_ tally: PowercutTally) -> String {
        "of the acknowledged, \(tally.relaxed) rotations committed `.relaxed` (durable at the next full commit), "
            + "\(tally.relaxedRolledBack) of them undone by a cut before one (allowed)"
    }
}
