import Foundation
import LatchkeySupport
import Testing
import LatchkeyCrypto
@testable import LatchkeyServer

/// A local stand-in for appleid.apple.com on 127.0.0.1: publishes a JWK Set, signs tokens with an RSA
/// key made by the test, answers /auth/token and /auth/revoke, and counts what it is asked.
final class FakeApple: Sendable {
    let key: RSA.Signing.PrivateKey
    let kid: String
    let team: Team
    let server: HTTPServer
    let keyFetches = Locked<Int>(0)
    let revocations = Locked<[String]>([])
    let publishedKeys: Locked<[JWK]>

    struct Team: Sendable {
        let key: P256.Signing.PrivateKey
        let teamID = "TEAM123456"
        let keyID = "KEY7654321"
    }

    struct TokenReply: Encodable {
        let access_token = "apple-at", token_type = "Bearer", refresh_token = "apple-rt", id_token = "x"
        let expires_in = 3600
    }

    init(kid: String = "apple-key-1") throws {
        key = try RSA.Signing.PrivateKey(keySize: 2048)
        team = Team(key: try P256.Signing.PrivateKey())
        self.kid = kid
        publishedKeys = Locked([JWK(rsa: key.publicKey, kid: kid)])
        var config = HTTPServerConfiguration(port: 0, threads: 2, accessLog: nil)
        config.shutdownGracePeriod = .seconds(1)
        server = HTTPServer(configuration: config)
        let router = Router([
            Route("GET", "/auth/keys") { [self] _ in
                keyFetches.withLock { $0 += 1 }
                var set = JWKSet(keys: publishedKeys.withLock { $0 })
                set.keys = set.keys.map { var k = $0; k.alg = "RS256"; k.use = "sig"; return k }
                return HTTPResponse.json(set)
            },
            Route("POST", "/auth/token") { [self] request in tokenEndpoint(request) },
            Route("POST", "/auth/revoke") { [self] request in
                let form = (try? request.decodeForm()) ?? [:]
                guard clientSecretIsValid(form) else { return .error(status: 401, code: "invalid_client") }
                revocations.withLock { $0.append(form["token"] ?? "") }
                return HTTPResponse(status: 200)
            },
        ])
        try server.start(router: router)
    }

    var baseURL: URL { URL(string: server.baseURL)! }

    func clientSecretIsValid(_ form: [String: String]) -> Bool {
        guard let secret = form["client_secret"] else { return false }
        let options = JWTValidationOptions(allowedAlgorithms: [.ES256], issuer: team.teamID,
                                           audiences: ["https://appleid.apple.com"])
        guard let jwt = try? JWT.verify(secret, key: .p256(team.key.publicKey), options: options) else { return false }
        return jwt.header.kid == team.keyID && jwt.claims.sub == form["client_id"]
    }

    func tokenEndpoint(_ request: HTTPRequest) -> HTTPResponse {
        let form = (try? request.decodeForm()) ?? [:]
        guard clientSecretIsValid(form) else { return .error(status: 401, code: "invalid_client") }
        guard form["grant_type"] == "authorization_code", form["code"] == "good-code" else {
            return .error(status: 400, code: "invalid_grant")
        }
        return .json(TokenReply())
    }

    /// Signs claims as Apple would (RS256, this fake's kid unless told otherwise).
    func sign(_ claims: [String: Any], kid: String? = nil, alg: JWSAlgorithm = .RS256) throws -> String {
        let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        return try JWS.sign(payload: payload, header: JWSHeader(alg: alg, kid: kid ?? self.kid), key: .rsa(key))
    }

    func stop() { server.shutdownBlocking(gracePeriod: .seconds(1)) }
}

@Suite(.serialized) struct AppleSignInTests {
    static let clientID = "com.example.latchkey"
    let clock = TestClock(Date())

    func identityClaims(_ changes: [String: Any] = [:], rawNonce: String = "raw-nonce") -> [String: Any] {
        var claims: [String: Any] = [
            "iss": "https://appleid.apple.com", "aud": Self.clientID, "sub": "001234.abcdef",
            "iat": Int(clock.now.timeIntervalSince1970), "exp": Int(clock.now.timeIntervalSince1970) + 600,
            "nonce": SHA256.hash(data: Data(rawNonce.utf8)).hexString, "nonce_supported": true,
            "email": "x@privaterelay.appleid.com", "email_verified": "true", "is_private_email": true,
            "real_user_status": 2,
        ]
        for (k, v) in changes { claims[k] = v }
        return claims
    }

    func verifier(_ apple: FakeApple, refetch: TimeInterval = 60) -> AppleIdentityTokenVerifier {
        let config = AppleSignInConfiguration(clientIDs: [Self.clientID], baseURL: apple.baseURL,
                                              minimumRefetchInterval: refetch)
        let keys = AppleKeyStore(url: config.keysURL, client: URLSessionAppleHTTPClient(), lifetime: 3600,
                                 minimumRefetchInterval: refetch, now: clock.function)
        return AppleIdentityTokenVerifier(configuration: config, keys: keys, now: clock.function)
    }

