import Foundation
import LatchkeySupport
import LatchkeyTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 responder on 127.0.0.1 for tests: one connection at a time, `Connection: close`.
final class LoopbackHTTPResponder: Sendable {
    struct Request: Sendable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: Data

        /// The body parsed as `application/x-www-form-urlencoded`.
        var form: [String: String] {
            var result: [String: String] = [:]
            for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
                }
                if parts.count == 2 { result[parts[0]] = parts[1] }
            }
            return result
        }
    }

    struct Response: Sendable {
        var status: Int
        var body: Data
        var contentType = "application/json"
    }

    var port: UInt16 { listener.port }
    private let listener: LoopbackListener
    private let received: Locked<[Request]>

    /// Starts listening on an ephemeral port; `handler` answers each request.
    init(handler: @escaping @Sendable (Request) -> Response) throws {
        let received = Locked<[Request]>([])
        self.received = received
        listener = try LoopbackListener { connection in
            if let request = Self.read(connection) {
                received.withLock { $0.append(request) }
                Self.write(handler(request), to: connection)
            }
            close(connection)
        }
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/v1/token")! }  // test-only literal

    /// Every request received so far.
    var requests: [Request] { received.withLock { $0 } }

    /// Stops accepting connections (`LoopbackListener.stop()`).
    func stop() {
        listener.stop()
    }

    private static func read(_ fd: Int32) -> Request? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            let count = buffer.withUnsafeMutableBytes { PortableSocket.receive(fd, into: $0) }
            if count <= 0 { return nil }
            data.append(contentsOf: buffer[0..<count])
            headerEnd = data.range(of: Data("\r\n\r\n".utf8))
        }
        guard let end = headerEnd else { return nil }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = head.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        var body = Data(data[end.upperBound...])
        while body.count < length {
            let count = buffer.withUnsafeMutableBytes { PortableSocket.receive(fd, into: $0) }
            if count <= 0 { break }
            body.append(contentsOf: buffer[0..<count])
        }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: body)
    }

    private static func write(_ response: Response, to fd: Int32) {
        let head = "HTTP/1.1 \(response.status) X\r\nContent-Type: \(response.contentType)\r\n"
            + "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Data(head.utf8) + response.body
        _ = bytes.withUnsafeBytes { PortableSocket.sendAll(fd, $0) }
    }
}

/// A settable clock for tests.
final class TestClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Locked(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The clock as the closure the kit's types take.
    var closure: @Sendable () -> Date { { [self] in self.now } }
}
