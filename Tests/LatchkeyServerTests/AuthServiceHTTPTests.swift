import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyServer

/// The auth routes mounted on the real libmicrohttpd server (suspend/resume around Argon2id).
@Suite("Auth over HTTP", .offCooperativePool)
struct AuthServiceHTTPTests {
    func post(_ port: UInt16, _ path: String, contentType: String, body: String, bearer: String? = nil) async throws -> RawResponse {
        var text = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: \(contentType)\r\n"
        if let bearer { text += "Authorization: Bearer \(bearer)\r\n" }
        text += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        return try await rawRequest(port: port, text)
    }

    @Test func loginRefreshReplayAndLogoutOverHTTP() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await withTestServer(routes: f.service.routes()) { server in
            let port = server.port
            let created = try await post(port, "/v1/accounts", contentType: "application/json",
                                         body: #"{"username":"carol","password":"long enough"}"#)
            #expect(created.status == 201)
            // Several logins at once: the Argon2id work runs on the hashing queue, the server keeps answering.
            let logins = try await withThrowingTaskGroup(of: RawResponse.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await post(port, "/v1/session/password", contentType: "application/json",
                                                   body: #"{"username":"carol","password":"long enough"}"#) }
                }
                group.addTask { try await post(port, "/v1/session/password", contentType: "application/json",
                                               body: #"{"username":"carol","password":"wrong!wrong"}"#) }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(logins.filter { $0.status == 200 }.count == 4)
            #expect(logins.filter { $0.status == 401 }.count == 1)
            let first = try #require(logins.first { $0.status == 200 })
            #expect(first.headers["cache-control"] == "no-store")
            let tokens = try JSONDecoder().decode(TokenResponse.self, from: first.body)

            let refreshed = try await post(port, "/v1/token", contentType: "application/x-www-form-urlencoded",
                                           body: "grant_type=refresh_token&refresh_token=\(tokens.refreshToken!)")
            #expect(refreshed.status == 200)
            let next = try JSONDecoder().decode(TokenResponse.self, from: refreshed.body)
            let replay = try await post(port, "/v1/token", contentType: "application/x-www-form-urlencoded",
                                        body: "grant_type=refresh_token&refresh_token=\(tokens.refreshToken!)")
            #expect(replay.status == 400 && replay.text.contains("invalid_grant"))
            let me = try await rawRequest(port: port, "GET /v1/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \(next.accessToken)\r\n\r\n")
            #expect(me.status == 401, "reuse killed the session")

            let other = try #require(logins.last { $0.status == 200 && $0.body != first.body })
            let otherTokens = try JSONDecoder().decode(TokenResponse.self, from: other.body)
            let logout = try await post(port, "/v1/logout", contentType: "application/json", body: "{}", bearer: otherTokens.accessToken)
            #expect(logout.status == 204)
            let jwks = try await rawRequest(port: port, "GET /.well-known/jwks.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(jwks.status == 200 && jwks.text.contains("\"kty\":\"EC\""))
        }
    }
}