    @Test func acceptsAValidToken() async throws {
        let apple = try FakeApple()
        defer { apple.stop() }
        let identity = try await verifier(apple).verify(try apple.sign(identityClaims()), rawNonce: "raw-nonce")
        #expect(identity.subject == "001234.abcdef")
        #expect(identity.audience == Self.clientID)
        #expect(identity.emailVerified == true && identity.isPrivateEmail == true)
        #expect(identity.realUserStatus == 2)
    }

    @Test func rejectsWrongAudienceIssuerAndExpiry() async throws {
        let apple = try FakeApple()
        defer { apple.stop() }
        let v = verifier(apple)
        await #expect(throws: AppleSignInError.wrongAudience) {
            try await v.verify(try apple.sign(identityClaims(["aud": "com.other.app"])), rawNonce: "raw-nonce")
        }
        await #expect(throws: AppleSignInError.wrongIssuer) {
            try await v.verify(try apple.sign(identityClaims(["iss": "https://evil.example"])), rawNonce: "raw-nonce")
        }
        let t = Int(clock.now.timeIntervalSince1970)
        await #expect(throws: AppleSignInError.expired) {
            try await v.verify(try apple.sign(identityClaims(["iat": t - 7200, "exp": t - 3600])), rawNonce: "raw-nonce")
        }
        await #expect(throws: AppleSignInError.issuedInFuture) {
            try await v.verify(try apple.sign(identityClaims(["iat": t + 3600, "exp": t + 7200])), rawNonce: "raw-nonce")
        }
    }

    @Test func checksTheNonce() async throws {
        let apple = try FakeApple()
        defer { apple.stop() }
        let v = verifier(apple)
        await #expect(throws: AppleSignInError.nonceMismatch) {
            try await v.verify(try apple.sign(identityClaims()), rawNonce: "another-nonce")
        }
        await #expect(throws: AppleSignInError.nonceMismatch) {
            try await v.verify(try apple.sign(identityClaims()), rawNonce: nil)
        }
        // The raw nonce itself in the token (web flow) is not the native hash form.
        await #expect(throws: AppleSignInError.nonceMismatch) {
            try await v.verify(try apple.sign(identityClaims(["nonce": "raw-nonce"])), rawNonce: "raw-nonce")
        }
    }

    @Test func unknownKidCausesOneRefetch() async throws {
        let apple = try FakeApple()
        defer { apple.stop() }
        let v = verifier(apple)
        _ = try await v.verify(try apple.sign(identityClaims()), rawNonce: "raw-nonce")
        #expect(apple.keyFetches.withLock { $0 } == 1)
        // Apple rotates: a new key appears; the first token with its kid makes one refetch.
        let rotated = try RSA.Signing.PrivateKey(keySize: 2048)
        apple.publishedKeys.withLock { $0.append(JWK(rsa: rotated.publicKey, kid: "apple-key-2")) }
        clock.advance(61)
        let payload = try JSONSerialization.data(withJSONObject: identityClaims(), options: [.sortedKeys])
        let token = try JWS.sign(payload: payload, header: JWSHeader(alg: .RS256, kid: "apple-key-2"), key: .rsa(rotated))
        _ = try await v.verify(token, rawNonce: "raw-nonce")
        #expect(apple.keyFetches.withLock { $0 } == 2)
        // A forged kid right after: refused without hammering Apple.
        await #expect(throws: AppleSignInError.unknownKey("forged")) {
            try await v.verify(try apple.sign(identityClaims(), kid: "forged"), rawNonce: "raw-nonce")
        }
        #expect(apple.keyFetches.withLock { $0 } == 2)
        // Cached keys serve later tokens without a fetch.
        _ = try await v.verify(try apple.sign(identityClaims()), rawNonce: "raw-nonce")
        #expect(apple.keyFetches.withLock { $0 } == 2)
    }

    @Test func rejectsAlgorithmSwitches() async throws {
        let apple = try FakeApple()
        defer { apple.stop() }
        let v = verifier(apple)
        let payload = try JSONSerialization.data(withJSONObject: identityClaims(), options: [.sortedKeys])
        let body = payload.base64URLEncodedString()
        // alg none, no signature.
        let noneHeader = Data(#"{"alg":"none","kid":"apple-key-1"}"#.utf8).base64URLEncodedString()
        await #expect(throws: AppleSignInError.self) { try await v.verify("\(noneHeader).\(body).", rawNonce: "raw-nonce") }
        // HS256 keyed with Apple's public modulus (the classic algorithm-confusion forgery).
        let hsHeader = Data(#"{"alg":"HS256","kid":"apple-key-1"}"#.utf8).base64URLEncodedString()
        let mac = HMAC.authenticationCode(for: Data("\(hsHeader).\(body)".utf8),
                                          using: SymmetricKey(data: apple.key.publicKey.derRepresentation))
        await #expect(throws: AppleSignInError.self) {
            try await v.verify("\(hsHeader).\(body).\(mac.base64URLEncodedString())", rawNonce: "raw-nonce")
        }
        // ES256 from someone else's key under Apple's kid.
        let other = try P256.Signing.PrivateKey()
        let es = try JWS.sign(payload: payload, header: JWSHeader(alg: .ES256, kid: "apple-key-1"), key: .p256(other))
        await #expect(throws: AppleSignInError.algorithmNotAllowed("ES256")) { try await v.verify(es, rawNonce: "raw-nonce") }
        // A flipped signature bit.
        var parts = try apple.sign(identityClaims()).split(separator: ".").map(String.init)
        var sig = try #require(Data(base64URLEncoded: parts[2]))
        sig[0] ^= 1
        parts[2] = sig.base64URLEncodedString()
        await #expect(throws: AppleSignInError.badSignature) { try await v.verify(parts.joined(separator: "."), rawNonce: "raw-nonce") }
    }

    @Test func clientSecretIsAnES256JWTAppleAccepts() async throws {
        let apple = try FakeApple()
        defer { apple.stop() }
        let secret = try AppleClientSecret.make(teamID: apple.team.teamID, keyID: apple.team.keyID, clientID: Self.clientID,
                                                privateKey: apple.team.key, now: clock.now, lifetime: 400 * 24 * 3600)
        let parts = secret.split(separator: ".")
        #expect(parts.count == 3)
        #expect(try #require(Data(base64URLEncoded: parts[2])).count == 64) // raw r||s, not DER
        let jwt = try JWT.verify(secret, key: .p256(apple.team.key.publicKey),
                                 options: JWTValidationOptions(allowedAlgorithms: [.ES256], issuer: apple.team.teamID,
                                                               audiences: ["https://appleid.apple.com"], now: clock.now))
        let life = try #require(jwt.claims.exp).timeIntervalSince(try #require(jwt.claims.iat))
        #expect(life <= AppleClientSecret.maximumLifetime)
    }

    @Test func exchangesCodesAndRevokesTokens() async throws {
        let apple = try FakeApple()
        defer { apple.stop() }
        let config = AppleSignInConfiguration(clientIDs: [Self.clientID], baseURL: apple.baseURL, teamID: apple.team.teamID,
                                              keyID: apple.team.keyID, privateKey: apple.team.key)
        let client = AppleAuthClient(configuration: config, now: clock.function)
        let tokens = try await client.exchange(code: "good-code", clientID: Self.clientID)
        #expect(tokens.refreshToken == "apple-rt")
        await #expect(throws: AppleSignInError.appleRejected(status: 400, error: "invalid_grant")) {
            try await client.exchange(code: "used-code", clientID: Self.clientID)
        }
        try await client.revoke(token: "apple-rt", clientID: Self.clientID)
        #expect(apple.revocations.withLock { $0 } == ["apple-rt"])
        let unconfigured = AppleAuthClient(configuration: AppleSignInConfiguration(clientIDs: [Self.clientID], baseURL: apple.baseURL))
        await #expect(throws: AppleSignInError.clientSecretUnavailable) {
            try await unconfigured.exchange(code: "good-code", clientID: Self.clientID)
        }
    }

    @Test(arguments: [("email-disabled", AppleServerNotification.EventType.emailDisabled),
                      ("email-enabled", .emailEnabled), ("consent-revoked", .consentRevoked),
                      ("account-delete", .accountDelete), ("account-deleted", .accountDelete)])
    func verifiesServerToServerNotifications(name: String, type: AppleServerNotification.EventType) async throws {
        let apple = try FakeApple()
        defer { apple.stop() }
        let config = AppleSignInConfiguration(clientIDs: [Self.clientID], baseURL: apple.baseURL)
        let keys = AppleKeyStore(url: config.keysURL, client: URLSessionAppleHTTPClient(), now: clock.function)
        let verifier = AppleNotificationVerifier(configuration: config, keys: keys, now: clock.function)
        let t = Int(clock.now.timeIntervalSince1970)
        let events = #"{"type":"\#(name)","sub":"001234.abcdef","event_time":\#(t * 1000),"email":"x@privaterelay.appleid.com","is_private_email":"true"}"#
        let jws = try apple.sign(["iss": "https://appleid.apple.com", "aud": Self.clientID, "iat": t, "exp": t + 600,
                                  "jti": "jti-\(name)", "events": events])
        let body = try JSONSerialization.data(withJSONObject: ["payload": jws])
        let event = try await verifier.verify(body: body)
        #expect(event.type == type && event.subject == "001234.abcdef" && event.isPrivateEmail == true)
        #expect(abs(event.eventTime.timeIntervalSince1970 - Double(t)) < 1)
        await #expect(throws: AppleSignInError.duplicateNotification) { try await verifier.verify(body: body) }
        let unknown = try apple.sign(["iss": "https://appleid.apple.com", "aud": Self.clientID, "iat": t, "exp": t + 600,
                                      "jti": "other", "events": #"{"type":"nope","sub":"1","event_time":1}"#])
        await #expect(throws: AppleSignInError.malformedEvent("type nope")) {
            try await verifier.verify(body: try JSONSerialization.data(withJSONObject: ["payload": unknown]))
        }
    }
}
