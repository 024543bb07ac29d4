import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// Every parser of request data works on bytes, not on Swift's grapheme clusters (a `/`, `,`, `.`, ` ` or `&` followed
/// by a combining mark is one `Character` with it, so `String.split` would not split there). One test per parser; the
/// form parser's is in HTTPFormDecodingTests.
@Suite(.offCooperativePool) struct HTTPRequestBytesTests {
    static let echo = Router([
        Route("GET", "/v1/passkeys") { _ in .json(["list": "yes"]) },
        Route("DELETE", "/v1/passkeys/:id") { .json(["id": $0.pathParameters["id"] ?? "?"]) },
        Route("GET", "/K") { _ in .json(["literal": "K"]) },
        Route("GET", "/") { _ in .json(["root": "yes"]) },
    ])

    /// Alice's access token (the account is created first).
    static func accessToken(_ fixture: ServiceFixture) async throws -> String {
        try await fixture.createAlice()
        return try await fixture.login().tokens().accessToken
    }

    static func route(_ method: String, _ path: String) async -> (status: Int, body: [String: String]) {
        let response = await echo.handle(HTTPRequest(method: method, path: path))
        return (response.status, (try? response.decodeJSON([String: String].self)) ?? [:])
    }

    /// A segment is what lies between two `/` bytes, percent-decoded after the split.
    @Test func pathSegmentsAreSplitOnSlashBytesThenDecoded() async {
        #expect(PercentEncoding.pathSegments("/v1/passkeys/%CC%81") == ["v1", "passkeys", "\u{301}"])
        #expect(PercentEncoding.pathSegments("/v1/passkeys/\u{301}") == ["v1", "passkeys", "\u{301}"])
        #expect(PercentEncoding.pathSegments("/v1/passkeys/a/%CC%81") == ["v1", "passkeys", "a", "\u{301}"])
        #expect(PercentEncoding.pathSegments("/a%2Fb") == ["a/b"])
        #expect(PercentEncoding.pathSegments("/") == [""])
        #expect(PercentEncoding.pathSegments("/a//b/") == ["a", "", "b", ""])
        #expect(PercentEncoding.pathSegments("/a+b") == ["a+b"])
        for bad in ["", "v1/passkeys", "*", "/%", "/%zz", "/%C3%28", "/a%00b", "/%FF"] {
            #expect(PercentEncoding.pathSegments(bad) == nil, "\(bad)")
        }
    }

    /// The two paths of issue 28: a combining mark after `/` starts a segment of its own.
    @Test func theRouterMatchesByteSegments() async {
        #expect(await Self.route("DELETE", "/v1/passkeys/%CC%81").body == ["id": "\u{301}"])
        #expect(await Self.route("DELETE", "/v1/passkeys/\u{301}").body == ["id": "\u{301}"])
        #expect(await Self.route("DELETE", "/v1/passkeys/a/%CC%81").status == 404)
        #expect(await Self.route("DELETE", "/v1/passkeys/a%2Fb").body == ["id": "a/b"])
        // Literal segments match byte for byte: U+212A KELVIN SIGN is canonically equivalent to `K` (Swift's `==`
        // says equal), but it is not the route.
        #expect(await Self.route("GET", "/K").status == 200)
        #expect(await Self.route("GET", "/%E2%84%AA").status == 404)
        #expect(await Self.route("GET", "/%4B").status == 200)
        // Empty segments are segments: a parameter never matches one, and `//`, a trailing `/` are other paths.
        #expect(await Self.route("DELETE", "/v1/passkeys/").status == 404)
        #expect(await Self.route("GET", "/v1/passkeys/").status == 404)
        #expect(await Self.route("GET", "//v1/passkeys").status == 404)
        #expect(await Self.route("GET", "/").body == ["root": "yes"])
        #expect(await Self.route("GET", "/%zz").status == 404)
    }

    /// Through the server: the raw target is split before libmicrohttpd's decoding could merge segments, the passkey
    /// route checks the token before it looks for the passkey, and a path that is not percent-encoded UTF-8 is 400.
    @Test func theServerRoutesRawTargetsAsByteSegments() async throws {
        guard let fixture = try await PasskeyEndpointFixture.make() else { return }
        try await withTestServer(routes: fixture.base.service.routes() + fixture.passkeys.routes()) { server in
            func send(_ method: String, _ target: String, bearer: String? = nil) async throws -> RawResponse {
                let authorization = bearer.map { "Authorization: Bearer \($0)\r\n" } ?? ""
                return try await rawRequest(port: server.port,
                                            "\(method) \(target) HTTP/1.1\r\nHost: t\r\n\(authorization)Connection: close\r\n\r\n")
            }
            let noToken = try await send("DELETE", "/v1/passkeys/%CC%81")
            #expect(noToken.status == 401 && noToken.text.contains("invalid_token"), "\(noToken.status) \(noToken.text)")
            #expect(try await send("DELETE", "/v1/passkeys/a/%CC%81").status == 404)
            let token = try await Self.accessToken(fixture.base)
            let mine = try await send("DELETE", "/v1/passkeys/%CC%81", bearer: token)
            #expect(mine.status == 404 && mine.text.contains("not_found"), "\(mine.status) \(mine.text)")
            #expect(try await send("PATCH", "/v1/passkeys/a%2Fb", bearer: token).status == 415)
            for bad in ["/v1/passkeys/%zz", "/v1/passkeys/%C3%28", "/v1/passkeys/a%00b", "/healthz%"] {
                let answer = try await send("DELETE", bad)
                #expect(answer.status == 400 && answer.text.contains("percent-encoded"), "\(bad): \(answer.status) \(answer.text)")
            }
            #expect(try await send("GET", "/healthz").status == 200)
            #expect(try await send("GET", "/health%7A").status == 200)
        }
    }

