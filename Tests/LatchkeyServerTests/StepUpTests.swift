import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyWebAuthn
@testable import LatchkeyServer

extension ServiceFixture {
    /// A request with any headers (a User-Agent, a Bearer token...).
    func send(_ method: String, _ path: String, json: String? = nil, bearer: String? = nil,
              headers extra: [String: String] = [:], ip: String = "127.0.0.1") async -> HTTPResponse {
        var headers = extra
        if json != nil { headers["Content-Type"] = "application/json" }
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        return await router.handle(HTTPRequest(method: method, path: path, headers: headers, body: Data((json ?? "").utf8),
                                               remoteAddress: ip))
    }

    /// A password login's tokens (`bearer` makes it a step-up of that token's session).
    func signIn(_ username: String = "alice", _ password: String = "correct horse", bearer: String? = nil,
                deviceName: String? = nil, headers: [String: String] = [:], ip: String = "127.0.0.1") async throws -> TokenResponse {
        var body: [String: String] = ["username": username, "password": password]
        if let deviceName { body["device_name"] = deviceName }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let response = await send("POST", "/v1/session/password", json: json, bearer: bearer, headers: headers, ip: ip)
        try #require(response.status == 200, "\(response.status) \(String(decoding: response.body, as: UTF8.self))")
        return try response.tokens()
    }

    func refresh(_ refreshToken: String) async -> HTTPResponse {
        await request("POST", "/v1/token", form: "grant_type=refresh_token&refresh_token=\(refreshToken)")
    }

    /// The verified claims of an access token this service issued.
    func claims(_ accessToken: String) throws -> AccessTokenClaims {
        try service.tokenVerifier().verify(accessToken)
    }
}

/// Step-up re-authentication (RFC 9470) and the authentication facts of access tokens (RFC 8176 `amr`).
@Suite("Step-up re-authentication", .offCooperativePool)
struct StepUpTests {
    @Test func tokensCarryAuthTimeAndAMRAndRefreshKeepsThem() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        let start = f.clock.seconds
        let tokens = try await f.signIn()
        let claims = try f.claims(tokens.accessToken)
        #expect(claims.authTime == start && claims.amr == ["pwd"])

