import Foundation
import LatchkeyTestSupport
import LatchkeyServer
import Testing

@Suite("HTTP limits and malformed requests", .serialized, .offCooperativePool)
struct HTTPLimitsTests {
    static func chunked(_ body: Data, chunkSize: Int) -> Data {
        var out = Data()
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + chunkSize)
            out += Data("\(String(end - offset, radix: 16))\r\n".utf8) + body[offset..<end] + Data("\r\n".utf8)
            offset = end
        }
        return out + Data("0\r\n\r\n".utf8)
    }

    @Test func declaredBodyOverTheLimitIs413() async throws {
        try await withTestServer { server in
            // Only the headers are sent: the answer comes on the first call, before any body byte.
            let response = try await rawRequest(port: server.port,
                "POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(64 * 1024 + 1)\r\n\r\n")
            #expect(response.status == 413)
            #expect(try response.bodyJSON(HTTPErrorBody.self).error == "invalid_request")
            let absurd = try await rawRequest(port: server.port,
                "POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999\r\n\r\n")
            #expect(absurd.status == 413 || absurd.status == 400)
        }
    }

    @Test func chunkedBodyOverTheLimitIs413() async throws {
        try await withTestServer { server in
            let port = server.port
            let response = try await onThread { () -> RawResponse in
                let connection = try RawConnection(port: port)
                try connection.send("POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                try connection.send(Self.chunked(Data(repeating: 0x41, count: 80 * 1024), chunkSize: 4096))
                return try connection.readResponse()
            }
            #expect(response.status == 413)
        }
    }

    @Test func chunkedBodyWithinTheLimitIsServed() async throws {
        try await withTestServer { server in
            let port = server.port
            let body = Data(#"{"name":"chunked","count":3}"#.utf8)
            let response = try await onThread { () -> RawResponse in
                let connection = try RawConnection(port: port)
                try connection.send("POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                try connection.send(Self.chunked(body, chunkSize: 7))
                return try connection.readResponse()
            }
            #expect(response.status == 200)
            #expect(try response.bodyJSON(EchoMessage.self) == EchoMessage(name: "chunked", count: 3))
        }
    }

    @Test func smallLimitIsConfigurable() async throws {
        try await withTestServer({ $0.maxBodyBytes = 16 }) { server in
            let body = #"{"name":"longer than sixteen","count":1}"#
            let response = try await rawRequest(port: server.port,
                "POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(response.status == 413)
        }
    }

    @Test(arguments: [
        "Content-Length: 5\r\nContent-Length: 6\r\n",
        "Content-Length: 5\r\nContent-Length: 5\r\n",
        "Content-Length: 5, 6\r\n",
        "Content-Length: -5\r\n",
        "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
    ])
    func ambiguousFramingIs400(_ framing: String) async throws {
        try await withTestServer { server in
            let response = try await rawRequest(port: server.port,
                "POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\(framing)\r\n{}{}{}")
            #expect(response.status == 400, "framing: \(framing)")
        }
    }

    @Test func stalledClientIsCutOffWhileOthersAreServed() async throws {
        try await withTestServer({ $0.connectionTimeout = 1 }) { server in
            let port = server.port
            // Connect, send half a request, stall.
            let closed = Task {
                try await onThread { () -> Bool in
                    let connection = try RawConnection(port: port, receiveTimeoutSeconds: 8)
                    try connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ")
                    return connection.waitForClose()
                }
            }
            let normal = try await rawRequest(port: port, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(normal.status == 200)
            #expect(try await closed.value)
            let after = try await rawRequest(port: port, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(after.status == 200)
        }
    }

    @Test func slowBodyUploadIsCutOff() async throws {
        try await withTestServer({ $0.connectionTimeout = 1 }) { server in
            let port = server.port
            let closed = try await onThread { () -> Bool in
                let connection = try RawConnection(port: port, receiveTimeoutSeconds: 8)
                try connection.send("POST /v1/echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"na")
                return connection.waitForClose()
            }
            #expect(closed)
        }
    }

    @Test func perAddressConnectionLimitRefusesExtraConnections() async throws {
        try await withTestServer({ $0.perIPConnectionLimit = 2 }) { server in
            let port = server.port
            let outcome = try await onThread { () -> (Int, Bool) in
                let first = try RawConnection(port: port)
                let second = try RawConnection(port: port)
                try first.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                try second.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                let served = try first.readResponse().status + (try second.readResponse().status)
                // The third is accepted by the kernel and closed by the server without an answer.
                let third = try RawConnection(port: port, receiveTimeoutSeconds: 5)
                try? third.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                return (served, third.waitForClose())
            }
            #expect(outcome.0 == 400)
            #expect(outcome.1)
        }
    }
}

/// X-Forwarded-For is believed only from a configured proxy, and only its rightmost entry.
@Suite(.offCooperativePool) struct TrustedProxyTests {
    static let routes = [Route("GET", "/ip") { request in .json(["ip": request.remoteAddress]) }]

    func ip(_ port: UInt16, forwardedFor: String?) async throws -> String {
        var text = "GET /ip HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        if let forwardedFor { text += "X-Forwarded-For: \(forwardedFor)\r\n" }
        let response = try await rawRequest(port: port, text + "\r\n")
        return (try JSONDecoder().decode([String: String].self, from: response.body))["ip"] ?? ""
    }

    @Test func forwardedForIsIgnoredUnlessThePeerIsTrusted() async throws {
        try await withTestServer(routes: Self.routes) { server in
            let seen = try await ip(server.port, forwardedFor: "203.0.113.9")
            #expect(seen == "127.0.0.1")
        }
        try await withTestServer({ $0.trustedProxies = ["127.0.0.1"] }, routes: Self.routes) { server in
            let cases: [(String?, String)] = [("203.0.113.9", "203.0.113.9"), ("10.9.9.9, 198.51.100.7", "198.51.100.7"),
                                              ("2001:db8::1", "2001:db8::1"), ("<script>", "127.0.0.1"), (nil, "127.0.0.1")]
            for (header, expected) in cases {
                let seen = try await ip(server.port, forwardedFor: header)
                #expect(seen == expected, "X-Forwarded-For: \(header ?? "none")")
            }
        }
    }
}