    /// X-Forwarded-For from a trusted proxy: entries split at `,` bytes, the rightmost checked byte by byte (ASCII hex
    /// digits, `.` and `:` only — `Character.isHexDigit` also takes fullwidth digits).
    @Test func forwardedForIsSplitAndCheckedOnBytes() {
        var configuration = HTTPServerConfiguration(port: 0)
        configuration.trustedProxies = ["10.0.0.5"]
        let core = ServerCore(dispatch: nil, configuration: configuration)
        #expect(core.clientAddress(peer: "10.0.0.5", forwardedFor: "203.0.113.9, 198.51.100.7") == "198.51.100.7")
        #expect(core.clientAddress(peer: "10.0.0.5", forwardedFor: "203.0.113.9,\u{301}198.51.100.7") == "10.0.0.5")
        #expect(core.clientAddress(peer: "10.0.0.5", forwardedFor: "203.0.113.9,\t2001:db8::1 ") == "2001:db8::1")
        #expect(core.clientAddress(peer: "10.0.0.5", forwardedFor: "１９８.５１.１００.７") == "10.0.0.5")
        #expect(core.clientAddress(peer: "10.0.0.5", forwardedFor: "203.0.113.9,") == "10.0.0.5")
        #expect(core.clientAddress(peer: "10.9.9.9", forwardedFor: "198.51.100.7") == "10.9.9.9")
    }

    /// `Authorization: Bearer <token>`: the scheme ends at the first space byte.
    @Test func bearerTokensAreSplitAtTheSpaceByte() {
        #expect(AuthService.bearerToken("Bearer abc.def") == "abc.def")
        #expect(AuthService.bearerToken("bEaReR   abc ") == "abc")
        #expect(AuthService.bearerToken("Bearer \u{301}abc") == "\u{301}abc")
        #expect(AuthService.bearerToken("Bearer\u{301} abc") == nil)
        #expect(AuthService.bearerToken("Bearer") == nil)
        #expect(AuthService.bearerToken("Bearer   ") == nil)
        #expect(AuthService.bearerToken("Basic abc") == nil)
    }

    /// Access tokens are split at `.` bytes, and the signing input is exactly the bytes before the second one.
    @Test func accessTokensAreSplitAtDotBytes() async throws {
        guard let fixture = try await ServiceFixture.make(.sqlite) else { return }
        let token = try await Self.accessToken(fixture)
        let parts = try #require(AccessTokenCodec.split(token))
        let dots = token.utf8.enumerated().filter { $0.element == UInt8(ascii: ".") }.map(\.offset)
        #expect(Array(parts.signingInput.utf8) == Array(token.utf8.prefix(dots[1])))
        let pieces = token.split(separator: ".").map(String.init)
        #expect(AccessTokenCodec.split(pieces[0] + ".\u{301}" + pieces[1] + "." + pieces[2]) == nil)
        #expect(AccessTokenCodec.split(pieces[0] + "." + pieces[1]) == nil)
    }

    /// Scope strings are split at space bytes.
    @Test func scopesAreSplitAtSpaceBytes() {
        #expect(AuthService.scopeItems("openid  profile") == ["openid", "profile"])
        #expect(AuthService.scopeItems("openid \u{301}profile") == ["openid", "\u{301}profile"])
        #expect(AuthService.scopeItems("") == [])
    }

    /// Transports from a registration response are kept only as short lowercase tokens (a `,` would split one in the
    /// comma-joined column), and the column is split at `,` bytes when read back.
    @Test func transportsSurviveTheDatabaseAsSent() async throws {
        #expect(WebAuthnRelyingParty.storableTransports(["usb", "\u{301}nfc", "a,b", "", "internal", "usb", "Hybrid",
                                                         String(repeating: "x", count: 33), "smart-card"])
                == ["usb", "internal", "smart-card"])
        guard let fixture = try await PasskeyEndpointFixture.make() else { return }
        let authenticator = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore())
        let options = await fixture.request("POST", "/v1/passkeys/register/options", body: fixture.json(["username": "transports"]))
        let envelope = try JSONDecoder().decode(OptionsEnvelopeForTests<PublicKeyCredentialCreationOptions>.self, from: options.body)
        var credential = try authenticator.register(envelope.publicKey, origin: PasskeyEndpointFixture.origin)
        credential.response.transports = ["hybrid", ",\u{301}usb", "internal"]
        let verified = await fixture.request("POST", "/v1/passkeys/register/verify", body: try JSONEncoder().encode(credential))
        #expect(verified.status == 201, "\(verified.bodyText)")
        let token = try #require(verified.object["access_token"] as? String)
        let list = await fixture.request("GET", "/v1/passkeys", bearer: token)
        let passkeys = try #require(list.object["passkeys"] as? [[String: Any]])
        #expect(passkeys.first?["transports"] as? [String] == ["hybrid", "internal"])
    }
}
