import Foundation
import Testing
@testable import Latchkey

/// `OAuthTokenRefresher` against a real HTTP responder on 127.0.0.1.
@Suite struct TokenManagerOAuthTests {
    private func json(_ text: String, status: Int = 200) -> LoopbackHTTPResponder.Response {
        .init(status: status, body: Data(text.utf8))
    }

    @Test func refreshPostsTheRFC6749FormAndParsesTheAnswer() async throws {
        let server = try LoopbackHTTPResponder { _ in
            self.json(#"{"access_token":"at-2","token_type":"Bearer","expires_in":900,"refresh_token":"rt 2+/","scope":"notes"}"#)
        }
        defer { server.stop() }
        let refresher = OAuthTokenRefresher(tokenEndpoint: server.url, clientID: "vault-cli")
        let grant = try await refresher.refresh(using: "rt/1 +x", scope: "notes")
        #expect(grant == TokenGrant(accessToken: "at-2", expiresIn: 900, refreshToken: "rt 2+/", scope: "notes"))
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/token")
        #expect(request.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(request.form == ["grant_type": "refresh_token", "refresh_token": "rt/1 +x",
                                 "client_id": "vault-cli", "scope": "notes"])
        #expect(String(decoding: request.body, as: UTF8.self).contains("refresh_token=rt%2F1+%2Bx"))
    }

    @Test func errorsAreTyped() async throws {
        let server = try LoopbackHTTPResponder { request in
            switch request.form["refresh_token"] {
            case "refused": self.json(#"{"error":"invalid_grant","error_description":"revoked"}"#, status: 400)
            case "html": .init(status: 200, body: Data("<html>".utf8), contentType: "text/html")
            case "throttled": self.json(#"{"error":"slow_down"}"#, status: 429)
            case "no-type": self.json(#"{"access_token":"x","expires_in":10}"#)
            default: .init(status: 500, body: Data())
            }
        }
        defer { server.stop() }
        let refresher = OAuthTokenRefresher(tokenEndpoint: server.url)
        await #expect(throws: TokenRefreshError.invalidGrant) { try await refresher.refresh(using: "refused", scope: nil) }
        await #expect(throws: TokenRefreshError.badResponse("the body is not a token response")) {
            try await refresher.refresh(using: "html", scope: nil)
        }
        await #expect(throws: TokenRefreshError.badResponse("the body is not a token response")) {
            try await refresher.refresh(using: "no-type", scope: nil)
        }
        await #expect(throws: TokenRefreshError.server(status: 429, code: "slow_down")) {
            try await refresher.refresh(using: "throttled", scope: nil)
        }
        await #expect(throws: TokenRefreshError.server(status: 500, code: nil)) {
            try await refresher.refresh(using: "other", scope: nil)
        }
    }

    @Test func unreachableServerIsANetworkError() async throws {
        let server = try LoopbackHTTPResponder { _ in .init(status: 200, body: Data()) }
        let url = server.url
        server.stop()  // nothing listens on that port any more
        let refresher = OAuthTokenRefresher(tokenEndpoint: url)
        do {
            _ = try await refresher.refresh(using: "x", scope: nil)
            Issue.record("expected a network error")
        } catch {
            guard case .network = error else { Issue.record("got \(error)"); return }
        }
    }

    @Test func managerRotatesThroughTheRealRefresher() async throws {
        let server = try LoopbackHTTPResponder { request in
            let old = request.form["refresh_token"] ?? ""
            guard old.hasPrefix("rt-"), let n = Int(old.dropFirst(3)) else {
                return self.json(#"{"error":"invalid_grant"}"#, status: 400)
            }
            return self.json(#"{"access_token":"at-\#(n + 1)","token_type":"bearer","expires_in":60,"refresh_token":"rt-\#(n + 1)"}"#)
        }
        defer { server.stop() }
        let clock = TestClock()
        let storage = MemoryTokenStorage()
        let manager = TokenManager(storage: storage, refresher: OAuthTokenRefresher(tokenEndpoint: server.url),
                                   now: clock.closure)
        try await manager.store(AuthTokens(accessToken: "at-0", refreshToken: "rt-0", expiresAt: clock.now + 30))
        #expect(try await manager.validTokens().accessToken == "at-1")
        #expect(try await manager.validTokens().accessToken == "at-2")  // 60 s is inside the 300 s window
        #expect(server.requests.map { $0.form["refresh_token"] } == ["rt-0", "rt-1"])
        try await manager.store(AuthTokens(accessToken: "at-x", refreshToken: "bogus", expiresAt: clock.now + 30))
        await #expect(throws: TokenManagerError.loggedOut) { try await manager.validTokens() }
        #expect(try storage.load() == nil)
    }
}
