import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeySupport
@testable import LatchkeyServer

@Suite("Accounts", .offCooperativePool)
struct AccountTests {
    @Test func createAccountAndConflict() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        let created = await f.request("POST", "/v1/accounts", json: #"{"username":"Alice","password":"correct horse"}"#)
        #expect(created.status == 201)
        #expect(created.json["username"] as? String == "Alice")
        #expect(created.json["password_hash"] == nil && !String(decoding: created.body, as: UTF8.self).contains("argon2"))
        let again = await f.request("POST", "/v1/accounts", json: #"{"username":"ALICE","password":"another one"}"#)
        #expect(again.status == 409)
        #expect(again.errorCode == "username_taken")
        let stored = try #require(try f.test.database.account(usernameKey: "alice"))
        #expect(stored.passwordHash.hasPrefix("$argon2id$"))
    }

    @Test func passwordPolicy() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        let short = await f.request("POST", "/v1/accounts", json: #"{"username":"bob","password":"1234567"}"#)
        #expect(short.status == 400 && short.errorCode == "weak_password")
        let same = await f.request("POST", "/v1/accounts", json: #"{"username":"bobbobbob","password":"BOBBOBBOB"}"#)
        #expect(same.status == 400 && same.errorCode == "weak_password")
        let long = String(repeating: "x", count: 1025)
        let tooLong = await f.request("POST", "/v1/accounts", json: #"{"username":"bob","password":"\#(long)"}"#)
        #expect(tooLong.status == 400 && tooLong.errorCode == "weak_password")
        let ok = await f.request("POST", "/v1/accounts", json: #"{"username":"bob","password":"12345678"}"#)
        #expect(ok.status == 201)
        let badName = await f.request("POST", "/v1/accounts", json: #"{"username":" bob","password":"12345678"}"#)
        #expect(badName.status == 400 && badName.errorCode == "invalid_username")
        #expect(PasswordPolicy().violation(password: "한국어비밀번호여덟", username: "kim") == nil)
    }

    @Test func malformedInputIs4xx() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        for body in ["", "{", "[]", #"{"username":1,"password":"x"}"#, #"{"username":"a"}"#, "\u{0}\u{1}garbage"] {
            let r1 = await f.request("POST", "/v1/accounts", json: body)
            let r2 = await f.request("POST", "/v1/session/password", json: body)
            #expect(r1.status == 400, "accounts: \(body.debugDescription)")
            #expect(r2.status == 400, "login: \(body.debugDescription)")
        }
        let wrongType = await f.router.handle(HTTPRequest(method: "POST", path: "/v1/accounts",
                                                         headers: ["Content-Type": "text/plain"], body: Data("x".utf8)))
        #expect(wrongType.status == 415)
    }

    @Test func loginIssuesStandardTokenResponse() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        let response = await f.login()
        #expect(response.status == 200)
        #expect(response.header("Cache-Control") == "no-store")
        let object = response.json
        #expect(Set(object.keys) == ["access_token", "token_type", "expires_in", "refresh_token", "scope"])
        #expect(object["token_type"] as? String == "Bearer")
        #expect(object["expires_in"] as? Int == 900)
        let tokens = try response.tokens()
        #expect(RefreshTokenSecret.isWellFormed(try #require(tokens.refreshToken)))
        // The refresh token is stored only as its SHA-256.
        let hash = RefreshTokenSecret.hash(of: try #require(tokens.refreshToken))
        #expect(try f.test.database.refreshToken(hash: hash) != nil)
        let events = try f.test.database.auditEvents().map(\.event)
        #expect(events.contains("login_success"))
    }

    @Test func unknownUserAndWrongPasswordAnswerTheSame() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        let wrong = await f.login("alice", "wrong password")
        let unknown = await f.login("mallory", "wrong password")
        #expect(wrong.status == 401)
        #expect(unknown.status == wrong.status)
        #expect(unknown.body == wrong.body)
        #expect(unknown.headers.map(\.name) == wrong.headers.map(\.name))
        #expect(wrong.errorCode == "invalid_grant")
        // Both failures are audited, without the password.
        let audit = try f.test.database.auditEvents()
        #expect(audit.filter { $0.event == "login_failure" }.count == 2)
        #expect(audit.allSatisfy { !($0.detail ?? "").contains("wrong password") || $0.detail == "wrong password" })
    }

    @Test func unknownUsersAreVerifiedAgainstADummyHash() async throws {
        let counter = CountingHasher(Argon2PasswordHasher(parameters: testArgon2))
        let f = try #require(try await ServiceFixture.make(hasher: counter))
        defer { f.test.cleanup() }
        try await f.createAlice()
        let before = counter.verifications
        _ = await f.login("nobody", "whatever1")
        _ = await f.login("alice", "whatever1")
        #expect(counter.verifications - before == 2, "one Argon2id verification for the unknown user too")
    }

    @Test func throttlingGrowsAndLocksOutByTime() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        for _ in 0..<5 { #expect(await f.login("alice", "bad password").status == 401) }
        // 6th failure → blocked 1 s.
        #expect(await f.login("alice", "bad password").status == 401)
        let blocked = await f.login("alice", "correct horse")
        #expect(blocked.status == 429)
        #expect(blocked.header("Retry-After") == "1")
        f.clock.advance(by: 1)
        #expect(await f.login("alice", "bad password").status == 401) // 7th → 2 s
        #expect(await f.login("alice", "correct horse").header("Retry-After") == "2")
        f.clock.advance(by: 2)
        #expect(await f.login("alice", "bad password").status == 401) // 8th → 4 s
        #expect(await f.login("alice", "correct horse").header("Retry-After") == "4")
        f.clock.advance(by: 4)
        #expect(await f.login("alice", "bad password").status == 401) // 9th → 8 s
        f.clock.advance(by: 8)
        #expect(await f.login("alice", "bad password").status == 401) // 10th → locked 900 s
        let locked = await f.login("alice", "correct horse")
        #expect(locked.status == 429)
        #expect(locked.header("Retry-After") == "900")
        let account = try #require(try f.test.database.account(usernameKey: "alice"))
        #expect(account.failedCount == 10 && account.lockedUntil != nil)
        #expect(try f.test.database.auditEvents().contains { $0.event == "account_locked" })
        f.clock.advance(by: 900)
        #expect(await f.login("alice", "correct horse").status == 200, "unlocked by time")
        let unlocked = try #require(try f.test.database.account(usernameKey: "alice"))
        #expect(unlocked.failedCount == 0 && unlocked.lockedUntil == nil)
    }

    @Test func unknownUsersAreThrottledLikeKnownOnes() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        for _ in 0..<6 {
            _ = await f.login("alice", "bad password", ip: "10.0.0.1")
            _ = await f.login("ghost", "bad password", ip: "10.0.0.2")
        }
        let known = await f.login("alice", "bad password", ip: "10.0.0.1")
        let unknown = await f.login("ghost", "bad password", ip: "10.0.0.2")
        #expect(known.status == 429 && unknown.status == 429)
        #expect(known.body == unknown.body)
    }

    @Test func perIPThrottling() async throws {
        var configuration = AuthConfiguration()
        configuration.ipThrottle = LoginThrottlePolicy(freeFailures: 3, lockoutThreshold: 0)
        let f = try #require(try await ServiceFixture.make(configuration: configuration))
        defer { f.test.cleanup() }
        try await f.createAlice()
        for i in 0..<4 { _ = await f.login("user\(i)", "bad password", ip: "10.9.9.9") }
        #expect(await f.login("alice", "correct horse", ip: "10.9.9.9").status == 429)
        #expect(await f.login("alice", "correct horse", ip: "10.9.9.8").status == 200, "another address is not blocked")
    }

    @Test func rehashOnLoginWhenParametersRose() async throws {
        guard let test = try makeTestDatabase(.sqlite) else { return }
        defer { test.cleanup() }
        let clock = ManualClock()
        let weak = try AuthService(database: test.database, clock: clock,
                                         passwordHasher: Argon2PasswordHasher(parameters: testArgon2))
        _ = try await weak.createAccount(username: "alice", password: "correct horse")
        let stronger = Argon2id.Parameters(memoryKiB: 128, iterations: 2)
        let strong = try AuthService(database: test.database, clock: clock,
                                           passwordHasher: Argon2PasswordHasher(parameters: stronger))
        let before = try #require(try test.database.account(usernameKey: "alice")).passwordHash
        _ = try await strong.loginWithPassword(username: "alice", password: "correct horse", ip: "127.0.0.1")
        let after = try #require(try test.database.account(usernameKey: "alice")).passwordHash
        #expect(before != after)
        #expect(after.contains("m=128,t=2"))
        #expect(!Argon2id.needsRehash(after, parameters: stronger))
        _ = try await strong.loginWithPassword(username: "alice", password: "correct horse", ip: "127.0.0.1")
    }

    @Test func usernamesFoldCase() {
        #expect(Username.key("Alice") == Username.key("ALICE"))
        #expect(Username.key("ａｌｉｃｅ") == Username.key("alice"))
        #expect(!Username.isValid(""))
        #expect(!Username.isValid("a\u{7}b"))
        #expect(!Username.isValid(String(repeating: "a", count: 257)))
    }
}

extension AccountTests {
    @Test func loginScopesAreAllowListed() async throws {
        var configuration = AuthConfiguration(defaultScope: "openid")
        configuration.allowedScopes = ["openid", "notes"]
        let f = try #require(try await ServiceFixture.make(configuration: configuration))
        defer { f.test.cleanup() }
        try await f.createAlice()
        let none = await f.login()
        #expect(try none.tokens().scope == "openid")
        let notes = await f.request("POST", "/v1/session/password", json: #"{"username":"alice","password":"correct horse","scope":"notes"}"#)
        #expect(try notes.tokens().scope == "notes")
        let admin = await f.request("POST", "/v1/session/password", json: #"{"username":"alice","password":"correct horse","scope":"admin"}"#)
        #expect(admin.status == 400 && admin.errorCode == "invalid_scope")
    }
}

/// Counts verifications, to prove the dummy-hash path does the same work.
final class CountingHasher: PasswordHasher {
    let inner: Argon2PasswordHasher
    private let count = Locked(0)
    init(_ inner: Argon2PasswordHasher) { self.inner = inner }
    var verifications: Int { count.withLock { $0 } }
    func hash(_ password: String) async throws -> String { try await inner.hash(password) }
    func verify(_ password: String, against phc: String) async -> Bool {
        count.withLock { $0 += 1 }
        return await inner.verify(password, against: phc)
    }
    func needsRehash(_ phc: String) -> Bool { inner.needsRehash(phc) }
}
