import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// `DELETE /v1/me`: every row of the account goes, Apple's token is revoked through the outbox, and Apple's own
/// `account-delete` meeting a user's deletion ends in one state.
@Suite("Account deletion", .serialized, .offCooperativePool)
struct AccountDeletionTests {
    typealias Fixture = AppleSessionTests.Fixture

    /// The Apple sessions fixture with the passkey endpoints on the same router.
    struct Everything {
        let f: Fixture
        let passkeys: PasskeyEndpointFixture

        static func make(_ engine: StorageEngine) async throws -> Everything? {
            guard let f = try await Fixture.make(engine) else { return nil }
            let configuration = WebAuthnConfiguration(relyingPartyID: "localhost", relyingPartyName: "Latchkey tests",
                                                      allowedOrigins: [PasskeyEndpointFixture.origin])
            let passkeys = try PasskeyService(auth: f.auth, configuration: configuration)
            let base = ServiceFixture(test: f.test, clock: f.clock, service: f.auth, router: f.router)
            let router = Router(f.auth.routes() + passkeys.routes() + f.service.routes())
            return Everything(f: f, passkeys: PasskeyEndpointFixture(base: base, passkeys: passkeys, router: router))
        }
    }

    /// Runs the outbox until it is empty (a deletion's own wake-up may hold a claim for a moment).
    static func drain(_ outbox: AppleRevocationOutbox) async throws {
        for _ in 0..<6_000 {
            await outbox.processDue()
            if try outbox.database.pendingAppleRevocations() == 0 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the outbox did not empty")
    }

    @Test(arguments: StorageEngine.allCases)
    func deletionLeavesNoRowOfTheAccountInAnyTable(_ engine: StorageEngine) async throws {
        guard let all = try await Everything.make(engine) else { return }
        let (f, p) = (all.f, all.passkeys)
        defer { f.cleanup() }
        let database = f.auth.database
        let before = try SchemaCensus(database)

        // An account with everything: a password, two sessions, a passkey, a started passkey registration, an Apple ID
        // with its sealed Apple refresh token, a failed login, audit events.
        let account = try await f.auth.createAccount(username: "Zoë", password: "correct horse")
        let login = try await p.base.signIn("Zoë", "correct horse", deviceName: "Laptop")
        let second = try await p.base.signIn("zoë", "correct horse")
        #expect(try await p.register(SoftwareAuthenticator(store: InMemorySoftwareCredentialStore()), username: nil,
                                     bearer: login.accessToken).status == 201)
        #expect(await p.request("POST", "/v1/passkeys/register/options", body: Data("{}".utf8), bearer: login.accessToken).status == 200)
        let code = try f.apple.authorize(.init(clientID: AppleSessionTests.clientID, appleID: "zoe@example.com")).authorizationCode
        let linked = try await f.signIn(code: code, bearer: login.accessToken)
        try #require(linked.status == 200, "\(linked.bodyText)")
        let appleToken = try #require(try f.service.appleRefreshToken(subject: AppleSessionTests.subject))
        #expect(await p.base.login("Zoë", "a wrong guess").status == 401)
        let handle = try database.webAuthnUserHandle(accountID: account.id).base64URLEncodedString()
        let sessionIDs = try database.liveSessions(accountID: account.id, now: f.clock.seconds).map(\.session.id)
        #expect(sessionIDs.count == 2)
        let during = try SchemaCensus(database)
        #expect(during != before)

