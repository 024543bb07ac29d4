import Foundation
import LatchkeyTestSupport
import LatchkeyServer
import Testing

@Suite("HTTP router and JSON helpers", .offCooperativePool)
struct HTTPRouterTests {
    let router = Router([
        Route("GET", "/v1/passkeys/:id") { .json(["id": $0.pathParameters["id"] ?? ""]) },
        Route("DELETE", "/v1/passkeys/:id") { _ in HTTPResponse(status: 204) },
        Route("GET", "/v1/passkeys") { _ in .json([String]()) },
        Route("GET", "/v1/users/:user/keys/:key") { .json($0.pathParameters) },
    ])

    @Test func matchesLiteralAndParameterSegments() async throws {
        let one = await router.handle(HTTPRequest(method: "GET", path: "/v1/passkeys/abc"))
        #expect(try one.decodeJSON([String: String].self) == ["id": "abc"])
        #expect(await router.handle(HTTPRequest(method: "GET", path: "/v1/passkeys")).status == 200)
        // A trailing `/` is one more (empty) segment: another path (HTTPRequestBytesTests has the rules).
        #expect(await router.handle(HTTPRequest(method: "GET", path: "/v1/passkeys/")).status == 404)
        let nested = await router.handle(HTTPRequest(method: "GET", path: "/v1/users/u1/keys/k2"))
        #expect(try nested.decodeJSON([String: String].self) == ["user": "u1", "key": "k2"])
        #expect(await router.handle(HTTPRequest(method: "DELETE", path: "/v1/passkeys/abc")).status == 204)
    }

    @Test func unknownPathsAre404() async {
        #expect(await router.handle(HTTPRequest(method: "GET", path: "/v1/passkeys/a/b")).status == 404)
        #expect(await router.handle(HTTPRequest(method: "GET", path: "/")).status == 404)
        #expect(await router.handle(HTTPRequest(method: "GET", path: "/v2/passkeys")).status == 404)
    }

    @Test func otherMethodsAre405WithAllow() async {
        let response = await router.handle(HTTPRequest(method: "POST", path: "/v1/passkeys/x"))
        #expect(response.status == 405)
        #expect(response.header("allow") == "GET, DELETE, HEAD")
    }

    @Test func headFallsBackToGetAndHealthIsBuiltIn() async throws {
        #expect(await router.handle(HTTPRequest(method: "HEAD", path: "/v1/passkeys")).status == 200)
        let health = await router.handle(HTTPRequest(method: "GET", path: "/healthz"))
        #expect(health.status == 200)
        #expect(String(decoding: health.body, as: UTF8.self) == #"{"status":"ok"}"#)
        #expect(router.routeTable.contains { $0.method == "GET" && $0.path == "/healthz" })
        #expect(await Router([], synchronous: []).handle(HTTPRequest(method: "GET", path: "/healthz")).status == 404)
    }

    @Test func decodeJSONErrorsAreTyped() {
        struct Body: Decodable { var name: String }
        let wrongType = HTTPRequest(method: "POST", path: "/", headers: ["Content-Type": "text/plain"], body: Data("{}".utf8))
        #expect(throws: HTTPRequestError.unsupportedMediaType(expected: "application/json")) { try wrongType.decodeJSON(Body.self) }
        let missing = HTTPRequest(method: "POST", path: "/", headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        #expect(throws: HTTPRequestError.malformedBody("The field 'name' is missing.")) { try missing.decodeJSON(Body.self) }
        do {
            _ = try missing.decodeJSON(Body.self)
        } catch {
            #expect(error.response.status == 400)
            #expect(error.errorDescription?.isEmpty == false)
        }
        let ok = HTTPRequest(method: "POST", path: "/", headers: ["content-type": "Application/JSON; charset=utf-8"],
                             body: Data(#"{"name":"x"}"#.utf8))
        #expect((try? ok.decodeJSON(Body.self))?.name == "x")
        #expect(HTTPRequestError.unsupportedMediaType(expected: "application/json").response.status == 415)
    }

    @Test func accessLogLinesEscapeHostilePaths() {
        let entry = AccessLogEntry(time: Date(timeIntervalSince1970: 0), method: "GET", path: "/a\"b\n c", status: 404,
                                   bytes: 3, durationMicroseconds: 7, remoteAddress: "127.0.0.1")
        #expect(entry.line == #"time=1970-01-01T00:00:00.000Z method=GET path="/a\"b\xa c" status=404 bytes=3 duration_us=7 remote=127.0.0.1"#)
    }

    @Test func jsonEncodingFailureIs500() {
        #expect(HTTPResponse.json(["x": Double.nan]).status == 500)
    }

    /// A literal segment beats a parameter: `/v1/sessions/revoke-others` is not also a session id.
    @Test func aLiteralPathIsNotAlsoAParametersResource() async {
        let router = Router([
            Route("DELETE", "/v1/sessions/:id") { request in HTTPResponse(status: 204, body: Data((request.pathParameters["id"] ?? "").utf8)) },
            Route("POST", "/v1/sessions/revoke-others") { _ in HTTPResponse(status: 200) },
        ])
        let other = await router.handle(HTTPRequest(method: "DELETE", path: "/v1/sessions/abc"))
        #expect(other.status == 204 && String(decoding: other.body, as: UTF8.self) == "abc")
        #expect(await router.handle(HTTPRequest(method: "POST", path: "/v1/sessions/revoke-others")).status == 200)
        let literal = await router.handle(HTTPRequest(method: "DELETE", path: "/v1/sessions/revoke-others"))
        #expect(literal.status == 405 && literal.header("Allow") == "POST")
        let unknown = await router.handle(HTTPRequest(method: "POST", path: "/v1/sessions/abc"))
        #expect(unknown.status == 405 && unknown.header("Allow") == "DELETE")
        // A literal route elsewhere does not shadow the parameter.
        let elsewhere = Router([Route("GET", "/a/:id") { _ in HTTPResponse(status: 200) }, Route("GET", "/b/x") { _ in HTTPResponse(status: 201) }])
        #expect(await elsewhere.handle(HTTPRequest(method: "GET", path: "/a/x")).status == 200)
    }
}
