import Foundation

/// An HTTP/1.1 request as the handlers see it: the body is complete and within the size limit.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path as sent, percent-encoding kept, without the query string, e.g. `/v1/token`. The router splits it at
    /// `/` bytes and percent-decodes each segment afterwards (`pathParameters` holds decoded values).
    public var path: String
    /// Decoded query parameters (last value wins).
    public var query: [String: String]
    /// Header names with their ASCII letters lowercased (header names are ASCII tokens).
    public var headers: [String: String]
    public var body: Data
    /// The peer's IP address as text (`127.0.0.1`).
    public var remoteAddress: String
    /// Path parameters filled by the router (`/v1/passkeys/:id` → `["id": ...]`).
    public var pathParameters: [String: String]

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: Data = Data(), remoteAddress: String = "127.0.0.1", pathParameters: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { (asciiLowercased($0.key), $0.value) }, uniquingKeysWith: { _, b in b })
        self.body = body
        self.remoteAddress = remoteAddress
        self.pathParameters = pathParameters
    }

    public func header(_ name: String) -> String? { headers[asciiLowercased(name)] }
}

/// An HTTP response. Handlers build these; the server adds Content-Length and Date.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { asciiCaseInsensitiveEquals($0.name, name) }?.value
    }
}

/// One route: a method, a path pattern (`/v1/passkeys/:id`) and its handler.
public struct Route: Sendable {
    public var method: String
    public var path: String
    public var handler: @Sendable (HTTPRequest) async -> HTTPResponse

    public init(_ method: String, _ path: String, handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.method = method
        self.path = path
        self.handler = handler
    }
}

/// ASCII case-insensitive comparison for header names (cheaper than Foundation's locale-aware compare).
func asciiCaseInsensitiveEquals(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    var left = a.utf8.makeIterator()
    var right = b.utf8.makeIterator()
    while true {
        switch (left.next(), right.next()) {
        case (nil, nil): return true
        case let (x?, y?):
            if x == y { continue }
            let lx = (x >= 0x41 && x <= 0x5A) ? x | 0x20 : x
            let ly = (y >= 0x41 && y <= 0x5A) ? y | 0x20 : y
            if lx != ly { return false }
        default: return false
        }
    }
}

/// `text` without leading and trailing spaces and tabs (HTTP optional whitespace), on its UTF-8 bytes.
func trimmingOptionalWhitespace<S: StringProtocol>(_ text: S) -> String where S.UTF8View: BidirectionalCollection {
    let utf8 = text.utf8
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else {
        return ""
    }
    return String(decoding: utf8[first...last], as: UTF8.self)
}

/// `text` with its ASCII letters lowercased and every other byte kept. Header names and media types are ASCII
/// tokens (RFC 9110 §5.1, §8.3.1); this skips `lowercased()`'s Unicode case tables, and copies only when
/// there is an uppercase letter to change.
func asciiLowercased<S: StringProtocol>(_ text: S) -> String {
    let utf8 = text.utf8
    guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return String(text) }
    return String(unsafeUninitializedCapacity: utf8.count) { buffer in
        var count = 0
        for byte in utf8 {
            buffer[count] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            count += 1
        }
        return count
    }
}
