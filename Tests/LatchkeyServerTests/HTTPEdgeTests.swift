import Foundation
import LatchkeyTestSupport
import LatchkeyFuzzTargets
import LatchkeySupport
import Testing
@testable import LatchkeyServer

/// The HTTP edge held to the contract (issue 35, item 5), tried as an attacker would: every answer is the `Error`
/// JSON of docs/openapi.yaml, well-formed (one header block, a body of its declared length, nothing after), including
/// the refusals libmicrohttpd makes itself; method names are case-sensitive; a NUL anywhere in the head is refused;
/// JSON bodies are UTF-8 with unique member names.
@Suite("HTTP edge", .serialized, .offCooperativePool)
struct HTTPEdgeTests {
    /// Everything the server sends for `bytes` on a new connection, until it closes it (or `seconds` pass).
    static func exchange(_ port: UInt16, _ bytes: Data, seconds: Int = 20) async throws -> Data {
        try await onThread {
            let connection = try RawConnection(port: port, receiveTimeoutSeconds: seconds)
            try? connection.send(bytes)
            while connection.fill() {}
            return connection.buffer
        }
    }

    /// `bytes` read as answers, strictly (the fuzz target's reader: each a status line, header lines, an empty line
    /// and exactly Content-Length bytes of body, with nothing between or after them); nil when they are not.
    static func answers(_ bytes: Data) -> [HTTPAnswerStream.Answer]? {
        (try? HTTPAnswerStream(bytes, headAnswers: 0))?.answers
    }

