import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// `POST /v1/me/password`.
@Suite("Password change", .offCooperativePool)
struct PasswordChangeTests {
    static func body(current: String?, new: String) -> String {
        var object: [String: String] = ["new_password": new]
        if let current { object["current_password"] = current }
        return String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }

    @Test(arguments: StorageEngine.allCases)
    func changingThePasswordEndsTheOtherSessions(_ engine: StorageEngine) async throws {
        guard let f = try await ServiceFixture.make(engine) else { return }
        defer { f.test.cleanup() }
        let account = try await f.createAlice()
        let mine = try await f.signIn()
        let other = try await f.signIn()

        let changed = await f.send("POST", "/v1/me/password", json: Self.body(current: "correct horse", new: "battery staple"),
                                   bearer: mine.accessToken)
        #expect(changed.status == 204 && changed.header("Cache-Control") == "no-store")
        #expect(await f.login("alice", "correct horse").status == 401, "the old password is refused")
        #expect(await f.login("alice", "battery staple").status == 200, "the new one works")
        #expect(await f.refresh(try #require(other.refreshToken)).status == 400, "the other session ended")
        #expect(await f.request("GET", "/v1/me", bearer: mine.accessToken).status == 200, "the caller's did not")
        #expect(try f.refreshTokens(await f.refresh(try #require(mine.refreshToken))).refreshToken != nil)
        let events = try f.test.database.auditEvents(accountID: account.id)
        #expect(events.contains { $0.event == "password_changed" && $0.detail == "current password, 1 other sessions ended" })
    }

    @Test func aWrongCurrentPasswordIsRefusedAndThrottledLikeALogin() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        let mine = try await f.signIn()
        let policy = f.service.configuration.accountThrottle
        for attempt in 0..<policy.freeFailures {
            let wrong = await f.send("POST", "/v1/me/password", json: Self.body(current: "guess \(attempt)", new: "battery staple"),
                                     bearer: mine.accessToken)
            #expect(wrong.status == 403 && wrong.errorCode == "invalid_grant")
        }
        // The same per-name counter as the login: one more failure there, and both are blocked.
        #expect(await f.login("alice", "guess at login").status == 401)
        let blocked = await f.send("POST", "/v1/me/password", json: Self.body(current: "correct horse", new: "battery staple"),
                                   bearer: mine.accessToken)
        #expect(blocked.status == 429 && blocked.errorCode == "slow_down" && blocked.header("Retry-After") != nil)
        #expect(await f.login("alice", "correct horse").status == 429)
        f.clock.advance(by: 60)
        #expect(await f.send("POST", "/v1/me/password", json: Self.body(current: "correct horse", new: "battery staple"),
                             bearer: mine.accessToken).status == 204)
        #expect(try f.test.database.throttleState(key: "user:alice") == nil, "a right password clears the count")
    }

    @Test func theNewPasswordFollowsTheCreationRules() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        let mine = try await f.signIn()
        for weak in ["short", "ALICE", String(repeating: "x", count: 1025)] {
            let refused = await f.send("POST", "/v1/me/password", json: Self.body(current: "correct horse", new: weak),
                                       bearer: mine.accessToken)
            #expect(refused.status == 400 && refused.errorCode == "weak_password")
        }
        #expect(try f.test.database.throttleState(key: "user:alice") == nil, "no guess was spent on a weak new password")
        let malformed = await f.send("POST", "/v1/me/password", json: #"{"current_password":"correct horse"}"#,
                                     bearer: mine.accessToken)
        #expect(malformed.status == 400 && malformed.errorCode == "invalid_request")
    }

    @Test func withoutTheCurrentPasswordARecentSignInIsNeeded() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        let mine = try await f.signIn()
        // Fresh: allowed (the sign-in just proved the password).
        #expect(await f.send("POST", "/v1/me/password", json: Self.body(current: nil, new: "battery staple"),
                             bearer: mine.accessToken).status == 204)
        f.clock.advance(by: 400)
        let rotated = try f.refreshTokens(await f.refresh(try #require(mine.refreshToken)))
        let late = await f.send("POST", "/v1/me/password", json: #"{"current_password":null,"new_password":"third password"}"#,
                                bearer: rotated.accessToken)
        #expect(late.status == 401 && late.errorCode == "insufficient_user_authentication" && late.json["max_age"] as? Int == 300)
    }

    @Test func anAppleOnlyAccountAddsAPasswordWithARecentSignIn() async throws {
        let f = try #require(try await AppleSessionTests.Fixture.make())
        defer { f.cleanup() }
        let signedIn = try await f.signIn()
        let access = try #require(signedIn.object["access_token"] as? String)
        let claims = try f.auth.authenticate("Bearer \(access)")
        #expect(claims.amr == ["fed"])
        f.clock.advance(by: 301)
        let stale = await f.request("POST", "/v1/me/password", body: Data(Self.body(current: nil, new: "apple user's password").utf8),
                                    bearer: access)
        #expect(stale.status == 401 && stale.object["error"] as? String == "insufficient_user_authentication")
        // A Sign in with Apple step-up (the same session), then the password is added.
        let stepped = try await f.signIn(bearer: access)
        try #require(stepped.status == 200, "\(stepped.bodyText)")
        let fresh = try #require(stepped.object["access_token"] as? String)
        #expect(try f.auth.authenticate("Bearer \(fresh)").sid == claims.sid)
        let added = await f.request("POST", "/v1/me/password", body: Data(Self.body(current: nil, new: "apple user's password").utf8),
                                    bearer: fresh)
        #expect(added.status == 204)
        let me = await f.request("GET", "/v1/me", bearer: fresh)
        #expect(me.object["sign_in_methods"] as? [String] == ["password", "apple"])
        let username = try #require(me.object["username"] as? String)
        #expect(try await f.auth.loginWithPassword(username: username, password: "apple user's password", ip: "127.0.0.1")
            .accessToken.isEmpty == false)
    }

    @Test func aPasskeyOnlyAccountAddsAPasswordAfterAStepUp() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        let created = try await f.register(key, username: "erin")
        let access = try #require(created.object["access_token"] as? String)
        // A "current password" it does not have is wrong (and costs the same work).
        let wrong = await f.request("POST", "/v1/me/password", body: Data(Self.body(current: "anything at all", new: "erin's password").utf8),
                                    bearer: access)
        #expect(wrong.status == 403)
        f.base.clock.advance(by: 400)
        let stale = await f.request("POST", "/v1/me/password", body: Data(Self.body(current: nil, new: "erin's password").utf8),
                                    bearer: access)
        #expect(stale.status == 401 && stale.object["error"] as? String == "insufficient_user_authentication")
        let stepped = await f.request("POST", "/v1/passkeys/authenticate/verify",
                                      body: try JSONEncoder().encode(try await f.assertion(key)), bearer: access)
        try #require(stepped.status == 200, "\(stepped.bodyText)")
        let fresh = try #require(stepped.object["access_token"] as? String)
        let added = await f.request("POST", "/v1/me/password", body: Data(Self.body(current: nil, new: "erin's password").utf8),
                                    bearer: fresh)
        #expect(added.status == 204)
        #expect(await f.base.login("erin", "erin's password").status == 200)
        let me = await f.request("GET", "/v1/me", bearer: fresh)
        #expect(me.object["sign_in_methods"] as? [String] == ["password", "passkey"])
        let events = try f.base.test.database.auditEvents(accountID: try f.base.claims(fresh).sub).map(\.event)
        #expect(events.contains("password_added"))
    }
}