        let deleted = await p.request("DELETE", "/v1/me", bearer: try #require(linked.object["access_token"] as? String))
        #expect(deleted.status == 204 && deleted.header("Cache-Control") == "no-store")
        try await Self.drain(try #require(f.service.revocations))

        // Apple was told, with the team's client secret, for the app the token was issued to.
        let revocation = try #require(f.apple.revocations.last)
        #expect(revocation.token == appleToken && revocation.clientID == AppleSessionTests.clientID)
        #expect(revocation.tokenTypeHint == "refresh_token" && revocation.user != nil)

        // Every table holds what it held before, but the audit log (one account_deleted event, and the outbox's
        // apple_token_revoked, neither with a name or an address) and the login throttle's per-address row (an address,
        // not the account: it throttles everyone behind it).
        let after = try SchemaCensus(database)
        #expect(before.changes(to: after) == ["audit_events": "0 → 2", "login_throttle": "0 → 1"], "\(before)\n\(after)")
        #expect(try database.throttleState(key: "ip:127.0.0.1") != nil)
        let events = try database.auditEvents(limit: 10)
        #expect(Set(events.map(\.event)) == ["account_deleted", "apple_token_revoked"])
        #expect(events.allSatisfy { $0.ip == nil })
        let record = try #require(events.first { $0.event == "account_deleted" })
        #expect(record.accountID == account.id)
        #expect(record.detail == "sessions 2, passkeys 1, apple ids 1, apple revocations queued 1")

        // Nothing holds the account's name, handle, Apple ID or sessions; its random id only in that record.
        let traces = try SchemaCensus.rows(containing: ["Zoë", "zoë", handle, AppleSessionTests.subject] + sessionIDs,
                                           in: database)
        #expect(traces.isEmpty, "\(traces)")
        #expect(try SchemaCensus.rows(containing: [account.id], in: database).mapValues(\.count) == ["audit_events": 1])

        // Then: the tokens are dead, the password signs nobody in, a repeated deletion is 401 (never 5xx).
        #expect(await p.request("GET", "/v1/me", bearer: second.accessToken).status == 401)
        #expect(await p.base.refresh(try #require(second.refreshToken)).status == 400)
        #expect(await p.base.login("Zoë", "correct horse").status == 401)
        let again = await p.request("DELETE", "/v1/me", bearer: login.accessToken)
        #expect(again.status == 401 && again.object["error"] as? String == "invalid_token")
        #expect(again.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        // The name is free again.
        #expect(try await f.auth.createAccount(username: "zoë", password: "another password").id != account.id)
    }

    @Test func aRevocationAppleCannotTakeWaitsAndIsRetriedWithBackoff() async throws {
        let f = try #require(try await Fixture.make())
        defer { f.cleanup() }
        // The stand-in checks client secrets against the real time: this test's clock runs behind it, so moving it on
        // by the retry delays never puts a secret's iat in the stand-in's future.
        f.clock.set(Date().addingTimeInterval(-3_600))
        let code = try f.apple.authorize(.init(clientID: AppleSessionTests.clientID, appleID: "ann@example.com")).authorizationCode
        let signedIn = try await f.signIn(code: code)
        let access = try #require(signedIn.object["access_token"] as? String)
        let accountID = try f.auth.authenticate("Bearer \(access)").sub
        let outbox = try #require(f.service.revocations)

        f.apple.stop()
        let deleted = await f.request("DELETE", "/v1/me", bearer: access)
        #expect(deleted.status == 204, "the deletion is not held up by Apple")
        #expect(try f.auth.database.account(id: accountID) == nil)
        // The deletion's own attempt fails: the row waits, claimed by nobody, due after the first retry delay.
        let retry = f.clock.seconds + outbox.policy.firstRetryDelay
        for _ in 0..<6_000 where try f.auth.database.nextAppleRevocationDue() != retry {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try f.auth.database.pendingAppleRevocations() == 1)
        #expect(try f.auth.database.nextAppleRevocationDue() == retry)
        #expect(await outbox.processDue() == AppleRevocationOutbox.Pass(), "not due yet")
        f.clock.advance(by: Double(outbox.policy.firstRetryDelay))
        #expect(await outbox.processDue().failed == 1)
        #expect(try f.auth.database.nextAppleRevocationDue() == f.clock.seconds + 2 * outbox.policy.firstRetryDelay,
                "the next wait doubles")
        #expect(f.apple.revocations.isEmpty)

        try f.apple.start()
        f.clock.advance(by: Double(2 * outbox.policy.firstRetryDelay))
        #expect(await outbox.processDue().revoked == 1)
        #expect(try f.auth.database.pendingAppleRevocations() == 0)
        #expect(f.apple.revocations.count == 1)
        #expect(AppleRevocationOutbox.Policy(firstRetryDelay: 60).retryDelay(afterAttempts: 20) == 3600)
    }