        f.clock.advance(by: 120)
        let refreshed = try f.refreshTokens(await f.refresh(try #require(tokens.refreshToken)))
        let after = try f.claims(refreshed.accessToken)
        #expect(after.iat == start + 120, "a new token")
        #expect(after.authTime == start && after.amr == ["pwd"] && after.sid == claims.sid, "the sign-in's facts, kept")
        let me = await f.request("GET", "/v1/me", bearer: refreshed.accessToken)
        #expect(me.json["auth_time"] as? Int == Int(start))
        #expect(me.json["sign_in_methods"] as? [String] == ["password"])
    }

    @Test func aSignInWithABearerTokenRenewsThatSession() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        let first = try await f.signIn(deviceName: "Work laptop")
        let sid = try f.claims(first.accessToken).sid
        f.clock.advance(by: 600)

        let stepped = try await f.signIn(bearer: first.accessToken)
        let claims = try f.claims(stepped.accessToken)
        #expect(claims.sid == sid && claims.authTime == f.clock.seconds && claims.amr == ["pwd"])
        #expect(stepped.refreshToken != first.refreshToken)
        let sessions = try f.test.database.liveSessions(accountID: claims.sub, now: f.clock.seconds)
        #expect(sessions.count == 1, "no new session")
        #expect(sessions.first?.session.authTime == f.clock.seconds && sessions.first?.session.deviceName == "Work laptop")

        // The new refresh token rotates; the previous one was retired as by a rotation: presenting it is reuse, which
        // ends the session (as a replayed refresh token always does).
        let next = try f.refreshTokens(await f.refresh(try #require(stepped.refreshToken)))
        #expect(try f.claims(next.accessToken).authTime == f.clock.seconds)
        let replay = await f.refresh(try #require(first.refreshToken))
        #expect(replay.status == 400 && replay.errorCode == "invalid_grant")
        #expect(await f.refresh(try #require(next.refreshToken)).status == 400, "reuse revoked the family")
        let audit = try f.test.database.auditEvents(accountID: claims.sub).map(\.event)
        #expect(audit.contains("session_reauthenticated") && audit.contains("refresh_token_reuse"))
    }

    @Test func aStepUpNeedsTheSameAccountAndALiveSession() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        _ = try await f.service.createAccount(username: "bob", password: "bob's password")
        let alice = try await f.signIn()
        let bob = try await f.signIn("bob", "bob's password")

        // Bob's credentials with Alice's token: refused, and nothing changes for either.
        let mismatch = await f.send("POST", "/v1/session/password", json: #"{"username":"bob","password":"bob's password"}"#,
                                    bearer: alice.accessToken)
        #expect(mismatch.status == 403 && mismatch.errorCode == "account_mismatch")
        #expect(await f.request("GET", "/v1/me", bearer: alice.accessToken).status == 200)
        #expect(await f.request("GET", "/v1/me", bearer: bob.accessToken).status == 200)

        // A token that does not verify, or whose session ended: 401 invalid_token, checked before the password.
        let garbage = await f.send("POST", "/v1/session/password", json: #"{"username":"alice","password":"correct horse"}"#,
                                   bearer: "not.a.token")
        #expect(garbage.status == 401 && garbage.errorCode == "invalid_token")
        #expect(garbage.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        #expect(await f.request("POST", "/v1/logout", bearer: alice.accessToken).status == 204)
        let ended = await f.send("POST", "/v1/session/password", json: #"{"username":"alice","password":"wrong one"}"#,
                                 bearer: alice.accessToken)
        #expect(ended.status == 401 && ended.errorCode == "invalid_token")
        #expect(try f.test.database.throttleState(key: "user:alice") == nil, "no password was tried")

        // Another scheme is not a step-up (as before): a plain login.
        let basic = await f.send("POST", "/v1/session/password", json: #"{"username":"alice","password":"correct horse"}"#,
                                 headers: ["Authorization": "Basic YTpi"])
        #expect(basic.status == 200)
    }

    @Test func anExpiredAccessTokenOfALiveSessionStillStepsUp() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        let first = try await f.signIn()
        let sid = try f.claims(first.accessToken).sid
        // Expired (900 s life) but within its lifetime again: a slow ceremony. The session is live.
        f.clock.advance(by: 1_200)
        #expect(await f.request("GET", "/v1/me", bearer: first.accessToken).status == 401)
        let stepped = try await f.signIn(bearer: first.accessToken)
        #expect(try f.claims(stepped.accessToken).sid == sid)
        // Twice its lifetime later it is no proof of anything.
        f.clock.advance(by: 2_000)
        let stale = await f.send("POST", "/v1/session/password", json: #"{"username":"alice","password":"correct horse"}"#,
                                 bearer: first.accessToken)
        #expect(stale.status == 401 && stale.errorCode == "invalid_token")
    }

    @Test func routesThatNeedARecentSignInAnswerTheChallenge() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        let tokens = try await f.signIn()
        f.clock.advance(by: 301)
        let refreshed = try f.refreshTokens(await f.refresh(try #require(tokens.refreshToken)))

        let challenged = await f.request("DELETE", "/v1/me", bearer: refreshed.accessToken)
        #expect(challenged.status == 401 && challenged.errorCode == "insufficient_user_authentication")
        #expect(challenged.json["max_age"] as? Int == 300)
        let header = try #require(challenged.header("WWW-Authenticate"))
        #expect(header.hasPrefix(#"Bearer error="insufficient_user_authentication", error_description=""#))
        #expect(header.hasSuffix(", max_age=300"))
        let noCurrent = await f.send("POST", "/v1/me/password", json: #"{"new_password":"a new password"}"#,
                                     bearer: refreshed.accessToken)
        #expect(noCurrent.status == 401 && noCurrent.errorCode == "insufficient_user_authentication")

        // A step-up with the same token renews auth_time; the routes then answer.
        let stepped = try await f.signIn(bearer: refreshed.accessToken)
        #expect(await f.request("DELETE", "/v1/me", bearer: stepped.accessToken).status == 204)
    }

    @Test func theMaximumAgeIsConfigured() async throws {
        var configuration = AuthConfiguration()
        configuration.stepUpMaxAge = 30
        let f = try #require(try await ServiceFixture.make(configuration: configuration))
        defer { f.test.cleanup() }
        try await f.createAlice()
        let tokens = try await f.signIn()
        f.clock.advance(by: 30)
        #expect(throws: Never.self) { try f.service.authenticateRecently("Bearer \(tokens.accessToken)") }
        f.clock.advance(by: 1)
        #expect(throws: OAuthError.insufficientUserAuthentication(maxAge: 30)) {
            try f.service.authenticateRecently("Bearer \(tokens.accessToken)")
        }
    }

    @Test func passkeyStepUpsSayHowTheUserWasVerified() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make(userVerification: .preferred))
        defer { f.base.test.cleanup() }
        let synced = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore(),
                                           behaviour: { var b = SoftwareAuthenticator.Behaviour(); b.backupEligible = true; return b }())
        let created = try await f.register(synced, username: "carol")
        try #require(created.status == 201, "\(created.bodyText)")
        let access = try #require(created.object["access_token"] as? String)
        #expect(try f.base.claims(access).amr == ["swk", "user", "mfa"])
        let me = await f.request("GET", "/v1/me", bearer: access)
        #expect(me.object["sign_in_methods"] as? [String] == ["passkey"])

        // Without user verification: no mfa.
        var quiet = SoftwareAuthenticator.Behaviour()
        quiet.userVerified = false
        let bound = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore(), behaviour: quiet)
        let second = try await f.register(bound, username: nil, bearer: access)
        try #require(second.status == 201, "\(second.bodyText)")
        let assertion = try await f.assertion(bound)
        let stepped = await f.request("POST", "/v1/passkeys/authenticate/verify", body: try JSONEncoder().encode(assertion),
                                      bearer: access)
        try #require(stepped.status == 200, "\(stepped.bodyText)")
        let claims = try f.base.claims(try #require(stepped.object["access_token"] as? String))
        let accessSID = try f.base.claims(access).sid
        #expect(claims.amr == ["hwk", "user"] && claims.sid == accessSID)

        // Another account's passkey with this token: 403, its assertion spent.
        let other = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        #expect(try await f.register(other, username: "dave").status == 201)
        let foreign = await f.request("POST", "/v1/passkeys/authenticate/verify",
                                      body: try JSONEncoder().encode(try await f.assertion(other)), bearer: access)
        #expect(foreign.status == 403 && foreign.object["error"] as? String == "account_mismatch")
    }

    @Test func addingAPasskeyNeedsARecentSignIn() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        try await f.base.createAlice()
        let tokens = try await f.base.signIn()
        f.base.clock.advance(by: 301)
        let refreshed = try f.base.refreshTokens(await f.base.refresh(try #require(tokens.refreshToken)))
        let late = await f.request("POST", "/v1/passkeys/register/options", body: Data("{}".utf8), bearer: refreshed.accessToken)
        #expect(late.status == 401 && late.object["error"] as? String == "insufficient_user_authentication")
        #expect(late.header("WWW-Authenticate")?.contains("max_age=300") == true)
        let stepped = try await f.base.signIn(bearer: refreshed.accessToken)
        let phone = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        #expect(try await f.register(phone, username: nil, bearer: stepped.accessToken).status == 201)
        let me = await f.request("GET", "/v1/me", bearer: stepped.accessToken)
        #expect(me.object["sign_in_methods"] as? [String] == ["password", "passkey"])
    }

    @Test func signInProofsAreTheDocumentedReferences() {
        #expect(SignInProof.password.amr == ["pwd"])
        #expect(SignInProof.apple.amr == ["fed"])
        #expect(SignInProof.passkey(backupEligible: false, userVerified: true).amr == ["hwk", "user", "mfa"])
        #expect(SignInProof.passkey(backupEligible: true, userVerified: false).amr == ["swk", "user"])
        #expect(SignInProof.passkey(backupEligible: true, userVerified: true).amr == ["swk", "user", "mfa"])
        #expect(AuthenticationMethods().references == [])
        #expect(AuthenticationMethods(rawValue: SignInProof.passkey(backupEligible: false, userVerified: true).methods.rawValue)
                .references == ["hwk", "user", "mfa"], "as stored")
    }
}

extension ServiceFixture {
    func refreshTokens(_ response: HTTPResponse) throws -> TokenResponse {
        try #require(response.status == 200, "\(response.status) \(String(decoding: response.body, as: UTF8.self))")
        return try response.tokens()
    }

}
