import Foundation
import LatchkeyTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LatchkeyServer
import LatchkeySupport
import Testing

@Suite("HTTP server", .serialized, .offCooperativePool)
struct HTTPServerTests {
    static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        return URLSession(configuration: configuration)
    }

    @Test func healthzAnswersOK() async throws {
        try await withTestServer { server in
            #expect(server.port != 0)
            let url = try #require(URL(string: "\(server.baseURL)/healthz"))
            let (data, response) = try await Self.session().data(from: url)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(http.value(forHTTPHeaderField: "Cache-Control") == "no-store")
            #expect(http.value(forHTTPHeaderField: "X-Content-Type-Options") == "nosniff")
            #expect(String(decoding: data, as: UTF8.self) == #"{"status":"ok"}"#)
        }
    }

    @Test func jsonRoundTripThroughURLSession() async throws {
        try await withTestServer { server in
            var request = URLRequest(url: try #require(URL(string: "\(server.baseURL)/v1/echo")))
            request.httpMethod = "POST"
            request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
            let sent = EchoMessage(name: "김하늘 \"quoted\"", count: 42)
            request.httpBody = try JSONEncoder().encode(sent)
            let (data, response) = try await Self.session().data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try JSONDecoder().decode(EchoMessage.self, from: data) == sent)
        }
    }

    @Test func routesWithPathParametersAndQuery() async throws {
        try await withTestServer { server in
            let url = try #require(URL(string: "\(server.baseURL)/v1/items/abc-123?x=1"))
            let (data, response) = try await Self.session().data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try JSONDecoder().decode([String: String].self, from: data) == ["id": "abc-123"])
            let deleted = try await rawRequest(port: server.port,
                                               "DELETE /v1/items/abc HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(deleted.status == 204)
        }
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() async throws {
        try await withTestServer { server in
            let missing = try await rawRequest(port: server.port, "GET /v1/nothing HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(missing.status == 404)
            #expect(missing.text.contains(#""error":"not_found""#))
            let wrong = try await rawRequest(port: server.port, "PUT /v1/items/7 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
            #expect(wrong.status == 405)
            #expect(wrong.headers["allow"] == "GET, DELETE, HEAD")
            let wrongHealth = try await rawRequest(port: server.port, "POST /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
            #expect(wrongHealth.status == 405)
            #expect(wrongHealth.headers["allow"] == "GET, HEAD")
        }
    }

    @Test func wrongContentTypeIs415() async throws {
        try await withTestServer { server in
            let body = #"{"name":"a","count":1}"#
            let response = try await rawRequest(port: server.port,
                "POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(response.status == 415)
            let error = try response.bodyJSON(HTTPErrorBody.self)
            #expect(error.error == "invalid_request")
            let form = try await rawRequest(port: server.port,
                "POST /v1/form HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
            #expect(form.status == 415)
        }
    }

    @Test func malformedJSONIs400WithErrorBody() async throws {
        try await withTestServer { server in
            for body in [#"{"name":"a","count":"#, #"{"name":"a"}"#, #"{"name":1,"count":1}"#, "", "[]"] {
                let response = try await rawRequest(port: server.port,
                    "POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                #expect(response.status == 400, "body: \(body)")
                let error = try response.bodyJSON(HTTPErrorBody.self)
                #expect(error.error == "invalid_request")
                #expect(error.errorDescription?.isEmpty == false)
            }
        }
    }

    @Test func formBodiesDecodeAndRejectRepeatedParameters() async throws {
        try await withTestServer { server in
            let good = "grant_type=refresh_token&refresh_token=a%2Bb+c"
            let ok = try await rawRequest(port: server.port,
                "POST /v1/form HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(good.utf8.count)\r\n\r\n\(good)")
            #expect(ok.status == 200)
            #expect(try ok.bodyJSON([String: String].self) == ["grant_type": "refresh_token", "refresh_token": "a+b c"])
            let repeated = "a=1&a=2"
            let bad = try await rawRequest(port: server.port,
                "POST /v1/form HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(repeated.utf8.count)\r\n\r\n\(repeated)")
            #expect(bad.status == 400)
        }
    }

    @Test func htmlGetsStrictSecurityHeaders() async throws {
        try await withTestServer { server in
            let page = try await rawRequest(port: server.port, "GET /page HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(page.status == 200)
            #expect(page.headers["content-security-policy"] == SecurityHeaders.htmlPolicy)
            #expect(page.headers["x-frame-options"] == "DENY")
            #expect(page.headers["x-content-type-options"] == "nosniff")
        }
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        try await withTestServer { server in
            let port = server.port
            let statuses = try await onThread { () -> [Int] in
                let connection = try RawConnection(port: port)
                var statuses: [Int] = []
                try connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                let first = try connection.readResponse()
                statuses.append(first.status)
                if first.headers["connection"]?.lowercased() == "close" { statuses.append(-1) }
                let body = #"{"name":"n","count":2}"#
                try connection.send("POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                statuses.append(try connection.readResponse().status)
                try connection.send("GET /v1/slow?ms=10 HTTP/1.1\r\nHost: t\r\n\r\n")
                statuses.append(try connection.readResponse().status)
                try connection.send("GET /v1/items/9 HTTP/1.1\r\nHost: t\r\n\r\n")
                statuses.append(try connection.readResponse().status)
                return statuses
            }
            #expect(statuses == [200, 200, 200, 200])
        }
    }

    @Test func manyConcurrentClientsAreAllServed() async throws {
        try await withTestServer({ $0.threads = 4 }) { server in
            let port = server.port
            let results = try await withThrowingTaskGroup(of: [Int].self) { group in
                for client in 0..<32 {
                    group.addTask {
                        try await onThread {
                            let connection = try RawConnection(port: port)
                            var statuses: [Int] = []
                            for index in 0..<50 {
                                let path = index % 2 == 0 ? "/healthz" : "/v1/items/\(client)-\(index)"
                                try connection.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
                                let response = try connection.readResponse()
                                statuses.append(response.status)
                                if index % 2 == 1, response.text != #"{"id":"\#(client)-\#(index)"}"# { statuses.append(-1) }
                            }
                            return statuses
                        }
                    }
                }
                var all: [Int] = []
                for try await statuses in group { all += statuses }
                return all
            }
            #expect(results.count == 32 * 50)
            #expect(results.allSatisfy { $0 == 200 })
        }
    }

    @Test func accessLogHasNoQueryStringHeadersOrBody() async throws {
        let lines = LogCollector()
        try await withTestServer({ $0.accessLog = AccessLog { lines.append($0.line) } }) { server in
            _ = try await rawRequest(port: server.port,
                "GET /healthz?access_token=SECRETQUERY HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer SECRETHEADER\r\n\r\n")
            let body = #"{"name":"SECRETBODY","count":1}"#
            _ = try await rawRequest(port: server.port,
                "POST /v1/echo?code=SECRETCODE HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        }
        let logged = lines.lines
        #expect(logged.count == 2)
        let text = logged.joined(separator: "\n")
        #expect(!text.contains("SECRET"))
        #expect(!text.contains("?"))
        #expect(logged.first?.contains(#"method=GET path="/healthz" status=200 bytes=15"#) == true)
        #expect(logged.last?.contains(#"method=POST path="/v1/echo" status=200"#) == true)
        #expect(logged.allSatisfy { $0.contains("remote=127.0.0.1") && $0.contains("duration_us=") && $0.hasPrefix("time=") })
    }

    @Test func startErrors() async throws {
        let bad = HTTPServer(configuration: HTTPServerConfiguration(host: "localhost.invalid", port: 0, accessLog: nil),
                             router: Router([]))
        #expect(throws: HTTPServerError.invalidAddress("localhost.invalid")) { try bad.start() }
        try await withTestServer { server in
            #expect(throws: HTTPServerError.alreadyStarted) { try server.start() }
            let clash = HTTPServer(configuration: HTTPServerConfiguration(port: server.port, accessLog: nil),
                                   router: Router([]))
            #expect(throws: HTTPServerError.self) { try clash.start() }
            #expect(HTTPServerError.startFailed.errorDescription?.isEmpty == false)
        }
    }
}

/// Collects access-log lines from the server's threads.
final class LogCollector: Sendable {
    let storage = Locked<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}

extension RawResponse {
    func bodyJSON<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: body) }
}

@Suite("HTTP server two-phase start", .serialized, .offCooperativePool)
struct HTTPServerBindTests {
    @Test func bindFirstThenStartWithARouter() async throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 1, accessLog: nil))
        #expect(throws: HTTPServerError.invalidConfiguration("no router or handler")) { try server.start() }
        try server.bind()
        let port = server.port
        #expect(port != 0)
        #expect(server.baseURL == "http://127.0.0.1:\(port)")
        try server.start(router: Router([Route("GET", "/where") { _ in .json(["port": port]) }]))
        #expect(server.port == port)
        let response = try await rawRequest(port: port, "GET /where HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try response.bodyJSON([String: UInt16].self) == ["port": port])
        await server.shutdown()
    }

    @Test func boundButNeverStartedReleasesThePort() async throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, accessLog: nil))
        try server.bind()
        let port = server.port
        await server.shutdown()
        let again = HTTPServer(configuration: HTTPServerConfiguration(port: port, accessLog: nil), router: Router([]))
        try again.start()
        #expect(again.port == port)
        await again.shutdown()
    }
}

actor CounterActor {
    var value = 0
    func next() -> Int {
        value += 1
        return value
    }
}

@Suite("HTTP handler execution", .serialized, .offCooperativePool)
struct HTTPHandlerExecutionTests {
    static func routes(counter: CounterActor) -> [Route] {
        [
            Route("GET", "/plain/:n") { .json(["n": $0.pathParameters["n"] ?? ""]) },
            Route("GET", "/actor/:n") { request in
                _ = await counter.next()
                return .json(["n": request.pathParameters["n"] ?? ""])
            },
            Route("GET", "/offload/:n") { request in
                let n = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) {
                        continuation.resume(returning: request.pathParameters["n"] ?? "")
                    }
                }
                return .json(["n": n])
            },
            Route("GET", "/sleep/:n") { request in
                try? await Task.sleep(for: .milliseconds(1))
                return .json(["n": request.pathParameters["n"] ?? ""])
            },
        ]
    }

    @Test(arguments: [true, false])
    func suspendingAndNonSuspendingHandlersAnswerCorrectly(inline: Bool) async throws {
        let counter = CounterActor()
        try await withTestServer({ $0.runsHandlersInline = inline; $0.threads = 2 },
                                 routes: Self.routes(counter: counter)) { server in
            let port = server.port
            let kinds = ["plain", "actor", "offload", "sleep"]
            let failures = try await withThrowingTaskGroup(of: Int.self) { group in
                for client in 0..<16 {
                    group.addTask {
                        try await onThread {
                            let connection = try RawConnection(port: port)
                            var failures = 0
                            for index in 0..<20 {
                                let tag = "\(client)x\(index)"
                                try connection.send("GET /\(kinds[index % 4])/\(tag) HTTP/1.1\r\nHost: t\r\n\r\n")
                                let response = try connection.readResponse()
                                if response.status != 200 || response.text != #"{"n":"\#(tag)"}"# { failures += 1 }
                            }
                            return failures
                        }
                    }
                }
                var total = 0
                for try await failures in group { total += failures }
                return total
            }
            #expect(failures == 0)
            #expect(await counter.value == 16 * 5)
        }
    }

    /// A handler that takes longer than the connection timeout (a slow query; handlers starved of threads on a loaded
    /// machine): its connection is suspended meanwhile, so it is answered, and the connection then serves the next
    /// request on it.
    @Test(arguments: [true, false])
    func aHandlerSlowerThanTheConnectionTimeoutIsStillAnswered(inline: Bool) async throws {
        let routes = [Route("GET", "/slow") { _ in
            try? await Task.sleep(for: .seconds(2))
            return .json(["answer": "late"])
        }]
        try await withTestServer({ $0.runsHandlersInline = inline; $0.connectionTimeout = 1 }, routes: routes) { server in
            let port = server.port
            let answers = try await onThread { () -> [RawResponse] in
                let connection = try RawConnection(port: port)
                try connection.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
                let first = try connection.readResponse()
                try connection.send("GET /slow HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                return [first, try connection.readResponse()]
            }
            #expect(answers.map(\.status) == [200, 200])
            #expect(answers.allSatisfy { $0.text == #"{"answer":"late"}"# })
        }
    }
}