    /// Checks one answer is the server's JSON error with `status`.
    static func expectError(_ answer: HTTPAnswerStream.Answer?, _ status: Int, _ name: String, closes: Bool = true) {
        guard let answer else {
            Issue.record("\(name): no well-formed answer")
            return
        }
        #expect(answer.status == status, "\(name): \(answer.status) \(answer.text)")
        #expect(answer.headers["content-type"] == "application/json", "\(name): \(answer.headers)")
        #expect(answer.headers["x-content-type-options"] == "nosniff", "\(name)")
        #expect((try? JSONDecoder().decode(HTTPErrorBody.self, from: answer.body)) != nil, "\(name): \(answer.text)")
        if closes { #expect(answer.headers["connection"]?.lowercased() == "close", "\(name): \(answer.headers)") }
    }

    static let post = "POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"

    /// Requests libmicrohttpd 0.9.75 refuses itself, and the status it refuses them with.
    static let libraryRefusals: [(name: String, bytes: Data, status: Int)] = [
        ("Content-Length: -1", Data((post + "Content-Length: -1\r\n\r\n").utf8), 400),
        ("Content-Length: +2", Data((post + "Content-Length: +2\r\n\r\n{}").utf8), 400),
        ("Content-Length: 1 2", Data((post + "Content-Length: 1 2\r\n\r\n{}").utf8), 400),
        ("Content-Length: 0x10", Data((post + "Content-Length: 0x10\r\n\r\n{}").utf8), 400),
        ("Content-Length over 64 bits", Data((post + "Content-Length: 99999999999999999999999\r\n\r\n{}").utf8), 413),
        ("HTTP/1.x", Data("GET /healthz HTTP/1.x\r\nHost: t\r\n\r\n".utf8), 400),
        ("HTTP/9.9", Data("GET /healthz HTTP/9.9\r\nHost: t\r\n\r\n".utf8), 505),
        ("HTTP/0.9", Data("GET /healthz HTTP/0.9\r\nHost: t\r\n\r\n".utf8), 505),
        ("header line without a colon", Data("GET /healthz HTTP/1.1\r\nHost: t\r\nno colon\r\n\r\n".utf8), 400),
        ("100 KB request target", Data(("GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: t\r\n\r\n").utf8), 414),
        ("100 KB header", Data(("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: " + String(repeating: "b", count: 100_000) + "\r\n\r\n").utf8), 431),
        ("chunk size not hex", Data((post + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n").utf8), 400),
        ("chunk size over 64 bits", Data((post + "Transfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n{}\r\n0\r\n\r\n").utf8), 413),
    ]

    @Test func libraryRefusalsAreTheServersWellFormedJSON() async throws {
        #expect(LibraryAnswers.isActive, "libmicrohttpd's own MHD_queue_response calls reach the server's hook")
        try await withTestServer({ $0.connectionTimeout = 5 }) { server in
            var figures: [String] = []
            for refusal in Self.libraryRefusals {
                let bytes = try await Self.exchange(server.port, refusal.bytes)
                let answers = Self.answers(bytes)
                #expect(answers?.count == 1, "\(refusal.name): \(String(decoding: bytes.prefix(600), as: UTF8.self))")
                Self.expectError(answers?.first, refusal.status, refusal.name)
                figures.append("\(refusal.name) → \(answers?.first?.status ?? 0) \(answers?.first?.text ?? "(malformed)")")
            }
            print("edge-figure libmicrohttpd's refusals:\n  " + figures.joined(separator: "\n  "))
            #expect(try await rawRequest(port: server.port, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").status == 200)
        }
    }

    /// Only libmicrohttpd may call the name `MHD_queue_response` (the process's definition is the server's, which takes
    /// every call for one of libmicrohttpd's own refusals): the package's code queues through `MicroHTTPD.queueResponse`.
    @Test func nothingButLibmicrohttpdCallsTheInterposedName() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let call = "MHD_queue_response" + "(" // not spelled out here, or this file would be a caller
        var callers: [String] = []
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") && !file.hasSuffix("Server/QueueResponse.swift") {
                let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                if text.contains(call) { callers.append("\(folder)/\(file)") }
            }
        }
        #expect(callers.isEmpty, "call MicroHTTPD.queueResponse instead: \(callers)")
    }

    @Test func aBadContentLengthLaterOnAKeptAliveConnectionIsOneWellFormedAnswer() async throws {
        // After a first request on the connection, sent one after the other and pipelined in one write.
        try await withTestServer({ $0.connectionTimeout = 5 }) { server in
            let good = "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"
            let bad = Self.post + "Content-Length: -1\r\n\r\n"
            let pipelined = try await Self.exchange(server.port, Data((good + bad).utf8))
            let answers = try #require(Self.answers(pipelined), "\(String(decoding: pipelined, as: UTF8.self))")
            #expect(answers.map(\.status) == [200, 400])
            Self.expectError(answers.last, 400, "pipelined")
            let sequential = try await onThread { () -> (first: Int, rest: Data) in
                let connection = try RawConnection(port: server.port, receiveTimeoutSeconds: 20)
                try connection.send(good)
                let first = try connection.readResponse().status
                try connection.send(bad)
                while connection.fill() {}
                return (first, connection.buffer)
            }
            #expect(sequential.first == 200)
            let later = Self.answers(sequential.rest)
            #expect(later?.count == 1, "\(String(decoding: sequential.rest, as: UTF8.self))")
            Self.expectError(later?.first, 400, "sequential")
        }
    }

    @Test func methodNamesAreCaseSensitive() async throws {
        try await withTestServer { server in
            for method in ["get", "Get", "gET", "FOO", "PROPFIND"] {
                let bytes = try await Self.exchange(server.port, Data("\(method) /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8))
                let answer = Self.answers(bytes)?.first
                Self.expectError(answer, 501, method, closes: false)
            }
            for method in ["PUT", "QUERY", "TRACE"] {
                let answer = try await rawRequest(port: server.port, "\(method) /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                #expect(answer.status == 405 && answer.headers["allow"] == "GET, HEAD", "\(method): \(answer.status)")
            }
            #expect(try await rawRequest(port: server.port, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").status == 200)
        }
        // The router alone compares methods exactly too.
        let router = Router([])
        guard case .immediate(let answer) = router.resolve(HTTPRequest(method: "get", path: "/healthz")) else {
            Issue.record("a synchronous route")
            return
        }
        #expect(answer.status == 405)
    }

    /// `text` with each `\0` written as a NUL byte.
    static func bytes(_ text: String) -> Data { Data(text.replacingOccurrences(of: "\\0", with: "\u{0}").utf8) }

    @Test func aNulAnywhereInTheHeadIsRefused() async throws {
        try await withTestServer { server in
            let refused = [
                "GET /v1/headers HTTP/1.1\r\nHost: t\r\nX-A: a\\0b\r\nConnection: close\r\n\r\n",
                "GET /v1/headers HTTP/1.1\r\nHost: t\r\nX-A: a\\0\r\nConnection: close\r\n\r\n",
                "GET /v1/headers HTTP/1.1\r\nHost: t\r\nX-A:\\0b\r\nConnection: close\r\n\r\n",
                "GET /v1/headers HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Last: a\\0b\r\n\r\n",
                "GET /v1/items/a\\0../../b HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
                "GET\\0X /v1/items/a HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
                "GET /v1/headers HTTP/1.1\r\nHost: t\r\nX-Folded: a\r\n b\r\nConnection: close\r\n\r\n",
            ]
            for text in refused {
                let answer = Self.answers(try await Self.exchange(server.port, Self.bytes(text)))?.first
                Self.expectError(answer, 400, text.debugDescription, closes: false)
                #expect(answer?.text.contains("NUL") == true, "\(text.debugDescription): \(answer?.text ?? "")")
            }
            // What a well-behaved client sends passes: trailing and inner whitespace, empty values, tabs, bare LF line
            // ends, whitespace before the colon, many headers, a query.
            let accepted = [
                "GET /v1/headers HTTP/1.1\r\nHost: t\r\nX-Trailing: a   \r\nX-Empty:\r\nX-Spaces:   \t \r\nX-Tab:\tb c\r\nConnection: close\r\n\r\n",
                "GET /v1/headers HTTP/1.1\nHost: t\nX-B: lf\nConnection: close\n\n",
                "GET /v1/headers?x=1&y=%20z HTTP/1.1\r\nHost: t\r\nX-Space : before colon\r\nConnection: close\r\n\r\n",
                "GET /v1/headers HTTP/1.1\r\nHost: t\r\n" + (0..<60).map { "X-H\($0): v\($0)\r\n" }.joined() + "Connection: close\r\n\r\n",
                "GET /v1/headers HTTP/1.0\r\n\r\n",
            ]
            for text in accepted {
                let answer = Self.answers(try await Self.exchange(server.port, Self.bytes(text)))?.first
                #expect(answer?.status == 200, "\(text.debugDescription): \(answer?.status ?? 0) \(answer?.text ?? "")")
            }
        }
    }

    static func json(_ body: Data, contentType: String = "application/json") -> Data {
        var request = Data("POST /v1/echo HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        request.append(body)
        return request
    }

    @Test func jsonBodiesAreUTF8WithUniqueMemberNames() async throws {
        let echo = #"{"name":"a","count":1}"#
        func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> Data {
            var data = Data(bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : [])
            for unit in text.utf16 {
                data.append(contentsOf: bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)])
            }
            return data
        }
        try await withTestServer { server in
            let refused: [(String, Data, String, Int)] = [
                ("duplicate member", Data(#"{"name":"a","name":"b","count":1}"#.utf8), "application/json", 400),
                ("duplicate member, escaped", Data(#"{"name":"a","na\u006de":"b","count":1}"#.utf8), "application/json", 400),
                ("duplicate member, nested", Data(#"{"name":"a","count":1,"x":{"k":1,"k":2}}"#.utf8), "application/json", 400),
                ("duplicate member in an array's object", Data(#"{"name":"a","count":1,"x":[{"k":1,"k":2}]}"#.utf8), "application/json", 400),
                ("UTF-8 byte order mark", Data([0xEF, 0xBB, 0xBF]) + Data(echo.utf8), "application/json", 400),
                ("UTF-16LE with BOM", utf16(echo, bigEndian: false, bom: true), "application/json", 400),
                ("UTF-16BE with BOM", utf16(echo, bigEndian: true, bom: true), "application/json", 400),
                ("UTF-16LE without BOM", utf16(echo, bigEndian: false, bom: false), "application/json", 400),
                ("UTF-16BE without BOM", utf16(echo, bigEndian: true, bom: false), "application/json", 400),
                ("charset=utf-16", utf16(echo, bigEndian: false, bom: true), "application/json; charset=utf-16", 415),
                ("charset=iso-8859-1", Data(echo.utf8), "application/json; charset=iso-8859-1", 415),
            ]
            for (name, body, type, status) in refused {
                let answer = Self.answers(try await Self.exchange(server.port, Self.json(body, contentType: type)))?.first
                Self.expectError(answer, status, name, closes: false)
            }
            for type in ["application/json", "application/json; charset=utf-8", "application/json;charset=\"UTF-8\"",
                         "Application/JSON ; Charset=Utf-8"] {
                let answer = Self.answers(try await Self.exchange(server.port, Self.json(Data(echo.utf8), contentType: type)))?.first
                #expect(answer?.status == 200 && answer?.text == #"{"count":1,"name":"a"}"#, "\(type): \(answer?.status ?? 0) \(answer?.text ?? "")")
            }
            // Equal values under two names are two members; a repeated name in two sibling objects is no repetition.
            let siblings = #"{"name":"a","count":1,"x":[{"k":1},{"k":2}],"y":{"k":1}}"#
            let answer = Self.answers(try await Self.exchange(server.port, Self.json(Data(siblings.utf8))))?.first
            #expect(answer?.status == 200, "\(answer?.text ?? "")")
        }
    }

    @Test func aRepeatedUsernameCreatesNoAccount() async throws {
        let f = try #require(try await ServiceFixture.make())
        defer { f.test.cleanup() }
        try await withTestServer(routes: f.service.routes()) { server in
            let body = #"{"username":"first","username":"second","password":"long enough"}"#
            let answer = try await rawRequest(port: server.port, "POST /v1/accounts HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
                                              + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(answer.status == 400, "\(answer.text)")
            for name in ["first", "second"] {
                let login = #"{"username":"\#(name)","password":"long enough"}"#
                let attempt = try await rawRequest(port: server.port, "POST /v1/session/password HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
                                                   + "Content-Type: application/json\r\nContent-Length: \(login.utf8.count)\r\n\r\n\(login)")
                #expect(attempt.status == 401, "\(name): \(attempt.status)")
            }
        }
    }

    @Test func jsonTextCheck() {
        func problem(_ text: String, depth: Int = 64) -> JSONTextCheck.Problem? {
            JSONTextCheck.problem(in: Data(text.utf8), maximumDepth: depth)
        }
        #expect(problem(#"{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}"#) == nil)
        #expect(problem(#"{"a":1,"a":2}"#) == .duplicateMember("a"))
        #expect(problem(#"{"a":"x","\u0061":"y"}"#) == .duplicateMember("a"))
        #expect(problem(#"{"\ud83d\ude00":1,"😀":2}"#) == .duplicateMember("😀"))
        #expect(problem("{\"é\":1,\"e\u{301}\":2}") != nil, "canonically equivalent names are one name")
        #expect(problem(#"{"a\"b":1,"a\u0022b":2}"#) == .duplicateMember("a\"b"))
        #expect(problem(#"{"a":"a","b":"a"}"#) == nil, "values are not names")
        #expect(problem(#"["a","a"]"#) == nil)
        #expect(problem(#"{"a":{"b":1},"b":1}"#) == nil)
        #expect(problem(#"{"k0":0,"# + (1...40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + #","k7":1}"#) == .duplicateMember("k7"))
        // Past the allocation-free pass's bounds (48 names in open objects, 16 levels) the general pass decides.
        #expect(problem("{" + (0..<60).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + #","k59":1}"#) == .duplicateMember("k59"))
        #expect(problem("{" + (0..<60).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}") == nil)
        #expect(problem(String(repeating: #"{"a":"#, count: 20) + #"{"b":1,"b":2}"# + String(repeating: "}", count: 20)) == .duplicateMember("b"))
        #expect(problem(String(repeating: #"{"a":"#, count: 20) + "1" + String(repeating: "}", count: 20)) == nil)
        // A simple name and an escaped spelling of it, in either order.
        #expect(problem(#"{"\u0061":1,"a":2}"#) == .duplicateMember("a"))
        #expect(problem(#"{"é":1,"b":{"é":2}}"#) == nil)
        #expect(problem(String(repeating: "[", count: 65) + String(repeating: "]", count: 65)) == .tooDeep(limit: 64))
        #expect(problem(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) == nil)
        #expect(problem(#"{"a":"[[[[[[[[[[["}"#, depth: 2) == nil, "brackets inside strings do not count")
        #expect(problem("\u{FEFF}{}") == .notUTF8)
        #expect(JSONTextCheck.problem(in: Data([0x7B, 0x00, 0x7D, 0x00]), maximumDepth: 64) == .notUTF8)
        // A zero byte right after a backslash, in a value or a name, in either pass (the allocation-free one used to
        // skip the escaped byte unread).
        let escapedZero = Data(#"{"a":"x\"#.utf8) + Data([0x00]) + Data(#""}"#.utf8)
        #expect(JSONTextCheck.problem(in: escapedZero, maximumDepth: 64) == .notUTF8)
        let past48 = Data(("{" + (0..<60).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + #","z":"x\"#).utf8)
        #expect(JSONTextCheck.problem(in: past48 + Data([0x00]) + Data(#""}"#.utf8), maximumDepth: 64) == .notUTF8)
        #expect(JSONTextCheck.problem(in: Data(#"{"a\"#.utf8) + Data([0x00]) + Data(#"":1}"#.utf8), maximumDepth: 64) == .notUTF8)
    }
}
