import Foundation
import LatchkeyTestSupport
import LatchkeyCrypto
import LatchkeySupport
import Testing
@testable import LatchkeyServer

/// Forged and misused access tokens at `GET /v1/me` on the real server (issue 14, part 3): every one is
/// answered 401 `invalid_token` with `WWW-Authenticate: Bearer error="invalid_token"`; a correctly signed
/// token with the same tricks in its header is served (the tricks are ignored, not followed).
@Suite("Abuse: tokens", .serialized, .offCooperativePool)
struct AbuseTokenTests {
    static func me(_ port: UInt16, _ token: String) async throws -> RawResponse {
        try await rawRequest(port: port, "GET /v1/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \(token)\r\n\r\n")
    }

    static func expectRefused(_ response: RawResponse, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 401, "\(name): \(response.status)", sourceLocation: sourceLocation)
        #expect(response.headers["www-authenticate"] == #"Bearer error="invalid_token""#, "\(name)", sourceLocation: sourceLocation)
        #expect(response.text.contains(#""error":"invalid_token""#), "\(name): \(response.text)", sourceLocation: sourceLocation)
    }

    static func b64(_ data: Data) -> String { data.base64URLEncodedString() }
    static func b64(_ json: [String: Any]) throws -> String { b64(try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])) }

    /// The fixture's signing key (stored unencrypted in tests).
    static func privateKey(_ f: ServiceFixture, kid: String) throws -> P256.Signing.PrivateKey {
        let record = try #require(try f.test.database.signingKeys().first { $0.kid == kid })
        let der = try #require(Data(base64URLEncoded: record.privateKey.dropFirst("pkcs8:".count)))
        return try P256.Signing.PrivateKey(derRepresentation: der)
    }

    static func signed(_ claims: [String: Any], kid: String?, key: P256.Signing.PrivateKey, typ: String = "at+jwt",
                       extra: [String: JSONValue] = [:]) throws -> String {
        let header = JWSHeader(alg: .ES256, kid: kid, typ: typ, additional: extra)
        return try JWS.sign(payload: try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]),
                            header: header, key: .p256(key))
    }

    @Test func forgedAndMisusedTokensAre401InvalidToken() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        let real = try await f.login().tokens().accessToken
        let pieces = real.split(separator: ".").map(String.init)
        let payload = try #require(Data(base64URLEncoded: pieces[1]))
        let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        let kid = try f.service.keyRing.activeKeyID
        let key = try Self.privateKey(f, kid: kid)
        let now = f.clock.seconds

        // A server that counts fetches: jku / x5u must never be followed.
        let fetches = Locked(0)
        let lure = [Route("GET", "/keys") { _ in fetches.withLock { $0 += 1 }; return .json(["keys": [String]()]) }]
        try await withTestServer(routes: lure) { lureServer in
            let lureURL = "http://127.0.0.1:\(lureServer.port)/keys"
            try await withTestServer(routes: f.service.routes()) { server in
                let port = server.port
                // Positive controls: the real token, and our own key re-signing the same claims with jku/x5u added.
                #expect(try await Self.me(port, real).status == 200)
                let withLure = try Self.signed(claims, kid: kid, key: key,
                                               extra: ["jku": .string(lureURL), "x5u": .string(lureURL)])
                #expect(try await Self.me(port, withLure).status == 200, "jku/x5u are ignored, the token is verified with our key")

                let attacker = P256.Signing.PrivateKey()
                let publicJWKJSON = await f.request("GET", "/.well-known/jwks.json").body
                let publicDER = key.publicKey.derRepresentation
                let publicX963 = key.publicKey.x963Representation
                func hs256(secret: Data) throws -> String {
                    let input = try Self.b64(["alg": "HS256", "kid": kid, "typ": "at+jwt"]) + "." + pieces[1]
                    let mac = Data(HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: secret)))
                    return input + "." + Self.b64(mac)
                }
                func with(_ change: (inout [String: Any]) -> Void) throws -> String {
                    var copy = claims
                    change(&copy)
                    return try Self.signed(copy, kid: kid, key: key)
                }
                let cases: [(String, String)] = [
                    ("alg none, no signature", try Self.b64(["alg": "none", "kid": kid, "typ": "at+jwt"]) + "." + pieces[1] + "."),
                    ("alg none, original signature", try Self.b64(["alg": "none", "kid": kid, "typ": "at+jwt"]) + "." + pieces[1] + "." + pieces[2]),
                    ("alg NONE (case)", try Self.b64(["alg": "NONE", "kid": kid, "typ": "at+jwt"]) + "." + pieces[1] + "."),
                    ("HS256, secret = public JWK JSON", try hs256(secret: publicJWKJSON)),
                    ("HS256, secret = public key DER", try hs256(secret: publicDER)),
                    ("HS256, secret = public key X9.63 point", try hs256(secret: publicX963)),
                    ("kid path traversal", try Self.signed(claims, kid: "../../../../etc/passwd", key: key)),
                    ("kid SQL injection", try Self.signed(claims, kid: "x' OR '1'='1", key: key)),
                    ("kid SQL statement", try Self.signed(claims, kid: "x'; DROP TABLE signing_keys; --", key: key)),
                    ("kid NUL byte", try Self.signed(claims, kid: "\(kid)\u{0}", key: key)),
                    ("no kid", try Self.signed(claims, kid: nil, key: key)),
                    ("attacker key, jku to attacker keys", try Self.signed(claims, kid: "attacker", key: attacker,
                                                                            extra: ["jku": .string(lureURL)])),
                    ("attacker key, our kid, x5u", try Self.signed(claims, kid: kid, key: attacker, extra: ["x5u": .string(lureURL)])),
                    ("attacker key, embedded jwk", try Self.signed(claims, kid: kid, key: attacker,
                                                                   extra: ["jwk": .object(["kty": .string("EC")])])),
                    ("expired an hour ago", try with { $0["exp"] = now - 3600; $0["iat"] = now - 4500 }),
                    ("not yet valid (nbf in an hour)", try with { $0["nbf"] = now + 3600 }),
                    ("issued in an hour", try with { $0["iat"] = now + 3600; $0["exp"] = now + 4500 }),
                    ("no exp", try with { $0["exp"] = nil }),
                    ("wrong aud", try with { $0["aud"] = "someone-else" }),
                    ("wrong iss", try with { $0["iss"] = "https://evil.example" }),
                    ("iss with a trailing slash", try with { $0["iss"] = (claims["iss"] as? String ?? "") + "/" }),
                    ("typ JWT (an ID token)", try Self.signed(claims, kid: kid, key: key, typ: "JWT")),
                ]
                for (name, token) in cases {
                    Self.expectRefused(try await Self.me(port, token), name)
                }
                #expect(fetches.withLock { $0 } == 0, "jku/x5u were fetched")
                // The injected kids harmed nothing: the real token still works.
                #expect(try await Self.me(port, real).status == 200)
                print("abuse-figure tokens: \(cases.count) forged tokens → 401 invalid_token; jku/x5u fetches \(fetches.withLock { $0 })")
            }
        }
    }

    @Test func aRetiredKeyIsRefusedAfterTheOverlapWindow() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await f.createAlice()
        let real = try await f.login().tokens().accessToken
        let payload = try #require(Data(base64URLEncoded: real.split(separator: ".")[1]))
        let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        let oldKID = try f.service.keyRing.activeKeyID
        let oldKey = try Self.privateKey(f, kid: oldKID)
        try f.service.keyRing.rotate()
        let overlap = f.service.configuration.accessTokenLifetime + f.service.configuration.clockSkew
        try await withTestServer(routes: f.service.routes()) { server in
            // Within the overlap, a token of the retired key still works.
            #expect(try await Self.me(server.port, real).status == 200)
            f.clock.advance(by: TimeInterval(overlap + 1))
            // After it, even a fresh-looking token signed by the retired key is refused.
            var fresh = claims
            let now = f.clock.seconds
            fresh["iat"] = now; fresh["exp"] = now + 600
            Self.expectRefused(try await Self.me(server.port, try Self.signed(fresh, kid: oldKID, key: oldKey)), "retired key")
            Self.expectRefused(try await Self.me(server.port, real), "old token")
        }
    }
}

