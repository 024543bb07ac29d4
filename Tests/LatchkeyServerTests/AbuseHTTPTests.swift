import Foundation
import LatchkeyTestSupport
import LatchkeyServer
import Testing

/// Hostile clients against the real libmicrohttpd server on 127.0.0.1 (issue 14, part 3): connection
/// floods and slow clients, malformed framing, header bombs, bytes that are not text, deep JSON.
/// Each case asserts the refusal and its status code, and that the server still answers afterwards.
@Suite("Abuse: HTTP", .serialized, .offCooperativePool)
struct AbuseHTTPTests {
    /// The status of the answer to `bytes` sent on a fresh connection, or 0 when the server closed it unanswered.
    static func status(port: UInt16, _ bytes: Data) async throws -> (status: Int, seconds: Double) {
        try await onThread {
            let started = Date()
            let connection = try RawConnection(port: port, receiveTimeoutSeconds: 20)
            try? connection.send(bytes)
            let status = (try? connection.readResponse().status) ?? 0
            return (status, Date().timeIntervalSince(started))
        }
    }

    static func healthz(_ port: UInt16, from source: String? = nil) async throws -> Int {
        try await rawRequest(port: port, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", sourceAddress: source).status
    }

    @Test func connectionFloodAboveThePerAddressLimitIsRefusedWhileOthersAreServed() async throws {
        try await withTestServer({ $0.perIPConnectionLimit = 4; $0.connectionTimeout = 30 }) { server in
            let port = server.port
            let flood = try await onThread { () -> (held: Int, refused: Int, slowestRefusal: Double, healthz: Int) in
                var connections: [RawConnection] = []
                var refused = 0
                var slowest = 0.0
                for _ in 0..<24 {
                    let started = Date()
                    let connection = try RawConnection(port: port, receiveTimeoutSeconds: 1)
                    try? connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ")
                    if connection.waitForClose() {
                        refused += 1
                        slowest = max(slowest, Date().timeIntervalSince(started))
                    } else {
                        connections.append(connection)
                    }
                }
                // Another client (127.0.0.2 is loopback too) is served while the flood holds its slots.
                let other = try RawConnection(port: port, sourceAddress: "127.0.0.2")
                try other.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                let status = try other.readResponse().status
                return (connections.count, refused, slowest, status)
            }
            #expect(flood.held == 4)
            #expect(flood.refused == 20)
            // Refused at once, not left to the 30 s inactivity timeout.
            #expect(flood.slowestRefusal < 5, "slowest refusal \(flood.slowestRefusal) s")
            #expect(flood.healthz == 200)
            print("abuse-figure per-address flood: 24 connections, 4 held, 20 refused, slowest refusal \(String(format: "%.3f", flood.slowestRefusal)) s")
            // The server notices the closed flood connections on its next poll: allow it a moment.
            var again = 0
            for _ in 0..<50 where again != 200 {
                again = (try? await Self.healthz(port)) ?? 0
                if again != 200 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(again == 200, "the flooding address is served again once its connections close")
        }
    }

    @Test func connectionsAboveTheServerLimitAreRefusedFastWhileHealthzIsAnswered() async throws {
        // 4 stalled clients fill the server-wide limit; the next connections land in the overflow slots and
        // are answered at once: 503 with Retry-After and Connection: close, while /healthz still gets 200.
        try await withTestServer({ $0.connectionLimit = 4; $0.overflowConnections = 8; $0.perIPConnectionLimit = 0
                                   $0.connectionTimeout = 5 }) { server in
            let port = server.port
            let outcome = try await onThread { () -> (statuses: [Int], slowest: Double, retryAfter: String?, closes: Bool, healthz: Int) in
                var slow: [RawConnection] = []
                for _ in 0..<4 {
                    let connection = try RawConnection(port: port, receiveTimeoutSeconds: 10)
                    try connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ")
                    slow.append(connection)
                }
                usleep(200_000) // the server has accepted all four
                var statuses: [Int] = []
                var slowest = 0.0
                var retryAfter: String?
                var closes = true
                for _ in 0..<6 {
                    let started = Date()
                    let over = try RawConnection(port: port, receiveTimeoutSeconds: 10)
                    try over.send("POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
                    let response = try over.readResponse()
                    slowest = max(slowest, Date().timeIntervalSince(started))
                    statuses.append(response.status)
                    retryAfter = response.headers["retry-after"]
                    closes = closes && response.headers["connection"]?.lowercased() == "close" && over.waitForClose()
                }
                let health = try RawConnection(port: port, receiveTimeoutSeconds: 10)
                try health.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                let healthz = try health.readResponse().status
                withExtendedLifetime(slow) {}
                return (statuses, slowest, retryAfter, closes, healthz)
            }
            #expect(outcome.statuses == Array(repeating: 503, count: 6))
            #expect(outcome.retryAfter == "1")
            #expect(outcome.closes, "an over-limit answer closes its connection")
            #expect(outcome.slowest < 2, "slowest refusal \(outcome.slowest) s")
            #expect(outcome.healthz == 200, "/healthz is answered over the limit")
            print("abuse-figure server-wide limit 4 (+8 overflow): 6 requests over the limit refused with 503 in at most \(String(format: "%.3f", outcome.slowest)) s; /healthz 200")
            #expect(try await Self.healthz(port) == 200)
        }
    }

    @Test func connectionsAboveLimitAndOverflowWaitAndAreServedOnceSlowClientsAreCutOff() async throws {
        // Past the limit and its overflow slots libmicrohttpd stops accepting: further connections wait in the
        // kernel's backlog (bounded memory) and are served as soon as the inactivity timeout frees a slot.
        try await withTestServer({ $0.connectionLimit = 4; $0.overflowConnections = 0; $0.perIPConnectionLimit = 0
                                   $0.connectionTimeout = 2 }) { server in
            let port = server.port
            let outcome = try await onThread { () -> (status: Int, seconds: Double, slowClosed: Int) in
                var slow: [RawConnection] = []
                for _ in 0..<8 {
                    let connection = try RawConnection(port: port, receiveTimeoutSeconds: 10)
                    try connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ")
                    slow.append(connection)
                }
                let started = Date()
                let waiting = try RawConnection(port: port, receiveTimeoutSeconds: 15)
                try waiting.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                let status = try waiting.readResponse().status
                let seconds = Date().timeIntervalSince(started)
                return (status, seconds, slow.filter { $0.waitForClose() }.count)
            }
            #expect(outcome.status == 200)
            #expect(outcome.slowClosed == 8, "every stalled client is cut off")
            #expect(outcome.seconds < 12, "served after \(outcome.seconds) s")
            print("abuse-figure server-wide limit 4: 8 stalled clients cut off, a waiting request served after \(String(format: "%.2f", outcome.seconds)) s")
            #expect(try await Self.healthz(port) == 200)
        }
    }

    static let json = "POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"

    /// Malformed requests and what the server must answer (never a crash, never a hang).
    static let malformed: [(name: String, bytes: Data, expected: Set<Int>)] = {
        var cases: [(String, Data, Set<Int>)] = []
        func add(_ name: String, _ text: String, _ expected: Set<Int>) { cases.append((name, Data(text.utf8), expected)) }
        add("chunk size not hex", json + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", [400])
        add("chunk size overflowing 64 bits", json + "Transfer-Encoding: chunked\r\n\r\n1000000000000000000000\r\n{}\r\n0\r\n\r\n", [400, 413])
        add("chunk longer than declared", json + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}{}{}\r\n0\r\n\r\n", [400])
        add("unknown transfer coding", json + "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", [400, 501])
        add("one 100 KB header", "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: " + String(repeating: "a", count: 100_000) + "\r\n\r\n", [431])
        add("5000 headers", "GET /healthz HTTP/1.1\r\nHost: t\r\n" + (0..<5000).map { "X-H\($0): v\r\n" }.joined() + "\r\n", [431])
        add("100 KB request target", "GET /healthz?" + String(repeating: "q", count: 100_000) + " HTTP/1.1\r\nHost: t\r\n\r\n", [414, 431])
        add("header without colon", "GET /healthz HTTP/1.1\r\nHost: t\r\nno colon here\r\n\r\n", [400])
        add("NUL in the body", json + "Content-Length: 14\r\n\r\n{\"name\":\"\u{0}\",\"c", [400])
        add("HTTP/9.9", "GET /healthz HTTP/9.9\r\nHost: t\r\n\r\n", [505])
        add("no Host in HTTP/1.1", "GET /healthz HTTP/1.1\r\n\r\n", [400])
        var badPath = Data("GET /v1/items/".utf8); badPath.append(contentsOf: [0xC3, 0x28, 0xFF]); badPath.append(Data(" HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        cases.append(("invalid UTF-8 in the path", badPath, [400]))
        var badBody = Data((json + "Content-Length: 17\r\n\r\n").utf8); badBody.append(Data("{\"name\":\"".utf8))
        badBody.append(contentsOf: [0xC3, 0x28, 0xFF, 0xFE]); badBody.append(Data("\",\"c".utf8))
        cases.append(("invalid UTF-8 in a JSON body", badBody, [400]))
        return cases
    }()

    @Test func malformedRequestsAreRefusedWithTheRightStatus() async throws {
        try await withTestServer({ $0.connectionTimeout = 5 }) { server in
            var figures: [String] = []
            for item in Self.malformed {
                let answer = try await Self.status(port: server.port, item.bytes)
                #expect(item.expected.contains(answer.status), "\(item.name): answered \(answer.status)")
                #expect(answer.seconds < 4.5, "\(item.name): \(answer.seconds) s (must be refused, not timed out)")
                figures.append("\(item.name) → \(answer.status) in \(String(format: "%.3f", answer.seconds)) s")
                #expect(try await Self.healthz(server.port) == 200, "after \(item.name)")
            }
            print("abuse-figure malformed:\n  " + figures.joined(separator: "\n  "))
        }
    }

    @Test func invalidUTF8InAHeaderValueIsNotAnError() async throws {
        // Header values are opaque bytes (RFC 9110 §5.5 obs-text): the server answers, and the value is not echoed.
        try await withTestServer { server in
            var request = Data("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Bytes: ".utf8)
            request.append(contentsOf: [0xC3, 0x28, 0xFF, 0x80])
            request.append(Data("\r\nConnection: close\r\n\r\n".utf8))
            let answer = try await Self.status(port: server.port, request)
            #expect(answer.status == 200 || answer.status == 400)
        }
    }

    @Test func nulBytesNeverReachTheApplication() async throws {
        // A NUL in the request target: libmicrohttpd hands the path over as a C string, so what follows the NUL
        // is cut off before the router sees it — the request is the prefix (never a crash, never a smuggled
        // suffix). A NUL in a header value: libmicrohttpd 0.9.75 ends the value there too and drops the rest of
        // that line (`X-A: a\0b` arrives as `a`; the next line is its own header); the server reads headers with
        // their real lengths, so a libmicrohttpd that passes the byte through gets a 400 instead.
        try await withTestServer { server in
            var built = Data("GET /v1/items/a".utf8); built.append(0); built.append(Data("../../b HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8))
            let path = built
            let answer = try await onThread { () -> RawResponse in
                let connection = try RawConnection(port: server.port)
                try connection.send(path)
                return try connection.readResponse()
            }
            #expect(answer.status == 400 || (answer.status == 200 && answer.text == #"{"id":"a"}"#), "\(answer.status) \(answer.text)")
            var header = Data("GET /v1/headers HTTP/1.1\r\nHost: t\r\nX-A: a".utf8); header.append(0)
            header.append(Data("b\r\nInjected: yes\r\nConnection: close\r\n\r\n".utf8))
            let headerRequest = header
            let second = try await onThread { () -> RawResponse in
                let connection = try RawConnection(port: server.port)
                try connection.send(headerRequest)
                return try connection.readResponse()
            }
            #expect(second.status == 400 || (second.status == 200 && second.text.contains(#""x-a":"a""#)),
                    "\(second.status) \(second.text)")
            #expect(!second.text.contains("\\u0000"), "\(second.text)")
            // `%00` in a query value decodes to a NUL byte: refused, not handed to the route (nor cut short).
            let query = try await rawRequest(port: server.port, "GET /v1/query?a=x%00y HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(query.status == 400 && query.text.contains("query parameter contains a NUL"), "\(query.status) \(query.text)")
            #expect(try await rawRequest(port: server.port, "GET /v1/query?a=x%01y HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").status == 200)
            // Percent-encoded bytes in a path parameter stay encoded: the handler gets text, not raw bytes.
            let escaped = try await rawRequest(port: server.port, "GET /v1/items/%00%C3%28%FF HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(escaped.status == 400 || escaped.status == 404 || (escaped.status == 200 && !escaped.text.contains("\\u0000")),
                    "\(escaped.status) \(escaped.text)")
            print("abuse-figure NUL: path → \(answer.status) \(answer.text), header → \(second.status), %00 → \(escaped.status) \(escaped.text)")
            #expect(try await Self.healthz(server.port) == 200)
        }
    }

    static func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }

    @Test func deeplyNestedJSONIsRefusedWithoutRecursion() async throws {
        // 1 MB of `[` is over the default 64 KiB body limit: 413 before a byte of it is parsed.
        try await withTestServer { server in
            let megabyte = Self.nested(512 * 1024)
            let answer = try await Self.status(port: server.port, Data((Self.json + "Content-Length: \(megabyte.utf8.count)\r\n\r\n" + megabyte).utf8))
            #expect(answer.status == 413)
        }
        // With a 2 MiB limit the same body reaches the decoder, which refuses it by depth (400), fast.
        try await withTestServer({ $0.maxBodyBytes = 2 * 1024 * 1024 }) { server in
            for body in [Self.nested(512 * 1024), String(repeating: "{\"a\":", count: 200_000) + "1" + String(repeating: "}", count: 200_000),
                         String(repeating: "[", count: 1_000_000)] {
                let answer = try await Self.status(port: server.port, Data((Self.json + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8))
                #expect(answer.status == 400)
                print("abuse-figure nested JSON \(body.utf8.count) bytes → \(answer.status) in \(String(format: "%.3f", answer.seconds)) s")
            }
            #expect(try await Self.healthz(server.port) == 200)
        }
    }

    @Test func jsonDepthLimit() {
        let deep = HTTPRequest(method: "POST", path: "/", headers: ["Content-Type": "application/json"],
                               body: Data(Self.nested(HTTPRequest.maximumJSONDepth + 1).utf8))
        #expect(throws: HTTPRequestError.self) { _ = try deep.decodeJSON([[String]].self) }
        // Brackets inside strings do not count.
        let quoted = HTTPRequest(method: "POST", path: "/", headers: ["Content-Type": "application/json"],
                                 body: Data(("{\"name\":\"" + String(repeating: "[\\\"", count: 500) + "\",\"count\":1}").utf8))
        #expect(throws: Never.self) { _ = try quoted.decodeJSON(EchoMessage.self) }
    }
}
