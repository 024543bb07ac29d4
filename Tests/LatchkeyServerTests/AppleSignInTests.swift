import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
@testable import LatchkeyServer

/// A developer team's Sign in with Apple key, and `AppleIDStandIn` (the product's stand-in for appleid.apple.com) started
/// on loopback with that key for checking client secrets.
struct AppleTestTeam: Sendable {
    let key = P256.Signing.PrivateKey()
    let teamID = "TEAM123456"
    let keyID = "KEY7654321"

    func standIn(clientIDs: Set<String> = [], keyID: String = "apple-key-1") throws -> AppleIDStandIn {
        let configuration = AppleIDStandIn.Configuration(
            clientIDs: clientIDs, teamKeys: [AppleIDStandIn.TeamKey(teamID: teamID, keyID: self.keyID, publicKey: key.publicKey)])
        let standIn = try AppleIDStandIn(configuration: configuration, keyID: keyID)
        try standIn.start()
        return standIn
    }
}

@Suite(.serialized, .offCooperativePool) struct AppleSignInTests {
    static let clientID = "com.example.latchkey"
    let clock = TestClock(Date())
    let team = AppleTestTeam()

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

    func verifier(_ apple: AppleIDStandIn, refetch: TimeInterval = 60) -> AppleIdentityTokenVerifier {
        let config = AppleSignInConfiguration(clientIDs: [Self.clientID], baseURL: apple.baseURL,
                                              minimumRefetchInterval: refetch)
        let keys = AppleKeyStore(url: config.keysURL, client: URLSessionAppleHTTPClient(), lifetime: 3600,
                                 minimumRefetchInterval: refetch, now: clock.function)
        return AppleIdentityTokenVerifier(configuration: config, keys: keys, now: clock.function)
    }

    @Test func acceptsAValidToken() async throws {
        let apple = try team.standIn()
        defer { apple.stop() }
        let identity = try await verifier(apple).verify(try apple.sign(identityClaims()), rawNonce: "raw-nonce")
        #expect(identity.subject == "001234.abcdef")
        #expect(identity.audience == Self.clientID)
        #expect(identity.emailVerified == true && identity.isPrivateEmail == true)
        #expect(identity.realUserStatus == 2)
    }