/// Tokens naming made-up `kid`s must not turn every request into a read of the signing keys.
@Suite("Abuse: unknown kid reloads", .offCooperativePool)
struct UnknownKeyIDReloadTests {
    /// A `Database` that counts the autocommit reads (the key ring reads its keys through `withConnection`).
    final class CountingDatabase: Database {
        let base: any Database
        let reads = Locked(0)
        init(_ base: any Database) { self.base = base }
        var dialect: SQLDialect { base.dialect }
        func transaction<T: Sendable>(durability: TransactionDurability, _ body: (any SQLConnection) throws -> T) throws -> T {
            try base.transaction(durability: durability, body)
        }
        func withConnection<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
            reads.withLock { $0 += 1 }
            return try base.withConnection(body)
        }
    }

    @Test func unknownKIDsReloadTheKeysAtMostOncePerSecond() throws {
        let test = try #require(try makeTestDatabase(.sqlite))
        defer { test.cleanup() }
        let database = CountingDatabase(test.database)
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let ring = try SigningKeyRing(database: database, clock: clock, accessTokenLifetime: 900, clockSkew: 60,
                                      rotationInterval: 86_400)
        let before = database.reads.withLock { $0 }
        for i in 0..<200 {
            _ = try ring.verifier(issuer: "https://issuer", audience: "app", leeway: 60, forKID: "made-up-\(i)")
        }
        #expect(database.reads.withLock { $0 } - before == 1, "200 unknown kids in one second: one reload")
        clock.advance(by: 1)
        _ = try ring.verifier(issuer: "https://issuer", audience: "app", leeway: 60, forKID: "made-up-again")
        #expect(database.reads.withLock { $0 } - before == 2, "a second later an unknown kid reloads again")
        // A key made by another instance is found through that reload.
        let other = try SigningKeyRing(database: test.openAnother(), clock: clock, accessTokenLifetime: 900, clockSkew: 60,
                                       rotationInterval: 86_400)
        try other.rotate()
        let newKID = try other.activeKeyID
        clock.advance(by: 1)
        _ = try ring.verifier(issuer: "https://issuer", audience: "app", leeway: 60, forKID: newKID)
        #expect(try ring.publishedKeySet().keys.contains { $0.kid == newKID })
    }
}
