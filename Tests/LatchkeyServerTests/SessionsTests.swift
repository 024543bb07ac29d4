import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// `GET /v1/sessions`, `DELETE /v1/sessions/{id}`, `POST /v1/sessions/revoke-others`.
@Suite("Sessions", .offCooperativePool)
struct SessionsTests {
    static func sessions(_ response: HTTPResponse) throws -> [SessionSummary] {
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        struct List: Decodable { var sessions: [SessionSummary] }
        return try JSONDecoder().decode(List.self, from: response.body).sessions
    }

    @Test(arguments: StorageEngine.allCases)
    func listShowsEveryLiveSessionWithTheCallersFirst(_ engine: StorageEngine) async throws {
        guard let f = try await ServiceFixture.make(engine) else { return }
        defer { f.test.cleanup() }
        try await f.createAlice()
        let start = f.clock.seconds
        let laptop = try await f.signIn(deviceName: "  Work laptop ", ip: "198.51.100.7")
        f.clock.advance(by: 10)
        let phone = try await f.signIn(headers: ["User-Agent": "SecureNotes/1.0 (iPhone; iOS 18.1)\u{7}"], ip: "2001:db8::1")
        f.clock.advance(by: 10)
        let bare = try await f.signIn()

        // From the phone: the phone first, then the others by last use (the bare one is newer than the laptop).
        let listed = try Self.sessions(await f.request("GET", "/v1/sessions", bearer: phone.accessToken))
        #expect(listed.map(\.current) == [true, false, false])
        #expect(listed.map(\.id) == [try f.claims(phone.accessToken).sid, try f.claims(bare.accessToken).sid,
                                     try f.claims(laptop.accessToken).sid])
        let (mine, other, first) = (listed[0], listed[1], listed[2])
        #expect(mine.deviceName == "SecureNotes/1.0 (iPhone; iOS 18.1)", "the User-Agent, its control character left out")
        #expect(mine.clientAddress == "2001:db8::1" && mine.signInMethod == .password && mine.amr == ["pwd"])
        #expect(first.deviceName == "Work laptop" && first.clientAddress == "198.51.100.7")
        #expect(first.createdAt == start && first.lastUsedAt == start && first.authTime == start)
        #expect(other.deviceName == nil)

        // A refresh moves last use and nothing else; the order follows.
        f.clock.advance(by: 60)
        let rotated = try f.refreshTokens(await f.refresh(try #require(laptop.refreshToken)))
        let again = try Self.sessions(await f.request("GET", "/v1/sessions", bearer: rotated.accessToken))
        #expect(again.first?.current == true && again.first?.id == first.id)
        #expect(again.first?.lastUsedAt == start + 80 && again.first?.authTime == start && again.first?.createdAt == start)

        // The raw JSON uses the documented names.
        let raw = await f.request("GET", "/v1/sessions", bearer: rotated.accessToken)
        let entry = try #require((raw.json["sessions"] as? [[String: Any]])?.first)
        #expect(Set(entry.keys) == ["id", "created_at", "last_used_at", "device_name", "client_address", "sign_in_method",
                                    "amr", "auth_time", "current"])
        #expect(raw.header("Cache-Control") == "no-store")
    }

    @Test(arguments: StorageEngine.allCases)
    func endingASessionStopsItsRefreshTokenAtOnce(_ engine: StorageEngine) async throws {
        guard let f = try await ServiceFixture.make(engine) else { return }
        defer { f.test.cleanup() }
        try await f.createAlice()
        let mine = try await f.signIn()
        let other = try await f.signIn()
        let otherID = try f.claims(other.accessToken).sid

        #expect(await f.request("DELETE", "/v1/sessions/\(otherID)", bearer: mine.accessToken).status == 204)
        let refused = await f.refresh(try #require(other.refreshToken))
        #expect(refused.status == 400 && refused.errorCode == "invalid_grant")
        // Its access tokens are refused at once by every Bearer route of the server (each checks the session) —
        let me = await f.request("GET", "/v1/me", bearer: other.accessToken)
        #expect(me.status == 401 && me.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        // — while a resource server verifying offline from the JWKS accepts them until they expire (at most the
        // access-token lifetime, 900 s; checked at the end).
        #expect(throws: Never.self) { try f.service.tokenVerifier().verify(other.accessToken) }

        // Ending it again, an unknown id, or another account's session: the same 404.
        let again = await f.request("DELETE", "/v1/sessions/\(otherID)", bearer: mine.accessToken)
        #expect(again.status == 404 && again.errorCode == "not_found")
        _ = try await f.service.createAccount(username: "bob", password: "bob's password")
        let bob = try await f.signIn("bob", "bob's password")
        let bobID = try f.claims(bob.accessToken).sid
        let foreign = await f.request("DELETE", "/v1/sessions/\(bobID)", bearer: mine.accessToken)
        #expect(foreign.status == 404 && foreign.body == again.body)
        let unknown = await f.request("DELETE", "/v1/sessions/no-such-session", bearer: mine.accessToken)
        #expect(unknown.status == 404 && unknown.body == again.body)
        #expect(await f.request("GET", "/v1/me", bearer: bob.accessToken).status == 200, "Bob's session lives on")

        // The caller may end its own session.
        let myID = try f.claims(mine.accessToken).sid
        #expect(await f.request("DELETE", "/v1/sessions/\(myID)", bearer: mine.accessToken).status == 204)
        #expect(await f.request("GET", "/v1/sessions", bearer: mine.accessToken).status == 401)
        #expect(try f.test.database.auditEvents(accountID: try f.claims(mine.accessToken).sub).filter { $0.event == "session_ended" }
            .count == 2)

        f.clock.advance(by: Double(f.service.configuration.accessTokenLifetime + f.service.configuration.clockSkew + 1))
        #expect(throws: TokenVerificationError.expired) { try f.service.tokenVerifier().verify(other.accessToken) }
    }

    @Test(arguments: StorageEngine.allCases)
    func revokeOthersEndsEveryOtherSession(_ engine: StorageEngine) async throws {
        guard let f = try await ServiceFixture.make(engine) else { return }
        defer { f.test.cleanup() }
        try await f.createAlice()
        let mine = try await f.signIn()
        var others: [TokenResponse] = []
        for _ in 0..<3 { others.append(try await f.signIn()) }
        // One already ended: not counted.
        #expect(await f.request("POST", "/v1/logout", bearer: others[2].accessToken).status == 204)

        let ended = await f.request("POST", "/v1/sessions/revoke-others", bearer: mine.accessToken)
        #expect(ended.status == 200 && ended.json["ended"] as? Int == 2)
        for other in others { #expect(await f.refresh(try #require(other.refreshToken)).status == 400) }
        let left = try Self.sessions(await f.request("GET", "/v1/sessions", bearer: mine.accessToken))
        #expect(left.count == 1 && left[0].current)
        #expect(try f.refreshTokens(await f.refresh(try #require(mine.refreshToken))).refreshToken != nil)
        let again = await f.request("POST", "/v1/sessions/revoke-others", bearer: mine.accessToken)
        #expect(again.json["ended"] as? Int == 0)
    }

    @Test func deviceNamesFollowThePasskeyNameRules() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        for bad in ["", "   ", String(repeating: "x", count: 65), "evil\u{202E}name", "tab\tname"] {
            let body = String(decoding: try JSONSerialization.data(withJSONObject: [
                "username": "alice", "password": "correct horse", "device_name": bad]), as: UTF8.self)
            let refused = await f.send("POST", "/v1/session/password", json: body)
            #expect(refused.status == 400 && refused.errorCode == "invalid_request", "\(bad.debugDescription)")
        }
        #expect(try DeviceName.validated(" 엄마 폰 ") == "엄마 폰")
        let form = await f.request("POST", "/v1/session/password",
                                   form: "username=alice&password=correct%20horse&device_name=\(formValue("🔑 Key"))")
        #expect(form.status == 200)
        let listed = try Self.sessions(await f.request("GET", "/v1/sessions", bearer: try form.tokens().accessToken))
        #expect(listed.first?.deviceName == "🔑 Key")
        // A User-Agent is cut to 256 bytes, at a character boundary.
        let long = String(repeating: "é", count: 200)
        #expect(DeviceName.userAgent(long)?.utf8.count == 256)
        #expect(DeviceName.userAgent("\u{1}\u{2}") == nil)
    }

    /// The hand-built list is byte for byte what the server's JSONEncoder writes, escapes and absent members included.
    @Test(arguments: ["plain", "with \"quotes\" and \\ back/slash", "tab\tnew\nline\u{1}\u{1f}", "café ✓ 🔑", ""])
    func theListBodyMatchesJSONEncoder(_ text: String) throws {
        let full = SessionRecord(id: text, accountID: "a", clientID: "c", createdAt: 1, expiresAt: 2, deviceName: text,
                                 userAgent: "ua", clientAddress: text, signInMethod: .passkey, authTime: -3,
                                 amr: [.hardwareKey, .userPresence, .multipleFactors])
        let bare = SessionRecord(id: "b", accountID: "a", clientID: "c", createdAt: 5, expiresAt: 6)
        for sessions in [[], [SessionSummary(SessionActivity(session: full, lastUsedAt: 9), current: true)],
                         [SessionSummary(SessionActivity(session: full, lastUsedAt: 9), current: false),
                          SessionSummary(SessionActivity(session: bare, lastUsedAt: 5), current: true)]] {
            let expected = try JSONCoding.encoder.encode(["sessions": sessions])
            #expect(String(decoding: SessionSummary.listBody(sessions), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test func aPasskeySignInNamesItsSession() async throws {
        let f = try #require(try await PasskeyEndpointFixture.make())
        defer { f.base.test.cleanup() }
        let key = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        #expect(try await f.register(key, username: "ines").status == 201)
        func signIn(deviceName: Any) async throws -> HTTPResponse {
            var body = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(try await f.assertion(key)))
                                        as? [String: Any])
            body["device_name"] = deviceName
            return await f.request("POST", "/v1/passkeys/authenticate/verify", body: try JSONSerialization.data(withJSONObject: body))
        }
        let named = try await signIn(deviceName: "Ines’s Pixel")
        try #require(named.status == 200, "\(named.bodyText)")
        let listed = try Self.sessions(await f.request("GET", "/v1/sessions",
                                                       bearer: try #require(named.object["access_token"] as? String)))
        #expect(listed.first { $0.current }?.deviceName == "Ines’s Pixel")
        #expect(listed.first { $0.current }?.signInMethod == .passkey && listed.first { $0.current }?.amr == ["hwk", "user", "mfa"])
        for bad in ["", "\u{202E}evil"] as [Any] + [42] {
            let refused = try await signIn(deviceName: bad)
            #expect(refused.status == 400 && refused.object["error"] as? String == "invalid_request", "\(bad)")
        }
    }

    @Test func theSessionRoutesNeedALiveBearerToken() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        for (method, path) in [("GET", "/v1/sessions"), ("DELETE", "/v1/sessions/x"), ("POST", "/v1/sessions/revoke-others"),
                               ("DELETE", "/v1/me")] {
            let response = await f.request(method, path)
            #expect(response.status == 401 && response.errorCode == "invalid_token", "\(method) \(path)")
            #expect(response.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        }
    }
}