    @Test func rejectsWrongAudienceIssuerAndExpiry() async throws {
        let apple = try team.standIn()
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
        let apple = try team.standIn()
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
        let apple = try team.standIn()
        defer { apple.stop() }
        let v = verifier(apple)
        _ = try await v.verify(try apple.sign(identityClaims()), rawNonce: "raw-nonce")
        #expect(apple.keyFetches == 1)
        // Apple rotates: a new key appears; the first token with its kid makes one refetch.
        let rotated = try RSA.Signing.PrivateKey(keySize: 2048)
        apple.publish(JWK(rsa: rotated.publicKey, kid: "apple-key-2"))
        clock.advance(61)
        let payload = try JSONSerialization.data(withJSONObject: identityClaims(), options: [.sortedKeys])
        let token = try JWS.sign(payload: payload, header: JWSHeader(alg: .RS256, kid: "apple-key-2"), key: .rsa(rotated))
        _ = try await v.verify(token, rawNonce: "raw-nonce")
        #expect(apple.keyFetches == 2)
        // A forged kid right after: refused without hammering Apple.
        await #expect(throws: AppleSignInError.unknownKey("forged")) {
            try await v.verify(try apple.sign(identityClaims(), keyID: "forged"), rawNonce: "raw-nonce")
        }
        #expect(apple.keyFetches == 2)
        // Cached keys serve later tokens without a fetch.
        _ = try await v.verify(try apple.sign(identityClaims()), rawNonce: "raw-nonce")
        #expect(apple.keyFetches == 2)
    }

    @Test func rejectsAlgorithmSwitches() async throws {
        let apple = try team.standIn()
        defer { apple.stop() }
        let v = verifier(apple)
        let payload = try JSONSerialization.data(withJSONObject: identityClaims(), options: [.sortedKeys])
        let body = payload.base64URLEncodedString()
        // alg none, no signature.
        let noneHeader = Data(#"{"alg":"none","kid":"apple-key-1"}"#.utf8).base64URLEncodedString()
        await #expect(throws: AppleSignInError.self) { try await v.verify("\(noneHeader).\(body).", rawNonce: "raw-nonce") }
        // HS256 keyed with Apple's public modulus (the classic algorithm-confusion forgery).
        let hsHeader = Data(#"{"alg":"HS256","kid":"apple-key-1"}"#.utf8).base64URLEncodedString()
        let mac = Data(HMAC<SHA256>.authenticationCode(for: Data("\(hsHeader).\(body)".utf8),
                                                       using: SymmetricKey(data: apple.signingKey.publicKey.derRepresentation)))
        await #expect(throws: AppleSignInError.self) {
            try await v.verify("\(hsHeader).\(body).\(mac.base64URLEncodedString())", rawNonce: "raw-nonce")
        }
        // ES256 from someone else's key under Apple's kid.
        let other = P256.Signing.PrivateKey()
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
        let apple = try team.standIn()
        defer { apple.stop() }
        let secret = try AppleClientSecret.make(teamID: team.teamID, keyID: team.keyID, clientID: Self.clientID,
                                                privateKey: team.key, now: clock.now, lifetime: 400 * 24 * 3600)
        let parts = secret.split(separator: ".")
        #expect(parts.count == 3)
        #expect(try #require(Data(base64URLEncoded: parts[2])).count == 64) // raw r||s, not DER
        let jwt = try JWT.verify(secret, key: .p256(team.key.publicKey),
                                 options: JWTValidationOptions(allowedAlgorithms: [.ES256], issuer: team.teamID,
                                                               audiences: ["https://appleid.apple.com"], now: clock.now))
        let life = try #require(jwt.claims.exp).timeIntervalSince(try #require(jwt.claims.iat))
        #expect(life <= AppleClientSecret.maximumLifetime)
    }

    @Test func exchangesCodesAndRevokesTokens() async throws {
        let apple = try team.standIn()
        defer { apple.stop() }
        let config = AppleSignInConfiguration(clientIDs: [Self.clientID], baseURL: apple.baseURL, teamID: team.teamID,
                                              keyID: team.keyID, privateKey: team.key)
        let client = AppleAuthClient(configuration: config, now: clock.function)
        let code = try apple.authorize(.init(clientID: Self.clientID, appleID: "ada@example.com")).authorizationCode
        let tokens = try await client.exchange(code: code, clientID: Self.clientID)
        let refresh = try #require(tokens.refreshToken)
        #expect(tokens.idToken != nil && tokens.accessToken != nil)
        // Codes are single use.
        await #expect(throws: AppleSignInError.appleRejected(status: 400, error: "invalid_grant")) {
            try await client.exchange(code: code, clientID: Self.clientID)
        }
        try await client.revoke(token: refresh, clientID: Self.clientID)
        #expect(apple.revokedTokens == [refresh])
        // A client secret signed by another key is refused.
        let impostor = AppleAuthClient(configuration: AppleSignInConfiguration(
            clientIDs: [Self.clientID], baseURL: apple.baseURL, teamID: team.teamID, keyID: team.keyID,
            privateKey: P256.Signing.PrivateKey()), now: clock.function)
        let another = try apple.authorize(.init(clientID: Self.clientID, appleID: "ada@example.com")).authorizationCode
        await #expect(throws: AppleSignInError.appleRejected(status: 401, error: "invalid_client")) {
            try await impostor.exchange(code: another, clientID: Self.clientID)
        }
        let unconfigured = AppleAuthClient(configuration: AppleSignInConfiguration(clientIDs: [Self.clientID], baseURL: apple.baseURL))
        await #expect(throws: AppleSignInError.clientSecretUnavailable) {
            try await unconfigured.exchange(code: another, clientID: Self.clientID)
        }
    }

    @Test(arguments: [("email-disabled", AppleServerNotification.EventType.emailDisabled),
                      ("email-enabled", .emailEnabled), ("consent-revoked", .consentRevoked),
                      ("account-delete", .accountDelete), ("account-deleted", .accountDelete)])
    func verifiesServerToServerNotifications(name: String, type: AppleServerNotification.EventType) async throws {
        let apple = try team.standIn()
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
