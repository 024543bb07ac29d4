import Foundation
import LatchkeyTestSupport
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#endif

/// A response read off a raw socket.
struct RawResponse: Sendable {
    var status: Int
    /// Header names lowercased.
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
}

enum RawClientError: Error {
    case connectFailed(Int32)
    case sendFailed(Int32)
    case closedEarly
    /// No byte within the receive timeout (the server, or the test process's cooperative threads, stalled).
    case timedOut
    case malformed(String)
}

/// A blocking HTTP/1.1 client on a plain TCP socket, for the cases URLSession will not send (duplicate
/// Content-Length, half requests, hand-made chunking). Use it only off Swift's cooperative threads (`onThread`).
final class RawConnection {
    let descriptor: Int32
    var buffer = Data()

    /// `sourceAddress` binds the local end first (another loopback address such as 127.0.0.2 is another client).
    /// The default timeout is long: in a full parallel test run, Swift's two cooperative threads (which the
    /// servers' async handlers resume on) can be busy with other tests for tens of seconds.
    init(port: UInt16, receiveTimeoutSeconds: Int = 120, sourceAddress: String? = nil) throws {
        descriptor = socket(AF_INET, PortableSocket.stream, 0)
        guard descriptor >= 0 else { throw RawClientError.connectFailed(errno) }
        PortableSocket.suppressSIGPIPE(on: descriptor)
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let sourceAddress {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(sourceAddress)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            // No close here: once `descriptor` is set the object is whole, so a throw runs deinit, which closes it
            // (closing here too closed the number twice; by then another thread could own it).
            guard bound == 0 else { throw RawClientError.connectFailed(errno) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw RawClientError.connectFailed(errno) }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    func send(_ text: String) throws { try send(Data(text.utf8)) }

    func send(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = PortableSocket.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if sent < 0 && errno == EINTR { continue }   // a signal (a child process of another test ending)
                guard sent > 0 else { throw RawClientError.sendFailed(errno) }
                offset += sent
            }
        }
    }

    /// True when the last `fill` gave up because the receive timeout passed.
    private(set) var timedOut = false

    /// Reads more bytes into the buffer; false at end of stream, timeout (`timedOut`) or reset.
    func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var count = recv(descriptor, &chunk, chunk.count, 0)
        // A signal interrupting the wait (SIGCHLD: another test's child process ended) is not the end of the stream.
        while count < 0 && errno == EINTR { count = recv(descriptor, &chunk, chunk.count, 0) }
        timedOut = count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Reads one response (bodies framed by Content-Length, as this server sends them).
    func readResponse() throws -> RawResponse {
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd = buffer.range(of: separator)
        while headerEnd == nil {
            guard fill() else { throw timedOut ? RawClientError.timedOut : RawClientError.closedEarly }
            headerEnd = buffer.range(of: separator)
        }
        guard let headerEnd else { throw RawClientError.closedEarly }
        let head = String(decoding: buffer[buffer.startIndex..<headerEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw RawClientError.malformed(head) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = headerEnd.upperBound
        while buffer.count - (bodyStart - buffer.startIndex) < length {
            guard fill() else { throw timedOut ? RawClientError.timedOut : RawClientError.closedEarly }
        }
        let body = Data(buffer[bodyStart..<(bodyStart + length)])
        buffer = Data(buffer[(bodyStart + length)...])
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// Waits until the server closes the connection (true) or the receive timeout passes (false).
    func waitForClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }
}


/// One request on a fresh connection.
func rawRequest(port: UInt16, _ text: String, sourceAddress: String? = nil) async throws -> RawResponse {
    try await onThread {
        let connection = try RawConnection(port: port, sourceAddress: sourceAddress)
        try connection.send(text)
        return try connection.readResponse()
    }
}

// MARK: a server with test routes

import LatchkeyServer

struct EchoMessage: Codable, Sendable, Equatable {
    var name: String
    var count: Int
}

enum TestRoutes {
    static let all: [Route] = [
        Route("POST", "/v1/echo") { request in
            do throws(HTTPRequestError) {
                return .json(try request.decodeJSON(EchoMessage.self))
            } catch {
                return error.response
            }
        },
        Route("GET", "/v1/items/:id") { request in
            .json(["id": request.pathParameters["id"] ?? ""])
        },
        Route("DELETE", "/v1/items/:id") { _ in HTTPResponse(status: 204) },
        Route("GET", "/v1/headers") { request in .json(request.headers) },
        Route("GET", "/v1/query") { request in .json(request.query) },
        Route("GET", "/v1/slow") { request in
            let milliseconds = Int(request.query["ms"] ?? "300") ?? 300
            try? await Task.sleep(for: .milliseconds(milliseconds))
            return .json(["slept": milliseconds])
        },
        Route("POST", "/v1/form") { request in
            do throws(HTTPRequestError) {
                return .json(try request.decodeForm())
            } catch {
                return error.response
            }
        },
        Route("GET", "/page") { _ in
            HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "text/html; charset=utf-8")],
                         body: Data("<!doctype html><title>t</title>".utf8))
        },
    ]
}

/// Starts a server on a free loopback port with the test routes, runs `body`, and shuts it down.
func withTestServer(_ adjust: (inout HTTPServerConfiguration) -> Void = { _ in },
                    routes: [Route] = TestRoutes.all,
                    _ body: (HTTPServer) async throws -> Void) async throws {
    var configuration = HTTPServerConfiguration(port: 0, threads: 2, accessLog: nil)
    adjust(&configuration)
    let server = HTTPServer(configuration: configuration, router: Router(routes))
    try server.start()
    do {
        try await body(server)
    } catch {
        await server.shutdown(gracePeriod: .seconds(1))
        throw error
    }
    await server.shutdown(gracePeriod: .seconds(2))
}
