import Foundation
import LatchkeyTestSupport
import LatchkeySupport
import Testing
import Latchkey
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue #6 item 5: the client kit against a real `latchkey serve` process on loopback.
/// Log in with a password, let the access token expire on the client's (injected) clock, refresh through
/// `TokenManager`'s default OAuth refresher, replay the old refresh token, and see the family revoked
/// and the client logged out.
@Suite(.serialized, .offCooperativePool) struct ClientServerIntegrationTests {
    struct LoginBody: Encodable { let username: String; let password: String }

    func post(_ url: URL, json: some Encodable) async throws -> (Int, Data) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(json)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    func get(_ url: URL, bearer: String) async throws -> Int {
        var request = URLRequest(url: url)
        request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    @Test func passwordLoginRefreshAndReuseDetection() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let serve = try await ServeProcess(["--database", "sqlite:" + dir.appendingPathComponent("auth.sqlite").path])
        do {
            try await run(against: try #require(URL(string: serve.baseURL)), dir: dir)
        } catch {
            _ = try? await serve.stop()
            throw error
        }
        #expect(try await serve.stop() == 0)
    }

    func run(against base: URL, dir: URL) async throws {

        // Create an account and log in with the password.
        let credentials = LoginBody(username: "alice", password: "correct horse battery")
        let (created, _) = try await post(base.appendingPathComponent("v1/accounts"), json: credentials)
        #expect(created == 201)
        let (status, body) = try await post(base.appendingPathComponent("v1/session/password"), json: credentials)
        #expect(status == 200)
        let grant = try JSONDecoder().decode(TokenGrant.self, from: body)
        let firstRefresh = try #require(grant.refreshToken)

        // The client kit takes over: tokens in a real keychain (FileVault), refreshed by the default refresher.
        let clock = Locked(Date())
        let vault = try FileVault(url: dir.appendingPathComponent("client.vault"), kdf: .testing)
        try vault.unlock(passphrase: "client passphrase")
        let manager = TokenManager(
            storage: KeychainTokenStorage(service: "org.latchkey.e2e", store: vault),
            refresher: OAuthTokenRefresher(tokenEndpoint: base.appendingPathComponent("v1/token")),
            now: { clock.withLock { $0 } })
        try await manager.store(AuthTokens(accessToken: grant.accessToken, refreshToken: firstRefresh,
                                           expiresAt: Date().addingTimeInterval(grant.expiresIn ?? 900)))
        let stillValid = try await manager.validTokens()
        #expect(stillValid.accessToken == grant.accessToken)
        #expect(await manager.refreshCount == 0)

        // The access token expires on the client's clock: validTokens() refreshes once, with rotation.
        clock.withLock { $0 += 3600 }
        let refreshed = try await manager.validTokens()
        #expect(refreshed.accessToken != grant.accessToken)
        #expect(refreshed.refreshToken != firstRefresh)
        #expect(await manager.refreshCount == 1)
        #expect(try await get(base.appendingPathComponent("v1/me"), bearer: refreshed.accessToken) == 200)

        // An attacker replays the first (already used) refresh token: refused, and the family is revoked.
        var replay = URLRequest(url: base.appendingPathComponent("v1/token"))
        replay.httpMethod = "POST"
        replay.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        replay.httpBody = Data("grant_type=refresh_token&refresh_token=\(firstRefresh)".utf8)
        let (replayData, replayResponse) = try await URLSession.shared.data(for: replay)
        #expect((replayResponse as? HTTPURLResponse)?.statusCode == 400)
        #expect(String(decoding: replayData, as: UTF8.self).contains("invalid_grant"))
        // The session the refreshed tokens belong to is gone with it.
        #expect(try await get(base.appendingPathComponent("v1/me"), bearer: refreshed.accessToken) == 401)

        // The legitimate client's next refresh is refused: it is logged out and its tokens deleted.
        clock.withLock { $0 += 3600 }
        await #expect(throws: TokenManagerError.loggedOut) { try await manager.validTokens() }
        #expect(try await manager.storedTokens() == nil)
    }
}
