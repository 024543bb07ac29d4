import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeySupport
@testable import LatchkeyServer

/// The shared storage suite: every test runs on SQLite and on PostgreSQL.
@Suite("Storage", .offCooperativePool)
struct StorageTests {
    static let t0: Int64 = 1_800_000_000

    func account(_ db: any Database, name: String = "alice") throws -> AccountRecord {
        let record = AccountRecord(id: "acct-\(name)", username: name, usernameKey: name.lowercased(),
                                   passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", createdAt: Self.t0)
        try db.insertAccount(record)
        return record
    }

    func session(_ db: any Database, accountID: String, id: String = "fam-1", token: String = "h0",
                 expiresAt: Int64 = t0 + 86_400) throws {
        try db.createSession(SessionRecord(id: id, accountID: accountID, clientID: "app", createdAt: Self.t0, expiresAt: expiresAt),
                             firstToken: RefreshTokenRecord(tokenHash: token, familyID: id, parentHash: nil, accountID: accountID,
                                                            clientID: "app", scope: "openid", createdAt: Self.t0, expiresAt: expiresAt))
    }

    @Test(arguments: StorageEngine.allCases)
    func migrationsApplyOnce(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        #expect(try SchemaMigrations.appliedVersions(test.database) == SchemaMigrations.all.map(\.version).sorted())
        #expect(try SchemaMigrations.migrate(test.database, now: Self.t0).isEmpty)
        let other = try test.openAnother()
        #expect(try SchemaMigrations.migrate(other, now: Self.t0).isEmpty)
    }

    @Test(arguments: StorageEngine.allCases)
    func accounts(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        let alice = try account(db)
        #expect(try db.account(usernameKey: "alice") == alice)
        #expect(try db.account(id: alice.id) == alice)
        #expect(try db.account(usernameKey: "bob") == nil)
        let duplicate = AccountRecord(id: "other", username: "ALICE", usernameKey: "alice", passwordHash: "x", createdAt: Self.t0)
        #expect(throws: DatabaseError.uniqueViolation) { try db.insertAccount(duplicate) }
        try db.updatePasswordHash(accountID: alice.id, passwordHash: "$argon2id$new")
        try db.updateAccountLockState(accountID: alice.id, failedCount: 3, lockedUntil: Self.t0 + 60)
        let updated = try #require(try db.account(id: alice.id))
        #expect(updated.passwordHash == "$argon2id$new")
        #expect(updated.failedCount == 3)
        #expect(updated.lockedUntil == Self.t0 + 60)
    }

    @Test(arguments: StorageEngine.allCases)
    func valuesRoundTripWithoutInterpolation(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let tricky = "Robert'); DROP TABLE accounts;-- ? $1 한국어 \u{1F511}"
        let record = AccountRecord(id: "id-1", username: tricky, usernameKey: tricky, passwordHash: "p", createdAt: -5)
        try test.database.insertAccount(record)
        #expect(try test.database.account(usernameKey: tricky) == record)
    }

    @Test(arguments: StorageEngine.allCases)
    func throttling(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        #expect(try db.throttleState(key: "ip:1.2.3.4") == nil)
        var state = try db.recordFailure(key: "ip:1.2.3.4", now: Self.t0, resetAfter: 900) { _ in 0 }
        #expect(state.failures == 1)
        state = try db.recordFailure(key: "ip:1.2.3.4", now: Self.t0 + 10, resetAfter: 900) { Self.t0 + 10 + Int64($0) }
        #expect(state.failures == 2)
        #expect(try db.throttleState(key: "ip:1.2.3.4")?.blockedUntil == Self.t0 + 12)
        state = try db.recordFailure(key: "ip:1.2.3.4", now: Self.t0 + 2000, resetAfter: 900) { _ in 0 }
        #expect(state.failures == 1, "count restarts after the reset window")
        try db.clearThrottle(key: "ip:1.2.3.4")
        #expect(try db.throttleState(key: "ip:1.2.3.4") == nil)
    }

    @Test(arguments: StorageEngine.allCases)
    func audit(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        let alice = try account(db)
        try db.appendAudit(AuditEvent(at: Self.t0, accountID: alice.id, event: "login_success", ip: "127.0.0.1"))
        try db.appendAudit(AuditEvent(at: Self.t0 + 1, accountID: nil, event: "login_failure", ip: "::1", detail: "unknown"))
        #expect(try db.auditEvents(accountID: alice.id).map(\.event) == ["login_success"])
        #expect(try db.auditEvents().map(\.event) == ["login_failure", "login_success"])
    }

    @Test(arguments: StorageEngine.allCases)
    func rotationAndReuse(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        let alice = try account(db)
        try session(db, accountID: alice.id)
        let exp = Self.t0 + 86_400
        guard case .rotated(let previous, let successor) = try db.rotateRefreshToken(
            presentedHash: "h0", successorHash: "h1", now: Self.t0 + 5, successorExpiresAt: exp) else {
            Issue.record("first use must rotate"); return
        }
        #expect(previous.usedAt == Self.t0 + 5)
        #expect(successor.parentHash == "h0" && successor.familyID == "fam-1" && successor.usedAt == nil)
        #expect(try db.refreshToken(hash: "h1") == successor)
        #expect(try db.isSessionActive(id: "fam-1", now: Self.t0 + 5))

        // Second use of h0: reuse → whole family and session revoked, audited.
        #expect(try db.rotateRefreshToken(presentedHash: "h0", successorHash: "h2", now: Self.t0 + 6, successorExpiresAt: exp,
                                          ip: "10.0.0.1") == .reused(familyID: "fam-1", accountID: alice.id))
        #expect(try db.refreshToken(hash: "h2") == nil)
        #expect(try db.refreshTokens(familyID: "fam-1").allSatisfy { $0.revokedAt != nil })
        #expect(try !db.isSessionActive(id: "fam-1", now: Self.t0 + 6))
        let events = try db.auditEvents(accountID: alice.id)
        #expect(events.first?.event == "refresh_token_reuse")
        #expect(events.first?.ip == "10.0.0.1")
        #expect(events.allSatisfy { !($0.detail ?? "").contains("h0") && !($0.detail ?? "").contains("h1") })
        // The successor is dead too.
        #expect(try db.rotateRefreshToken(presentedHash: "h1", successorHash: "h3", now: Self.t0 + 7, successorExpiresAt: exp) == .revoked)
    }

    @Test(arguments: StorageEngine.allCases)
    func expiredUnknownAndRevokedTokens(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        let alice = try account(db)
        try session(db, accountID: alice.id, expiresAt: Self.t0 + 100)
        #expect(try db.rotateRefreshToken(presentedHash: "nope", successorHash: "x", now: Self.t0, successorExpiresAt: Self.t0 + 1) == .notFound)
        #expect(try db.rotateRefreshToken(presentedHash: "h0", successorHash: "x", now: Self.t0 + 100, successorExpiresAt: Self.t0 + 200) == .expired)
        #expect(try db.refreshToken(hash: "h0")?.usedAt == nil, "an expired token is not marked used")

        try session(db, accountID: alice.id, id: "fam-2", token: "k0")
        #expect(try db.revokeSession(id: "fam-2", now: Self.t0 + 1))
        #expect(try !db.revokeSession(id: "fam-2", now: Self.t0 + 2), "already revoked")
        #expect(try db.rotateRefreshToken(presentedHash: "k0", successorHash: "k1", now: Self.t0 + 3, successorExpiresAt: Self.t0 + 500) == .revoked)
        #expect(try db.session(id: "fam-2")?.revokedAt == Self.t0 + 1)
    }

    @Test(arguments: StorageEngine.allCases)
    func graceWindowReplacesOnlyTheLatestSuccessor(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        let alice = try account(db)
        try session(db, accountID: alice.id)
        let exp = Self.t0 + 86_400
        _ = try db.rotateRefreshToken(presentedHash: "h0", successorHash: "h1", now: Self.t0, successorExpiresAt: exp, graceSeconds: 10)
        // The client lost h1's response and retries h0 within the window: h1 is replaced by h1b.
        guard case .rotated(_, let replacement) = try db.rotateRefreshToken(
            presentedHash: "h0", successorHash: "h1b", now: Self.t0 + 3, successorExpiresAt: exp, graceSeconds: 10) else {
            Issue.record("a retry within the grace window must rotate"); return
        }
        #expect(replacement.parentHash == "h0")
        #expect(try db.refreshToken(hash: "h1")?.revokedAt == Self.t0 + 3)
        // h1b is used; now h0 (an older generation) must not pass any more, even within the window.
        _ = try db.rotateRefreshToken(presentedHash: "h1b", successorHash: "h2", now: Self.t0 + 4, successorExpiresAt: exp, graceSeconds: 10)
        #expect(try db.rotateRefreshToken(presentedHash: "h0", successorHash: "h9", now: Self.t0 + 5, successorExpiresAt: exp,
                                          graceSeconds: 10) == .reused(familyID: "fam-1", accountID: alice.id))
    }

    @Test(arguments: StorageEngine.allCases)
    func graceWindowOffByDefaultAndBounded(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        let alice = try account(db)
        try session(db, accountID: alice.id)
        let exp = Self.t0 + 86_400
        _ = try db.rotateRefreshToken(presentedHash: "h0", successorHash: "h1", now: Self.t0, successorExpiresAt: exp, graceSeconds: 10)
        #expect(try db.rotateRefreshToken(presentedHash: "h0", successorHash: "h1b", now: Self.t0 + 11, successorExpiresAt: exp,
                                          graceSeconds: 10) == .reused(familyID: "fam-1", accountID: alice.id))
    }

    /// A successor never outlives its session: the rotation caps its expiry at the session's end.
    @Test(arguments: StorageEngine.allCases)
    func successorIsCappedAtTheSessionEnd(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        let alice = try account(db)
        try session(db, accountID: alice.id, expiresAt: Self.t0 + 100)
        let outcome = try db.rotateRefreshToken(presentedHash: "h0", successorHash: "h1", now: Self.t0 + 1,
                                                successorExpiresAt: Self.t0 + 86_400)
        guard case let .rotated(_, successor) = outcome else { Issue.record("not rotated: \(outcome)"); return }
        #expect(successor.expiresAt == Self.t0 + 100)
        #expect(try db.refreshToken(hash: "h1")?.expiresAt == Self.t0 + 100)
        // Under the session's end, the requested expiry stands.
        try session(db, accountID: alice.id, id: "fam-2", token: "k0", expiresAt: Self.t0 + 86_400)
        let second = try db.rotateRefreshToken(presentedHash: "k0", successorHash: "k1", now: Self.t0 + 1,
                                               successorExpiresAt: Self.t0 + 900)
        guard case let .rotated(_, next) = second else { Issue.record("not rotated: \(second)"); return }
        #expect(next.expiresAt == Self.t0 + 900)
    }

    @Test(arguments: StorageEngine.allCases)
    func concurrentRotationHasExactlyOneWinner(engine: StorageEngine) async throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        let alice = try account(db)
        try session(db, accountID: alice.id)
        // Two independent instances = two server processes on the same data.
        let instances: [any Database] = [db, try test.openAnother()]
        let outcomes = await onThreads(12) { i -> String in
            let outcome = try? instances[i % 2].rotateRefreshToken(presentedHash: "h0", successorHash: "succ-\(i)",
                                                                  now: Self.t0 + 1, successorExpiresAt: Self.t0 + 86_400)
            switch outcome {
            case .rotated: return "rotated"
            case .reused: return "reused"
            case .revoked: return "revoked"
            default: return "other"
            }
        }
        #expect(outcomes.count == 12)
        #expect(outcomes.filter { $0 == "rotated" }.count == 1)
        #expect(outcomes.allSatisfy { $0 == "rotated" || $0 == "reused" })
        #expect(try db.refreshTokens(familyID: "fam-1").allSatisfy { $0.revokedAt != nil }, "the family is revoked")
        #expect(try !db.isSessionActive(id: "fam-1", now: Self.t0 + 2))
        #expect(try db.refreshTokens(familyID: "fam-1").count == 2, "only the winner's successor was stored")
    }

    /// `PRAGMA synchronous` (SQLite: 1 NORMAL, 2 FULL) or `SHOW synchronous_commit` (PostgreSQL).
    static func commitLevel(_ conn: any SQLConnection, _ engine: StorageEngine) throws -> String {
        let rows = try conn.execute(engine == .sqlite ? "PRAGMA synchronous" : "SHOW synchronous_commit")
        guard let row = rows.first else { return "no row" }
        return engine == .sqlite ? String(try row.integer(0)) : try row.text(0)
    }

    /// The commit level each kind of transaction runs at, read back from the engine itself: relaxed inside a
    /// `.relaxed` transaction only, full everywhere else (also after a relaxed one that failed).
    @Test(arguments: StorageEngine.allCases)
    func relaxedDurabilityIsScopedToItsTransaction(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        let level = { (conn: any SQLConnection) throws -> String in try Self.commitLevel(conn, engine) }
        let full = engine == .sqlite ? "2" : "on"
        #expect(try db.withConnection(level) == full)
        #expect(try db.transaction(level) == full)
        // PostgreSQL keeps relaxed commits synchronous unless asked (see `asynchronousRelaxedCommits`).
        #expect(try db.transaction(durability: .relaxed, level) == (engine == .sqlite ? "1" : "on"))
        if case .postgres = engine, let conninfo = TestServices.postgresConninfo {
            let asynchronous = try PostgresDatabase(conninfo: conninfo, poolSize: 1, asynchronousRelaxedCommits: true)
            #expect(try asynchronous.transaction(durability: .relaxed, level) == "off")
            #expect(try asynchronous.transaction(level) == "on")
            #expect(try asynchronous.withConnection(level) == "on")
        }
        #expect(try db.withConnection(level) == full)
        struct Failure: Error {}
        #expect(throws: Failure.self) { try db.transaction(durability: .relaxed) { _ -> Int in throw Failure() } }
        #expect(try db.transaction(level) == full)
        // A rotation is relaxed, a reuse revocation (redone as a full transaction) is not: both still hold.
        let alice = try account(db)
        try session(db, accountID: alice.id)
        guard case .rotated = try db.rotateRefreshToken(presentedHash: "h0", successorHash: "h1", now: Self.t0 + 1,
                                                        successorExpiresAt: Self.t0 + 86_400) else {
            Issue.record("the first rotation must succeed"); return
        }
        guard case .reused = try db.rotateRefreshToken(presentedHash: "h0", successorHash: "h2", now: Self.t0 + 2,
                                                       successorExpiresAt: Self.t0 + 86_400) else {
            Issue.record("a second use is reuse"); return
        }
        #expect(try db.refreshTokens(familyID: "fam-1").allSatisfy { $0.revokedAt != nil })
        #expect(try db.withConnection(level) == full)
    }

    @Test(arguments: StorageEngine.allCases)
    func concurrentRotationOfSuccessiveTokensInDifferentFamilies(engine: StorageEngine) async throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        let alice = try account(db)
        for f in 0..<4 { try session(db, accountID: alice.id, id: "fam-\(f)", token: "f\(f)-0") }
        let instances: [any Database] = [db, try test.openAnother()]
        // Each family is refreshed in sequence by its own thread; families never interfere.
        let ok = await onThreads(4) { f -> Bool in
            for step in 0..<10 {
                guard case .rotated? = try? instances[f % 2].rotateRefreshToken(
                    presentedHash: "f\(f)-\(step)", successorHash: "f\(f)-\(step + 1)", now: Self.t0 + Int64(step),
                    successorExpiresAt: Self.t0 + 86_400) else { return false }
            }
            return true
        }
        #expect(ok == [true, true, true, true])
    }

    @Test(arguments: StorageEngine.allCases)
    func signingKeys(engine: StorageEngine) throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let db = test.database
        try db.installSigningKey(SigningKeyRecord(kid: "k1", privateKey: "p1", publicJWK: "{}", createdAt: Self.t0), now: Self.t0)
        try db.installSigningKey(SigningKeyRecord(kid: "k2", privateKey: "p2", publicJWK: "{}", createdAt: Self.t0 + 10), now: Self.t0 + 10)
        let keys = try db.signingKeys()
        #expect(keys.map(\.kid) == ["k2", "k1"])
        #expect(keys[0].retiredAt == nil && keys[1].retiredAt == Self.t0 + 10)
        #expect(try db.deleteSigningKeys(retiredBefore: Self.t0 + 10) == 0)
        #expect(try db.deleteSigningKeys(retiredBefore: Self.t0 + 11) == 1)
        #expect(try db.signingKeys().map(\.kid) == ["k2"])
    }
}

@Suite("Storage locations", .offCooperativePool)
struct StorageLocationTests {
    @Test func sqliteFileIsPrivateAndMigrated() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-location-\(randomHex(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.sqlite").path
        let db = try DatabaseLocation.open("sqlite:" + path)
        #expect(try SchemaMigrations.appliedVersions(db) == SchemaMigrations.all.map(\.version).sorted())
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(throws: DatabaseError.self) { try DatabaseLocation.open("mysql://nope") }
        #expect(throws: DatabaseError.self) { try DatabaseLocation.open("sqlite:") }
    }
}
