import Foundation

/// An HTTP/1.1 request as the handlers see it: the body is complete and within the size limit.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string, e.g. `/v1/token`.
    public var path: String
    /// Decoded query parameters (last value wins).
    public var query: [String: String]
    /// Header names lowercased.
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
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, b in b })
        self.body = body
        self.remoteAddress = remoteAddress
        self.pathParameters = pathParameters
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
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

/// `text` without leading and trailing spaces and tabs (HTTP optional whitespace), without Foundation bridging.
func trimmingOptionalWhitespace<S: StringProtocol>(_ text: S) -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else {
        return ""
    }
    return String(text[first...last])
}
