import Foundation
import LatchkeyTestSupport
import Testing
@testable import Latchkey

/// TokenManager + OAuthTokenRefresher against the real LatchkeyServer (`latchkey serve`, libmicrohttpd,
/// SQLite): the refresh grant of RFC 6749 §6 with rotation and reuse detection.
@Suite(.offCooperativePool) struct TokenManagerServerTests {
    @Test func refreshRotatesAgainstTheRealServerAndReuseLogsOut() async throws {
        guard let binary = VaultHarness.latchkeyBinary else {
            if ProcessInfo.processInfo.environment["LATCHKEY_REQUIRE_SERVICES"] == "1" { Issue.record("latchkey not built") }
            return
        }
        let server = try await ServerProcess(binary: binary)
        defer { server.stop() }
        let credentials = ["username": "mina", "password": "correct horse battery staple"]
        let created = try await server.request("POST", "v1/accounts", json: credentials)
        #expect(created.status == 201)
        let login = try await server.request("POST", "v1/session/password", json: credentials)
        try #require(login.status == 200)
        let access0 = try #require(login.body["access_token"] as? String)
        let refresh0 = try #require(login.body["refresh_token"] as? String)
        let expiresIn = try #require(login.body["expires_in"] as? Int)

        // The stored tokens expire within the window: 30 concurrent callers share one refresh.
        let clock = TestClock(Date())
        let storage = MemoryTokenStorage()
        let refresher = OAuthTokenRefresher(tokenEndpoint: server.baseURL.appendingPathComponent("v1/token"))
        let manager = TokenManager(storage: storage, refresher: refresher, now: clock.closure)
        try await manager.store(AuthTokens(accessToken: access0, refreshToken: refresh0,
                                           expiresAt: clock.now.addingTimeInterval(60)))
        clock.advance(0)
        let results = try await withThrowingTaskGroup(of: AuthTokens.self) { group in
            for _ in 0..<30 { group.addTask { try await manager.validTokens() } }
            var all: [AuthTokens] = []
            for try await tokens in group { all.append(tokens) }
            return all
        }
        #expect(await manager.refreshCount == 1)
        let fresh = try #require(results.first)
        #expect(Set(results.map(\.accessToken)).count == 1)
        #expect(fresh.accessToken != access0)
        let refresh1 = try #require(fresh.refreshToken)
        #expect(refresh1 != refresh0)  // rotated, and stored
        #expect(try await manager.storedTokens()?.refreshToken == refresh1)
        #expect(fresh.expiresAt == clock.now.addingTimeInterval(TimeInterval(expiresIn)))
        #expect(try await server.request("GET", "v1/me", bearer: fresh.accessToken).status == 200)

        // Replaying the old refresh token is refused (invalid_grant) and revokes the family, so the
        // manager's current refresh token is refused too: it deletes the tokens and reports .loggedOut.
        await #expect(throws: TokenRefreshError.invalidGrant) {
            try await refresher.refresh(using: refresh0, scope: nil)
        }
        await #expect(throws: TokenManagerError.loggedOut) { try await manager.forceRefresh() }
        #expect(try storage.load() == nil)
    }
}
