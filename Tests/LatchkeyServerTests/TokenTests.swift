import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
@testable import LatchkeyServer

@Suite("Tokens", .offCooperativePool)
struct TokenTests {
    func loggedIn(_ f: ServiceFixture) async throws -> TokenResponse {
        try await f.createAlice()
        let response = await f.login()
        #expect(response.status == 200)
        return try response.tokens()
    }

    func refresh(_ f: ServiceFixture, _ token: String?) async -> HTTPResponse {
        await f.request("POST", "/v1/token", form: "grant_type=refresh_token&refresh_token=\(formValue(token ?? ""))")
    }

    @Test func accessTokenIsAnRFC9068JWT() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        let tokens = try await loggedIn(f)
        let parts = try #require(AccessTokenCodec.split(tokens.accessToken))
        #expect(parts.header.alg == "ES256" && parts.header.typ == "at+jwt")
        #expect(parts.header.kid == (try f.service.keyRing.activeKeyID))
        let payload = try #require(try JSONSerialization.jsonObject(with: parts.payload) as? [String: Any])
        for claim in ["iss", "sub", "aud", "exp", "iat", "jti", "client_id", "scope"] {
            #expect(payload[claim] != nil, "claim \(claim)")
        }
        let claims = try f.service.tokenVerifier().verify(tokens.accessToken)
        #expect(claims.exp - claims.iat == 900)
        #expect(claims.iss == f.service.configuration.issuer && claims.aud == f.service.configuration.audience)
    }

    @Test func verifierWorksOfflineFromTheJWKSDocument() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        let tokens = try await loggedIn(f)
        let jwks = await f.request("GET", "/.well-known/jwks.json")
        #expect(jwks.status == 200)
        let config = f.service.configuration
        let verifier = try TokenVerifier(jwksJSON: jwks.body, issuer: config.issuer, audience: config.audience, clock: f.clock)
        #expect(try verifier.verify(tokens.accessToken).sub == (try f.test.database.account(usernameKey: "alice"))?.id)
        // Wrong issuer / audience.
        let otherIssuer = try TokenVerifier(jwksJSON: jwks.body, issuer: "https://evil", audience: config.audience, clock: f.clock)
        #expect(throws: TokenVerificationError.wrongIssuer) { try otherIssuer.verify(tokens.accessToken) }
        let otherAudience = try TokenVerifier(jwksJSON: jwks.body, issuer: config.issuer, audience: "other", clock: f.clock)
        #expect(throws: TokenVerificationError.wrongAudience) { try otherAudience.verify(tokens.accessToken) }
        // Expiry with skew: valid until exp + 60 s.
        f.clock.advance(by: 900 + 59)
        #expect(throws: Never.self) { try verifier.verify(tokens.accessToken) }
        f.clock.advance(by: 2)
        #expect(throws: TokenVerificationError.expired) { try verifier.verify(tokens.accessToken) }
    }

    @Test func verifierRejectsForgedTokens() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        let tokens = try await loggedIn(f)
        let verifier = try f.service.tokenVerifier()
        let pieces = tokens.accessToken.split(separator: ".").map(String.init)
        func header(_ json: String) -> String { Data(json.utf8).base64URLEncodedString() }
        let kid = try f.service.keyRing.activeKeyID
        // alg none, HS256, wrong typ, unknown kid, tampered payload, garbage.
        #expect(throws: TokenVerificationError.self) {
            try verifier.verify(header(#"{"alg":"none","typ":"at+jwt","kid":"\#(kid)"}"#) + "." + pieces[1] + ".")
        }
        #expect(throws: TokenVerificationError.disallowedAlgorithm) {
            try verifier.verify(header(#"{"alg":"none","typ":"at+jwt","kid":"\#(kid)"}"#) + "." + pieces[1] + "." + pieces[2])
        }
        #expect(throws: TokenVerificationError.disallowedAlgorithm) {
            try verifier.verify(header(#"{"alg":"HS256","typ":"at+jwt","kid":"\#(kid)"}"#) + "." + pieces[1] + "." + pieces[2])
        }
        #expect(throws: TokenVerificationError.wrongType) {
            try verifier.verify(header(#"{"alg":"ES256","typ":"JWT","kid":"\#(kid)"}"#) + "." + pieces[1] + "." + pieces[2])
        }
        #expect(throws: TokenVerificationError.unknownKey) {
            try verifier.verify(header(#"{"alg":"ES256","typ":"at+jwt","kid":"nope"}"#) + "." + pieces[1] + "." + pieces[2])
        }
        var claims = try #require(try JSONSerialization.jsonObject(with: Data(base64URLEncoded: pieces[1])!) as? [String: Any])
        claims["sub"] = "someone-else"
        let tampered = try JSONSerialization.data(withJSONObject: claims).base64URLEncodedString()
        #expect(throws: TokenVerificationError.badSignature) { try verifier.verify(pieces[0] + "." + tampered + "." + pieces[2]) }
        for garbage in ["", "a.b", "a.b.c", "...", String(repeating: "A", count: 10_000), pieces[0] + "." + pieces[1]] {
            #expect(throws: TokenVerificationError.self) { try verifier.verify(garbage) }
        }
    }

    @Test func refreshRotatesAndReuseRevokesTheFamily() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        let first = try await loggedIn(f)
        let r1 = await refresh(f, first.refreshToken)
        #expect(r1.status == 200)
        #expect(r1.header("Cache-Control") == "no-store")
        let second = try r1.tokens()
        #expect(second.refreshToken != first.refreshToken)
        #expect(second.accessToken != first.accessToken)
        #expect(await f.request("GET", "/v1/me", bearer: second.accessToken).status == 200)

        // Replay the first refresh token: reuse → invalid_grant, family revoked, audited.
        let replay = await refresh(f, first.refreshToken)
        #expect(replay.status == 400)
        #expect(replay.errorCode == "invalid_grant")
        #expect(await refresh(f, second.refreshToken).errorCode == "invalid_grant", "the successor is revoked too")
        let me = await f.request("GET", "/v1/me", bearer: second.accessToken)
        #expect(me.status == 401, "the session's access tokens die with it")
        #expect(me.header("WWW-Authenticate")?.contains("invalid_token") == true)
        #expect(try f.test.database.auditEvents().contains { $0.event == "refresh_token_reuse" })
    }

    /// 32 clients present the same refresh token at once: exactly one gets new tokens, every other one is
    /// refused, and the reuse revokes the whole family (the winner's new refresh token dies too).
    @Test(arguments: StorageEngine.allCases)
    func thirtyTwoConcurrentRefreshersOfOneTokenHaveOneWinner(engine: StorageEngine) async throws {
        guard let f = try await ServiceFixture.make(engine) else { return }
        defer { f.test.cleanup() }
        let first = try await loggedIn(f)
        let token = try #require(first.refreshToken)
        let service = f.service
        let outcomes = await onThreads(32) { _ -> String? in
            do { return try service.refresh(refreshToken: token).refreshToken } catch { return nil }
        }
        let winners = outcomes.compactMap { $0 }
        #expect(outcomes.count == 32)
        #expect(winners.count == 1)
        #expect(await refresh(f, winners.first).errorCode == "invalid_grant", "the winner's successor is revoked with the family")
        #expect(try f.test.database.auditEvents().contains { $0.event == "refresh_token_reuse" })
    }

    /// The hand-built payload is byte for byte what the sorted-keys JSONEncoder writes, escapes included.
    @Test(arguments: ["plain", "with \"quotes\" and \\ back/slash", "tab\tnew\nline\u{1}\u{1f}", "café ✓ 🔑", "",
                      "\"\u{8}\u{c}\r\\", "\u{7f}x\u{0}"])
    func accessTokenPayloadMatchesJSONEncoder(_ text: String) throws {
        for claims in [AccessTokenClaims(iss: "https://issuer/\(text)", sub: text, aud: "latchkey", exp: 1_700_000_900,
                                         iat: -5, jti: text, clientID: "app", scope: text, sid: "s"),
                       AccessTokenClaims(iss: "https://issuer", sub: text, aud: "latchkey", exp: 1_700_000_900, iat: 7,
                                         jti: text, clientID: "app", scope: text, sid: "s", authTime: 1_699_999_000,
                                         amr: ["hwk", text, "mfa"]),
                       AccessTokenClaims(iss: "i", sub: "a", aud: "b", exp: 1, iat: 0, jti: "j", clientID: "c", scope: "",
                                         sid: "s", authTime: 0, amr: [])] {
            let expected = try AccessTokenCodec.encoder.encode(claims)
            #expect(String(decoding: AccessTokenCodec.payload(claims), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    /// The token endpoint's hand-built body is byte for byte what the server's JSONEncoder writes for the same
    /// `TokenResponse`, with and without the optional members.
    @Test(arguments: ["plain", "with \"quotes\" and \\ back/slash", "tab\tnew\nline\u{1}\u{1f}", "café ✓ 🔑", "",
                      "\"\u{8}\u{c}\r\\", "\u{7f}x\u{0}"])
    func tokenResponseBodyMatchesJSONEncoder(_ text: String) throws {
        for tokens in [TokenResponse(accessToken: "a.b/\(text)", expiresIn: 900, refreshToken: text, scope: "openid \(text)"),
                       TokenResponse(accessToken: text, tokenType: "DPoP\(text)", expiresIn: -1, refreshToken: nil, scope: nil),
                       TokenResponse(accessToken: text, expiresIn: Int(Int32.max), refreshToken: nil, scope: text)] {
            let expected = try JSONCoding.encoder.encode(tokens)
            #expect(String(decoding: tokens.jsonBody, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            #expect(try JSONDecoder().decode(TokenResponse.self, from: tokens.jsonBody) == tokens)
        }
    }

    @Test func tokenEndpointErrorsFollowRFC6749() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        let tokens = try await loggedIn(f)
        let missingGrant = await f.request("POST", "/v1/token", form: "refresh_token=x")
        #expect(missingGrant.status == 400 && missingGrant.errorCode == "invalid_request")
        #expect(missingGrant.json["error_description"] is String)
        let badGrant = await f.request("POST", "/v1/token", form: "grant_type=password&username=a&password=b")
        #expect(badGrant.status == 400 && badGrant.errorCode == "unsupported_grant_type")
        let missingToken = await f.request("POST", "/v1/token", form: "grant_type=refresh_token")
        #expect(missingToken.status == 400 && missingToken.errorCode == "invalid_request")
        let unknown = await refresh(f, RefreshTokenSecret.generate())
        #expect(unknown.status == 400 && unknown.errorCode == "invalid_grant")
        let garbage = await refresh(f, "garbage%00\u{1F511}")
        #expect(garbage.status == 400 && garbage.errorCode == "invalid_grant")
        let repeated = await f.request("POST", "/v1/token", form: "grant_type=refresh_token&grant_type=refresh_token&refresh_token=x")
        #expect(repeated.status == 400)
        let wrongType = await f.router.handle(HTTPRequest(method: "POST", path: "/v1/token", headers: ["Content-Type": "text/plain"],
                                                         body: Data("grant_type=refresh_token".utf8)))
        #expect(wrongType.status == 415)
        let badScope = await f.request("POST", "/v1/token", form: "grant_type=refresh_token&refresh_token=\(formValue(tokens.refreshToken!))&scope=admin")
        #expect(badScope.status == 400 && badScope.errorCode == "invalid_scope")
        let wrongClient = await f.request("POST", "/v1/token", form: "grant_type=refresh_token&refresh_token=\(formValue(tokens.refreshToken!))&client_id=other")
        #expect(wrongClient.errorCode == "invalid_grant")
        // JSON is accepted too, and the token was not consumed by the refused requests above.
        let json = await f.request("POST", "/v1/token", json: #"{"grant_type":"refresh_token","refresh_token":"\#(tokens.refreshToken!)"}"#)
        #expect(json.status == 200)
    }

    @Test func expiredRefreshTokenAndSessionLifetime() async throws {
        var configuration = AuthConfiguration()
        configuration.refreshTokenLifetime = 3600
        configuration.sessionLifetime = 5000
        let f = try #require(try await ServiceFixture.make(configuration: configuration))
        defer { f.test.cleanup() }
        var tokens = try await loggedIn(f)
        f.clock.advance(by: 3000)
        tokens = try await refresh(f, tokens.refreshToken).tokens()
        // The successor would live 3600 s, but the session ends at 5000 s.
        f.clock.advance(by: 2001)
        #expect(await refresh(f, tokens.refreshToken).errorCode == "invalid_grant")
    }

    @Test func keyRotationKeepsOldKeysPublishedUntilTheirTokensExpire() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        let before = try await loggedIn(f)
        let oldKID = try f.service.keyRing.activeKeyID
        try f.service.rotateSigningKey()
        let newKID = try f.service.keyRing.activeKeyID
        #expect(oldKID != newKID)
        let after = try await refresh(f, before.refreshToken).tokens()
        #expect(AccessTokenCodec.split(after.accessToken)?.header.kid == newKID)

        func publishedKIDs() async -> Set<String> {
            let response = await f.request("GET", "/.well-known/jwks.json")
            return Set((try? PublishedKeySet(jsonData: response.body))?.keys.map(\.kid) ?? [])
        }
        #expect(await publishedKIDs() == [oldKID, newKID])
        #expect(await f.request("GET", "/v1/me", bearer: after.accessToken).status == 200)
        // Tokens of the old key still verify until they expire.
        #expect(throws: Never.self) { try f.service.tokenVerifier().verify(before.accessToken) }
        f.clock.advance(by: 900 + 60)
        #expect(await publishedKIDs() == [newKID], "dropped once no token it signed can be valid")
        try f.service.rotateSigningKey()
        #expect(try f.test.database.signingKeys().map(\.kid).contains(oldKID) == false, "deleted from storage")
        #expect(try f.service.keyRing.rotateIfDue() == false)
        f.clock.advance(by: Double(f.service.configuration.signingKeyRotationInterval))
        #expect(try f.service.keyRing.rotateIfDue() == true)
    }

    @Test func encryptedSigningKeysNeedTheirKey() async throws {
        let kek = SymmetricKey(size: .bits256)
        let f = try #require(try await ServiceFixture.make(encryptionKey: kek))
        defer { f.test.cleanup() }
        let stored = try #require(try f.test.database.signingKeys().first)
        #expect(stored.privateKey.hasPrefix("aesgcm:"))
        let clock = ManualClock()
        #expect(throws: (any Error).self) {
            _ = try AuthService(database: f.test.database, clock: clock, passwordHasher: Argon2PasswordHasher(parameters: testArgon2))
        }
        _ = try AuthService(database: f.test.database, clock: clock, passwordHasher: Argon2PasswordHasher(parameters: testArgon2),
                                  signingKeyEncryptionKey: kek)
    }

    @Test func revokeEndsTheSessionAndAlwaysAnswers200() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        let tokens = try await loggedIn(f)
        #expect(await f.request("POST", "/v1/revoke", form: "token=unknown-token").status == 200)
        #expect(await f.request("POST", "/v1/revoke", form: "token=\(RefreshTokenSecret.generate())").status == 200)
        #expect(await f.request("POST", "/v1/revoke", form: "nothing=here").status == 400)
        let revoked = await f.request("POST", "/v1/revoke", form: "token=\(formValue(tokens.refreshToken!))&token_type_hint=refresh_token")
        #expect(revoked.status == 200)
        #expect(await refresh(f, tokens.refreshToken).errorCode == "invalid_grant")
        #expect(await f.request("GET", "/v1/me", bearer: tokens.accessToken).status == 401)
        #expect(try f.test.database.auditEvents().contains { $0.event == "session_revoked" })
        // Revoking an access token ends its session as well.
        let second = try await f.login().tokens()
        #expect(await f.request("POST", "/v1/revoke", json: #"{"token":"\#(second.accessToken)"}"#).status == 200)
        #expect(await refresh(f, second.refreshToken).errorCode == "invalid_grant")
    }

    @Test func logoutAndMe() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        let tokens = try await loggedIn(f)
        let me = await f.request("GET", "/v1/me", bearer: tokens.accessToken)
        #expect(me.status == 200 && me.json["username"] as? String == "alice")
        #expect(await f.request("GET", "/v1/me").status == 401)
        #expect(await f.request("GET", "/v1/me", bearer: "not-a-jwt").status == 401)
        let other = try await f.login().tokens()
        #expect(await f.request("POST", "/v1/logout", bearer: tokens.accessToken).status == 204)
        #expect(await f.request("GET", "/v1/me", bearer: tokens.accessToken).status == 401, "after logout")
        #expect(await refresh(f, tokens.refreshToken).errorCode == "invalid_grant")
        #expect(await f.request("POST", "/v1/logout", bearer: tokens.accessToken).status == 401)
        #expect(await f.request("GET", "/v1/me", bearer: other.accessToken).status == 200, "other sessions live on")
        #expect(try f.test.database.auditEvents().contains { $0.event == "logout" })
    }

    @Test(arguments: StorageEngine.allCases)
    func reuseAcrossTwoServerProcesses(engine: StorageEngine) async throws {
        guard let f = try await ServiceFixture.make(engine) else { return }
        defer { f.test.cleanup() }
        let tokens = try await loggedIn(f)
        let other = try await f.sibling()
        // Process B refreshes; process A then sees the old token replayed.
        let next = try other.refresh(refreshToken: tokens.refreshToken!)
        #expect(throws: OAuthError.invalidGrant) { try f.service.refresh(refreshToken: tokens.refreshToken!) }
        #expect(throws: OAuthError.invalidGrant) { try other.refresh(refreshToken: next.refreshToken!) }
        // B's access token is signed by a key A publishes (shared keys), and A sees the revoked session.
        #expect(throws: OAuthError.invalidToken) { try f.service.me(authorization: "Bearer " + next.accessToken) }
        // Concurrent rotation from both processes: exactly one wins.
        let fresh = try await f.service.loginWithPassword(username: "alice", password: "correct horse", ip: "127.0.0.1")
        let services = [f.service, other]
        let results = await onThreads(8) { i in (try? services[i % 2].refresh(refreshToken: fresh.refreshToken!)) != nil }
        #expect(results.filter { $0 }.count == 1)
    }

    @Test func graceWindowWhenConfigured() async throws {
        var configuration = AuthConfiguration()
        configuration.refreshGraceSeconds = 10
        let f = try #require(try await ServiceFixture.make(configuration: configuration))
        defer { f.test.cleanup() }
        let tokens = try await loggedIn(f)
        let lost = try f.service.refresh(refreshToken: tokens.refreshToken!)
        f.clock.advance(by: 2)
        let retried = try f.service.refresh(refreshToken: tokens.refreshToken!)
        #expect(throws: OAuthError.invalidGrant) { try f.service.refresh(refreshToken: lost.refreshToken!) }
        _ = try f.service.refresh(refreshToken: retried.refreshToken!)
    }

    @Test func housekeepingDeletesLongExpiredTokensAndRotatesKeys() async throws {
        var configuration = AuthConfiguration()
        configuration.refreshTokenLifetime = 600
        configuration.signingKeyRotationInterval = 3600
        let f = try #require(try await ServiceFixture.make(configuration: configuration))
        defer { f.test.cleanup() }
        let tokens = try await loggedIn(f)
        let kid = try f.service.keyRing.activeKeyID
        #expect(try f.service.housekeeping() == 0)
        f.clock.advance(by: 600 + 86_400 + 1)
        #expect(try f.service.housekeeping() == 1)
        #expect(try f.test.database.refreshToken(hash: RefreshTokenSecret.hash(of: tokens.refreshToken!)) == nil)
        #expect(try f.service.keyRing.activeKeyID != kid)
    }
}
