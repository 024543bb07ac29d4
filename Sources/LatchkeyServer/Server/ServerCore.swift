import CMicroHTTPD
import Foundation
import LatchkeySupport

/// What the server does with a complete request.
enum RequestDispatch: Sendable {
    case router(Router)
    case handler(@Sendable (HTTPRequest) async -> HTTPResponse)
}

/// The part of the server the C callbacks reach: limits, dispatch, counters, the access log.
///
/// `@unchecked Sendable`: `dispatch` is written only by `HTTPServer.start` before it launches libmicrohttpd's
/// threads (thread creation orders that write before every read); everything else is immutable or atomic.
final class ServerCore: @unchecked Sendable {
    var dispatch: RequestDispatch?
    let maxBodyBytes: Int
    /// Bytes of an oversized body read and thrown away before the connection is simply closed.
    let drainLimit: Int
    let accessLog: AccessLog?
    let runsHandlersInline: Bool
    let trustedProxies: Set<String>
    let inFlight = Locked<Int>(0)
    /// TCP connections open now and handed to libmicrohttpd, against the accept thread's limit.
    let connections: Locked<ConnectionCount>
    let connectionLimit: Int
    /// `HTTPServerConfiguration.connectionTimeout`, restored on a connection once its suspended handler answered.
    let connectionTimeout: Int
    /// The socket context of a connection opened over `connectionLimit` (any non-nil address; never dereferenced).
    static var overflowMark: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 1) }
    let draining = Locked<Bool>(false)
    let suspended = Locked<[ObjectIdentifier: RequestContext]>([:])

    init(dispatch: RequestDispatch?, configuration: HTTPServerConfiguration) {
        self.dispatch = dispatch
        self.maxBodyBytes = max(0, configuration.maxBodyBytes)
        self.drainLimit = max(0, configuration.maxBodyBytes) * 4 + 64 * 1024
        self.accessLog = configuration.accessLog
        self.runsHandlersInline = configuration.runsHandlersInline
        self.trustedProxies = configuration.trustedProxies
        self.connectionLimit = configuration.connectionLimit
        self.connectionTimeout = configuration.connectionTimeout
        self.connections = Locked(ConnectionCount(configuration))
    }

    // MARK: the request's life

    /// First call: reads headers and query, checks the framing, the request line, the head's layout and the
    /// declared size.
    func begin(_ context: RequestContext, method methodPointer: UnsafePointer<CChar>?, version versionPointer: UnsafePointer<CChar>?) {
        inFlight.withLock { $0 += 1 }
        context.begun = true
        let connection = context.connection
        let method = methodPointer.map { String(cString: $0) } ?? ""
        let version = versionPointer.map { String(cString: $0) } ?? ""
        let headers = ValueCollector(lowercaseKeys: true)
        if let methodPointer, let versionPointer {
            headers.layout = RequestHeadLayout(method: methodPointer, target: context.target, version: versionPointer,
                                               headerSize: latchkey_connection_header_size(connection))
        }
        let query = ValueCollector(lowercaseKeys: false)
        withExtendedLifetime(headers) {
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, mhdCollectValue,
                                          Unmanaged.passUnretained(headers).toOpaque())
        }
        withExtendedLifetime(query) {
            _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, mhdCollectValue,
                                          Unmanaged.passUnretained(query).toOpaque())
        }
        let peer = ConnectionInfo.remoteAddress(connection)
        var request = HTTPRequest(method: method, path: context.request.path, query: query.values, headers: [:],
                                  remoteAddress: clientAddress(peer: peer, forwardedFor: headers.values["x-forwarded-for"]))
        request.headers = headers.values
        context.request = request
        context.closesConnection = latchkey_connection_socket_context(connection) != nil
        context.earlyResponse = framingProblem(headers)
            ?? requestLineProblem(target: context, version: version, headers: headers, query: query)
            ?? overLimitProblem(context)
    }

    /// 503 for a request on a connection opened over the connection limit; `/healthz` is still answered, so
    /// a load balancer does not take a busy instance for a dead one.
    func overLimitProblem(_ context: RequestContext) -> HTTPResponse? {
        guard context.closesConnection, context.request.path != "/healthz" else { return nil }
        var response = HTTPResponse.error(status: 503, code: "temporarily_unavailable",
                                          description: "The server is at its connection limit; retry shortly.")
        response.headers.append((name: "Retry-After", value: "1"))
        return response
    }

    /// The client's address: the peer, or — for a trusted proxy — the rightmost well-formed address of its
    /// `X-Forwarded-For` (the one that proxy itself saw; entries further left are the client's own claims).
    func clientAddress(peer: String, forwardedFor: String?) -> String {
        // Split at the `,` byte and checked byte by byte (ASCII hex digits, `.`, `:`), never by grapheme cluster.
        guard trustedProxies.contains(peer), let forwardedFor,
              let lastEntry = forwardedFor.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).last
        else { return peer }
        let last = trimmingOptionalWhitespace(Substring(lastEntry))
        guard !last.isEmpty, last.utf8.count <= 45, last.utf8.allSatisfy({ byte in
            HexDigit.value(byte) != nil || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
        }) else { return peer }
        return last
    }

    /// 400 for ambiguous framing (several or malformed Content-Length, Content-Length with Transfer-Encoding),
    /// 413 for a declared body over the limit. libmicrohttpd itself accepts conflicting Content-Length headers.
    func framingProblem(_ headers: ValueCollector) -> HTTPResponse? {
        guard !headers.contentLengths.isEmpty else { return nil }
        guard headers.contentLengths.count == 1, !headers.hasTransferEncoding else {
            return .error(status: 400, code: "invalid_request", description: "Ambiguous message framing.")
        }
        let text = trimmingOptionalWhitespace(headers.contentLengths[0])
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return .error(status: 400, code: "invalid_request", description: "Invalid Content-Length.")
        }
        if text.count > 18 || (Int(text) ?? Int.max) > maxBodyBytes { return tooLargeResponse }
        return nil
    }

    /// 400 for a NUL byte anywhere in the head or a folded header line (`RequestHeadLayout`), for a request target
    /// that is not UTF-8 or whose path is not valid percent-encoding of UTF-8 without NUL, for a NUL byte in a
    /// (decoded) query parameter, and for an HTTP/1.1 request without `Host` (RFC 9112 §3.2); 501 for a method the
    /// server does not recognize (`HTTPMethod`: names are case-sensitive) and for a transfer coding other than plain
    /// `chunked` (RFC 9112 §6.1: the body could not be read).
    func requestLineProblem(target context: RequestContext, version: String, headers: ValueCollector,
                            query: ValueCollector) -> HTTPResponse? {
        if let layout = headers.layout, !layout.endsWhereExpected {
            return .error(status: 400, code: "invalid_request",
                          description: "The request head contains a NUL byte or a folded header line.")
        }
        guard HTTPMethod.isRecognized(context.request.method) else {
            return .error(status: 501, code: "invalid_request",
                          description: "The method is not supported (method names are case-sensitive).")
        }
        guard context.targetIsUTF8 else {
            return .error(status: 400, code: "invalid_request", description: "The request target is not UTF-8.")
        }
        // Only an escape can make a path undecodable (a raw path is UTF-8 without NUL): the common path skips the split.
        let path = context.request.path
        if path.utf8.contains(UInt8(ascii: "%")), path.utf8.first == UInt8(ascii: "/"), PercentEncoding.pathSegments(path) == nil {
            return .error(status: 400, code: "invalid_request",
                          description: "The request path is not valid percent-encoded UTF-8.")
        }
        if headers.containsNUL {
            return .error(status: 400, code: "invalid_request", description: "A header contains a NUL byte.")
        }
        if query.containsNUL {
            return .error(status: 400, code: "invalid_request", description: "A query parameter contains a NUL byte.")
        }
        if version == "HTTP/1.1", headers.values["host"] == nil {
            return .error(status: 400, code: "invalid_request", description: "The Host header is missing.")
        }
        if headers.hasTransferEncoding,
           asciiLowercased(trimmingOptionalWhitespace(headers.values["transfer-encoding"] ?? "")) != "chunked" {
            return .error(status: 501, code: "invalid_request", description: "Only the chunked transfer coding is supported.")
        }
        return nil
    }

    var tooLargeResponse: HTTPResponse {
        .error(status: 413, code: "invalid_request", description: "The request body is larger than \(maxBodyBytes) bytes.")
    }

    /// A body chunk: kept while within the limit, then counted and discarded (the 413 goes out on the final call,
    /// since libmicrohttpd cannot answer in the middle of an upload). Past the drain limit the connection is closed.
    func receive(_ chunk: UnsafeRawBufferPointer, for context: RequestContext) -> MHD_Result {
        context.received += chunk.count
        if context.tooLarge || context.received > maxBodyBytes {
            if !context.tooLarge {
                context.tooLarge = true
                context.request.body = Data()
            }
            return context.received > drainLimit ? .NO : .YES
        }
        context.request.body.append(contentsOf: chunk)
        return .YES
    }

    /// Final call (the request is complete) or the call after a resume (the answer is ready).
    func finish(_ context: RequestContext) -> MHD_Result {
        if context.suspended {
            guard let response = context.takeAnswer() else { return .YES }
            // The inactivity timeout was off while the handler ran (`answerOrSuspend`); back on, its timer restarts.
            latchkey_connection_set_timeout(context.connection, UInt32(connectionTimeout))
            return queue(response, for: context)
        }
        if context.tooLarge { return queue(tooLargeResponse, for: context) }
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse
        let request: HTTPRequest
        switch dispatch {
        case .router(let router):
            switch router.resolve(context.request) {
            case .immediate(let response): return queue(response, for: context)
            case .handler(let found, let routed): handler = found; request = routed
            }
        case .handler(let found):
            handler = found; request = context.request
        case nil:
            var response = HTTPResponse.error(status: 503, code: "temporarily_unavailable")
            response.headers.append((name: "Retry-After", value: "1"))
            return queue(response, for: context)
        }
        let key = ObjectIdentifier(context)
        suspended.withLock { $0[key] = context }
        if runsHandlersInline, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            // Start the handler on this thread; if it suspends, suspend the connection until it answers.
            let executor = InlineExecutor()
            Task(executorPreference: executor) { [self] in
                let response = await handler(request)
                context.answer(response)
                suspended.withLock { _ = $0.removeValue(forKey: key) }
            }
            executor.drain()
        } else {
            Task { [self] in
                let response = await handler(request)
                context.answer(response)
                suspended.withLock { _ = $0.removeValue(forKey: key) }
            }
        }
        if let response = context.answerOrSuspend() {
            suspended.withLock { _ = $0.removeValue(forKey: key) }
            return queue(response, for: context)
        }
        return .YES
    }

    /// Hands `response` to libmicrohttpd with the security headers, and writes the access-log line.
    func queue(_ response: HTTPResponse, for context: RequestContext) -> MHD_Result {
        var response = response
        if !(100...599).contains(response.status) {
            response = .error(status: 500, code: "server_error", description: "Invalid response status.")
        }
        SecurityHeaders.apply(to: &response)
        if draining.withLock({ $0 }) || context.closesConnection {
            response.headers.append((name: "Connection", value: "close"))
        }
        let count = response.body.count
        let result = ServerCore.queue(response, on: context.connection)
        if let accessLog {
            let elapsed = (DispatchTime.now().uptimeNanoseconds &- context.started) / 1000
            accessLog.write(AccessLogEntry(time: Date(), method: context.request.method, path: context.request.path,
                                           status: response.status, bytes: count, durationMicroseconds: elapsed,
                                           remoteAddress: context.request.remoteAddress))
        }
        return result
    }

    /// Hands `response` as it is to libmicrohttpd for `connection`.
    static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let count = response.body.count
        let mhdResponse: OpaquePointer? = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse else { return .NO }
        for (name, value) in response.headers where ServerCore.mayPass(name, value) {
            _ = MHD_add_response_header(mhdResponse, name, value)
        }
        let result = MicroHTTPD.queueResponse(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }

    /// Framing headers are the server's; header text with control characters is dropped (no response splitting).
    static func mayPass(_ name: String, _ value: String) -> Bool {
        if asciiCaseInsensitiveEquals(name, "content-length") || asciiCaseInsensitiveEquals(name, "transfer-encoding")
            || asciiCaseInsensitiveEquals(name, "date") {
            return false
        }
        let nameOK = !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
        let valueOK = value.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 }
        return nameOK && valueOK
    }

    func requestEnded() {
        inFlight.withLock { $0 -= 1 }
    }

    /// Answers every suspended request whose handler is still running with 503 (shutdown gave up waiting).
    func abandonSuspended() {
        let contexts = suspended.withLock { pending in
            defer { pending.removeAll() }
            return Array(pending.values)
        }
        for context in contexts {
            var response = HTTPResponse.error(status: 503, code: "temporarily_unavailable", description: "The server is shutting down.")
            response.headers.append((name: "Retry-After", value: "1"))
            context.answer(response)
        }
    }
}