    @Test(arguments: StorageEngine.allCases)
    func twoWorkersNeverSendOneRevocationTogether(_ engine: StorageEngine) async throws {
        guard let test = try makeTestDatabase(engine) else { return }
        defer { test.cleanup() }
        let clock = ManualClock(Date())
        let key = SymmetricKey(size: .bits256)
        let http = CountingAppleHTTP()
        let team = AppleTestTeam()
        let configuration = AppleSignInConfiguration(clientIDs: ["app"], teamID: team.teamID, keyID: team.keyID,
                                                     privateKey: team.key)
        let client = AppleAuthClient(configuration: configuration, http: http, now: { clock.now() })
        let rows = 40
        try test.database.transaction { conn in
            for index in 0..<rows {
                let sealed = try AES.GCM.seal(Data("token-\(index)".utf8), using: key, authenticating: Data("sub-\(index)".utf8))
                try conn.execute(AppleRevocationSQL.insert, [.text("row-\(index)"), .text("sub-\(index)"), .text("app"),
                                                             .text(try #require(sealed.combined).base64URLEncodedString()),
                                                             .integer(clock.seconds), .integer(clock.seconds)])
            }
        }
        // Two "instances" (two outboxes on two connections pools) and several tasks each, all at once.
        let outboxes = [AppleRevocationOutbox(database: test.database, client: client, key: key, clock: clock),
                        AppleRevocationOutbox(database: try test.openAnother(), client: client, key: key, clock: clock)]
        let revoked = await withTaskGroup(of: Int.self) { group in
            for index in 0..<6 { group.addTask { await outboxes[index % 2].processDue().revoked } }
            return await group.reduce(0, +)
        }
        #expect(revoked == rows)
        #expect(http.tokens.sorted() == (0..<rows).map { "token-\($0)" }.sorted(), "each sent exactly once")
        #expect(http.maximumConcurrentSendsOfOneToken == 1)
        #expect(try test.database.pendingAppleRevocations() == 0)
    }

    @Test(arguments: StorageEngine.allCases)
    func appleAccountDeleteAndTheUsersDeletionInEitherOrder(_ engine: StorageEngine) async throws {
        for appleFirst in [true, false] {
            guard let f = try await Fixture.make(engine) else { return }
            defer { f.cleanup() }
            let code = try f.apple.authorize(.init(clientID: AppleSessionTests.clientID, appleID: "bo@example.com")).authorizationCode
            let signedIn = try await f.signIn(code: code)
            let access = try #require(signedIn.object["access_token"] as? String)
            let accountID = try f.auth.authenticate("Bearer \(access)").sub
            let notification = try f.notification("account-delete")
            if appleFirst {
                #expect(await f.request("POST", "/v1/apple/notifications", body: notification).status == 200)
                #expect(await f.request("DELETE", "/v1/me", bearer: access).status == 401, "the session is gone")
                #expect(try f.auth.database.pendingAppleRevocations() == 0, "Apple deleted the Apple ID: nothing to revoke")
            } else {
                #expect(await f.request("DELETE", "/v1/me", bearer: access).status == 204)
                #expect(await f.request("POST", "/v1/apple/notifications", body: notification).status == 200)
                try await Self.drain(try #require(f.service.revocations))
            }
            try Self.expectDeleted(accountID, in: f.auth.database)
        }
    }

    @Test(arguments: StorageEngine.allCases)
    func appleAccountDeleteAndTheUsersDeletionAtOnce(_ engine: StorageEngine) async throws {
        guard let f = try await Fixture.make(engine) else { return }
        defer { f.cleanup() }
        for round in 0..<6 {
            let signedIn = try await f.signIn()
            let access = try #require(signedIn.object["access_token"] as? String)
            let accountID = try f.auth.authenticate("Bearer \(access)").sub
            let notification = try f.notification("account-delete", jti: "round-\(round)")
            async let user = f.request("DELETE", "/v1/me", bearer: access)
            async let apple = f.request("POST", "/v1/apple/notifications", body: notification)
            let (userStatus, appleStatus) = await (user.status, apple.status)
            #expect(appleStatus == 200)
            #expect(userStatus == 204 || userStatus == 401, "one of the two deleted it; never a 5xx (\(userStatus))")
            try Self.expectDeleted(accountID, in: f.auth.database)
        }
    }

    @Test func anAccountThatAlsoHasAPasswordOnlyLosesItsAppleID() async throws {
        let f = try #require(try await Fixture.make())
        defer { f.cleanup() }
        let account = try await f.auth.createAccount(username: "kai", password: "correct horse")
        let login = try await f.auth.loginWithPassword(username: "kai", password: "correct horse", ip: "127.0.0.1")
        #expect(try await f.signIn(bearer: login.accessToken).status == 200)
        #expect(await f.request("POST", "/v1/apple/notifications", body: try f.notification("account-delete")).status == 200)
        #expect(try f.auth.database.account(id: account.id) != nil)
        #expect(try f.auth.database.appleIdentity(subject: AppleSessionTests.subject) == nil)
        #expect(await f.request("DELETE", "/v1/me", bearer: login.accessToken).status == 401, "its sessions ended")
        // The password still signs in, and the user deletes the account.
        let again = try await f.auth.loginWithPassword(username: "kai", password: "correct horse", ip: "127.0.0.1")
        #expect(await f.request("DELETE", "/v1/me", bearer: again.accessToken).status == 204)
        try Self.expectDeleted(account.id, in: f.auth.database)
    }

    /// One consistent end: no account, no Apple link, no session, and exactly one account_deleted record.
    static func expectDeleted(_ accountID: String, in database: any Database) throws {
        #expect(try database.account(id: accountID) == nil)
        #expect(try database.appleIdentity(subject: AppleSessionTests.subject) == nil)
        #expect(try database.liveSessions(accountID: accountID, now: Int64.max / 2).isEmpty)
        let events = try database.auditEvents(accountID: accountID)
        #expect(events.map(\.event) == ["account_deleted"], "\(events.map(\.event))")
        #expect(try SchemaCensus.rows(containing: [accountID], in: database).mapValues(\.count) == ["audit_events": 1])
    }
}

/// An `AppleHTTPClient` that answers every revocation 200 after a short pause, counting what it was sent and how
/// many sends of one token overlapped.
final class CountingAppleHTTP: AppleHTTPClient {
    private let state = Locked<(tokens: [String], inFlight: [String: Int], maximum: Int)>(([], [:], 0))

    var tokens: [String] { state.withLock { $0.tokens } }
    var maximumConcurrentSendsOfOneToken: Int { state.withLock { $0.maximum } }

    func get(_ url: URL) async throws -> (status: Int, body: Data) { (404, Data()) }

    func postForm(_ url: URL, _ fields: [(String, String)]) async throws -> (status: Int, body: Data) {
        let token = fields.first { $0.0 == "token" }?.1 ?? ""
        state.withLock { state in
            state.tokens.append(token)
            state.inFlight[token, default: 0] += 1
            state.maximum = max(state.maximum, state.inFlight[token] ?? 0)
        }
        try await Task.sleep(for: .milliseconds(2))
        state.withLock { $0.inFlight[token, default: 1] -= 1 }
        return (200, Data())
    }
}
