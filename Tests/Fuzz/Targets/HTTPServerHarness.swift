import Foundation
import LatchkeyServer
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#endif

/// The `http` target's real server: an `HTTPServer` (libmicrohttpd, the accept thread, the edge checks, the
/// router with `HTTPFuzzing.router`'s routes) on a loopback port, started once per process. Each input is sent on
/// a new connection as raw bytes, so libmicrohttpd's own parser frames it — request line, headers, Content-Length
/// and chunked bodies, pipelined requests — and every byte the server sends back is returned.
enum HTTPServerHarness {
    /// Sent after the input: ends a head the input left open, and asks for a last answer that closes the connection
    /// (libmicrohttpd leaves a kept-alive connection open after the client's end of stream, so without it the read
    /// would wait for the inactivity timeout).
    static let closing = Data("\r\n\r\nGET /healthz HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n\r\n".utf8)

    /// The body limit of the harness's server: inputs are at most 8192 bytes (`-max_len`), so a larger declared body
    /// is refused at once (413) and a smaller one that the input does not complete takes at most this many bytes of
    /// what follows.
    static let bodyLimit = 8 * 1024

    /// Sent after `closing`, then `closing` again: bytes with no line end, enough to complete any body the input left
    /// open (libmicrohttpd 0.9.75 would otherwise wait for the rest of the body until the inactivity timeout, end of
    /// stream or not), which then make a request line without a space (the connection is closed unanswered).
    static let filler = Data(repeating: UInt8(ascii: "X"), count: bodyLimit + 256)

    /// The server (nil when it cannot start: then the target checks only the in-process path).
    static let server: HTTPServer? = {
        var configuration = HTTPServerConfiguration(port: 0, threads: 1, accessLog: nil)
        configuration.connectionTimeout = 1
        configuration.maxBodyBytes = bodyLimit
        configuration.shutdownGracePeriod = .seconds(1)
        let server = HTTPServer(configuration: configuration, router: HTTPFuzzing.router)
        do { try server.start() } catch { return nil }
        return server
    }()

    /// Everything the server sent for `input` (followed by `closing`, `filler` and `closing` again, then the client's
    /// end of stream), read until the server closes the connection or 3 s pass without a byte.
    static func exchange(_ input: Data, port: UInt16) -> Data? {
        let descriptor = socket(AF_INET, PortableSocket.stream, 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        PortableSocket.suppressSIGPIPE(on: descriptor)
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard PortableSocket.connectLoopback(descriptor, port: port) else { return nil }
        var outgoing = input
        outgoing.append(closing)
        outgoing.append(filler)
        outgoing.append(closing)
        // The server may answer and close before it has read everything: a failed send is not an error.
        _ = outgoing.withUnsafeBytes { PortableSocket.sendAll(descriptor, $0) }
        shutdown(descriptor, Int32(SHUT_WR))
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 { received.append(contentsOf: chunk[0..<count]) } else if count < 0, errno == EINTR { continue } else { break }
        }
        return received
    }

    /// Waits (at most 2 s) until the server holds no connection, after the client closed its own: nothing allocated
    /// for this input is then still held by the server when libFuzzer checks for leaks or the next input starts.
    static func waitUntilIdle(_ server: HTTPServer) {
        for _ in 0..<20_000 where server.openConnections > 0 { usleep(100) }
    }
}

/// The answers on one connection, read strictly: each a status line `HTTP/1.1 NNN reason`, header lines, an empty
/// line and exactly `Content-Length` bytes of body (none for a 1xx, nor for an answer to HEAD), one after the other
/// with nothing between or after them. A header block sent twice, a body that is not the declared length, or bytes
/// that are no answer at all fail the parse.
package struct HTTPAnswerStream {
    package struct Answer {
        package var status: Int
        /// Header names lowercased; a repeated header keeps its last value.
        package var headers: [String: String]
        package var body: Data
        /// The answer had no body although its Content-Length was not 0 (an answer to HEAD).
        package var bodyless: Bool

        package var text: String { String(decoding: body, as: UTF8.self) }
    }

    package var answers: [Answer] = []

    /// Parses `bytes`; at most `headAnswers` answers may lack their body (the input holds that many HEAD requests).
    package init(_ bytes: Data, headAnswers: Int) throws(FuzzPropertyViolation) {
        let data = [UInt8](bytes)
        var index = 0
        var bodyless = 0
        while index < data.count {
            guard let headEnd = HTTPAnswerStream.find([13, 10, 13, 10], in: data, from: index) else {
                throw FuzzPropertyViolation(.http, "bytes that are not a complete answer after \(answers.count) answer(s)")
            }
            let head = String(decoding: data[index..<headEnd], as: UTF8.self)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst()
            let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "HTTP/1.1", parts[1].count == 3, let status = Int(parts[1]) else {
                throw FuzzPropertyViolation(.http, "a malformed status line after \(answers.count) answer(s)")
            }
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                      !line[..<colon].contains(where: { $0 == " " || $0 == "\t" }) else {
                    throw FuzzPropertyViolation(.http, "a malformed header line in answer \(answers.count + 1)")
                }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            index = headEnd + 4
            var answer = Answer(status: status, headers: headers, body: Data(), bodyless: false)
            if status >= 200 {
                guard let lengthText = headers["content-length"], let length = Int(lengthText), length >= 0 else {
                    throw FuzzPropertyViolation(.http, "answer \(answers.count + 1) (\(status)) has no Content-Length")
                }
                // A body-less answer to HEAD is followed by the next status line or by the end of the stream.
                let nextIsAnswer = index == data.count || data[index...].starts(with: Array("HTTP/1.1 ".utf8))
                if length > 0, nextIsAnswer, bodyless < headAnswers {
                    bodyless += 1
                    answer.bodyless = true
                } else {
                    guard data.count - index >= length else {
                        throw FuzzPropertyViolation(.http, "answer \(answers.count + 1) (\(status)) is shorter than its Content-Length")
                    }
                    answer.body = Data(data[index..<index + length])
                    index += length
                }
            }
            answers.append(answer)
            if status >= 200, headers["connection"]?.lowercased() == "close", index < data.count {
                throw FuzzPropertyViolation(.http, "bytes after an answer that closes the connection")
            }
        }
    }

    static func find(_ needle: [UInt8], in data: [UInt8], from start: Int) -> Int? {
        guard data.count >= needle.count, start <= data.count - needle.count else { return nil }
        for position in start...(data.count - needle.count) where data[position] == needle[0] {
            if Array(data[position..<position + needle.count]) == needle { return position }
        }
        return nil
    }
}
