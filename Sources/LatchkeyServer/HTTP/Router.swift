import Foundation

/// A route answered on the server's own thread, without suspending the connection: for cheap handlers
/// (health checks, constant documents) where the hop through Swift concurrency would cost more than the work.
public struct SynchronousRoute: Sendable {
    public var method: String
    public var path: String
    public var handler: @Sendable (HTTPRequest) -> HTTPResponse

    public init(_ method: String, _ path: String, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.method = method
        self.path = path
        self.handler = handler
    }

    /// `GET /healthz` → 200 `{"status":"ok"}`.
    public static let health: SynchronousRoute = {
        let response = HTTPResponse.json(HealthStatus(status: "ok"))
        return SynchronousRoute("GET", "/healthz") { _ in response }
    }()
}

struct HealthStatus: Codable, Sendable {
    var status: String
}

/// Dispatches requests by method and path pattern (`/v1/passkeys/:id`). Unknown paths get 404; a known
/// path with another method gets 405 with an `Allow` header. `HEAD` falls back to the `GET` route.
///
/// Paths are matched as bytes: a segment is what lies between two `/` bytes, percent-decoded after splitting
/// (`PercentEncoding.pathSegments`), so `/` followed by a combining mark still separates segments and `%2F` does not.
/// Literal segments match byte for byte (not by Unicode canonical equivalence); a parameter matches one non-empty
/// segment; empty segments (`//`, a trailing `/`) match only themselves. A literal beats a parameter: a path that a
/// more literal pattern matches (`/v1/sessions/revoke-others`) is that pattern's resource only, never also the
/// parameter's (`/v1/sessions/:id`), for dispatch and for `Allow` alike.
public struct Router: Sendable {
    /// What the router decided for one request.
    public enum Resolution: Sendable {
        /// The answer is ready (a synchronous route, 404, 405).
        case immediate(HTTPResponse)
        /// Run this handler with this request (its `pathParameters` filled in).
        case handler(@Sendable (HTTPRequest) async -> HTTPResponse, HTTPRequest)
    }

    enum Handler: Sendable {
        case synchronous(@Sendable (HTTPRequest) -> HTTPResponse)
        case asynchronous(@Sendable (HTTPRequest) async -> HTTPResponse)
    }

    struct Entry: Sendable {
        let method: String
        let pattern: String
        let segments: [Segment]?
        let handler: Handler
        /// The patterns that take the paths they match away from this one (literal where this has a parameter);
        /// empty for nearly every route, so matching costs nothing more.
        var shadowedBy: [[Segment]] = []
    }

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let entries: [Entry]

    /// A router over `routes` and `synchronous` routes (by default just `GET /healthz`).
    /// When two routes have the same method and pattern, the first one wins.
    public init(_ routes: [Route], synchronous: [SynchronousRoute] = [.health]) {
        var entries: [Entry] = []
        for route in synchronous {
            entries.append(Entry(method: route.method.uppercased(), pattern: route.path,
                                 segments: Router.compile(route.path), handler: .synchronous(route.handler)))
        }
        for route in routes {
            entries.append(Entry(method: route.method.uppercased(), pattern: route.path,
                                 segments: Router.compile(route.path), handler: .asynchronous(route.handler)))
        }
        let patterns = entries.compactMap(\.segments)
        for index in entries.indices {
            guard let segments = entries[index].segments else { continue }
            var shadows: [[Segment]] = []
            for other in patterns where Router.isMoreLiteral(other, than: segments) && !shadows.contains(other) {
                shadows.append(other)
            }
            entries[index].shadowedBy = shadows
        }
        self.entries = entries
    }

    /// True when `a` matches a subset of `b`'s paths: the same length, literal wherever `b` is, equal literals, and a
    /// literal somewhere `b` has a parameter.
    static func isMoreLiteral(_ a: [Segment], than b: [Segment]) -> Bool {
        guard a.count == b.count, a != b else { return false }
        return zip(a, b).allSatisfy { x, y in
            switch (x, y) {
            case (.literal(let p), .literal(let q)): p.utf8.elementsEqual(q.utf8)
            case (_, .parameter): true
            case (.parameter, .literal): false
            }
        }
    }

    /// Every (method, pattern) pair the router answers, in registration order.
    public var routeTable: [(method: String, path: String)] {
        entries.map { ($0.method, $0.pattern) }
    }

    /// The segments of a route pattern (`:name` is a parameter); a pattern that is not a path never matches.
    static func compile(_ pattern: String) -> [Segment]? {
        PercentEncoding.pathSegments(pattern)?.map { part in
            part.utf8.first == UInt8(ascii: ":") ? .parameter(String(part.dropFirst())) : .literal(part)
        }
    }

    static func match(_ segments: [Segment]?, _ parts: [String]) -> [String: String]? {
        guard let segments, segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text): if !text.utf8.elementsEqual(part.utf8) { return nil }
            case .parameter(let name):
                if part.isEmpty { return nil }
                parameters[name] = part
            }
        }
        return parameters
    }

    /// Finds the route for `request`. A path that is not valid percent-encoded UTF-8 matches nothing (the server
    /// answers it 400 before it gets here).
    public func resolve(_ request: HTTPRequest) -> Resolution {
        guard let parts = PercentEncoding.pathSegments(request.path) else { return .immediate(Router.notFound) }
        // Method names are case-sensitive (RFC 9110 §9.1): `get` is not `GET` (the server refuses it with 501 first).
        let method = request.method
        var allowed: [String] = []
        var fallback: (Entry, [String: String])?
        for entry in entries {
            guard let parameters = Router.match(entry.segments, parts) else { continue }
            if !entry.shadowedBy.isEmpty, entry.shadowedBy.contains(where: { Router.match($0, parts) != nil }) { continue }
            if entry.method == method {
                return Router.resolution(entry, parameters, request)
            }
            if method == "HEAD", entry.method == "GET", fallback == nil { fallback = (entry, parameters) }
            if !allowed.contains(entry.method) { allowed.append(entry.method) }
        }
        if let (entry, parameters) = fallback { return Router.resolution(entry, parameters, request) }
        if allowed.isEmpty { return .immediate(Router.notFound) }
        if allowed.contains("GET"), !allowed.contains("HEAD") { allowed.append("HEAD") }
        var response = HTTPResponse.error(status: 405, code: "method_not_allowed",
                                          description: "Method not allowed on this resource.")
        response.headers.append((name: "Allow", value: allowed.joined(separator: ", ")))
        return .immediate(response)
    }

    static var notFound: HTTPResponse { .error(status: 404, code: "not_found", description: "No such resource.") }

    static func resolution(_ entry: Entry, _ parameters: [String: String], _ request: HTTPRequest) -> Resolution {
        var request = request
        request.pathParameters = parameters
        switch entry.handler {
        case .synchronous(let handler): return .immediate(handler(request))
        case .asynchronous(let handler): return .handler(handler, request)
        }
    }

    /// Resolves and runs the handler (for callers outside the server, such as tests).
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        switch resolve(request) {
        case .immediate(let response): return response
        case .handler(let handler, let request): return await handler(request)
        }
    }
}
