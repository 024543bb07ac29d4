import CMicroHTTPD
import Foundation
import LatchkeySupport

/// The state of one request between libmicrohttpd's calls to the access handler.
///
/// `@unchecked Sendable`: the plain `var`s are touched only by the libmicrohttpd thread that owns the connection
/// (the access handler and the completion callback for one connection never run concurrently); the only state
/// shared with the handler's task is `outcome`, which is behind a `Mutex`.
final class RequestContext: @unchecked Sendable {
    enum Outcome: Sendable {
        /// The handler is running on the server thread (the connection is not suspended).
        case inline
        /// The handler is running elsewhere (the connection is suspended).
        case pending
        /// The answer is ready and the connection has been resumed to send it.
        case answered(HTTPResponse)
        /// The answer has been queued.
        case delivered
    }

    let connection: OpaquePointer
    let started: UInt64
    var request: HTTPRequest
    /// `ServerCore.begin` has read the headers (the first call of the access handler).
    var begun = false
    /// The request target was not UTF-8 (answered 400).
    let targetIsUTF8: Bool
    /// Where the request target was in libmicrohttpd's buffer and its length as a C string (`RequestHeadLayout`);
    /// start 0 when the target callback did not run.
    let target: (start: UInt, length: Int)
    var earlyResponse: HTTPResponse?
    var received = 0
    var tooLarge = false
    var suspended = false
    /// The connection was opened over the connection limit: its answer closes it.
    var closesConnection = false
    let outcome = Locked<Outcome>(.inline)

    /// The state of a request whose target (as sent, before libmicrohttpd decodes it) is `target`, or whose
    /// path is `path` when no target is known.
    init(connection: OpaquePointer, target: UnsafePointer<CChar>?, path: String? = nil) {
        self.connection = connection
        self.started = DispatchTime.now().uptimeNanoseconds
        var path = path
        if let target {
            let length = strlen(target)
            self.target = (UInt(bitPattern: target), length)
            path = RequestContext.path(ofTarget: UnsafeRawBufferPointer(start: target, count: length))
        } else {
            self.target = (0, 0)
        }
        targetIsUTF8 = path != nil
        request = HTTPRequest(method: "", path: path ?? "/")
    }

    /// The path of a request target (everything before `?`, percent-encoding kept); nil when it is not UTF-8.
    static func path(ofTarget bytes: UnsafeRawBufferPointer) -> String? {
        let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        return String(validating: bytes[..<end], as: UTF8.self)
    }

    /// Records the handler's answer and resumes the connection if it was suspended. An answer recorded
    /// earlier (a shutdown that gave up on the handler) wins. Returns whether this call recorded the answer.
    @discardableResult
    func answer(_ response: HTTPResponse) -> Bool {
        outcome.withLock { state in
            switch state {
            case .inline:
                state = .answered(response)
                return true
            case .pending:
                state = .answered(response)
                MHD_resume_connection(connection)
                return true
            case .answered, .delivered:
                return false
            }
        }
    }

    /// After the inline run: the answer if the handler finished, or nil after suspending the connection
    /// (the handler's completion will resume it).
    func answerOrSuspend() -> HTTPResponse? {
        outcome.withLock { state in
            switch state {
            case .answered(let response):
                state = .delivered
                return response
            case .inline:
                state = .pending
                suspended = true
                // No inactivity timeout while the handler runs, however long (a slow query, a busy machine): the
                // client is waiting for us, not idle. libmicrohttpd does not count a suspended connection's time, but
                // between its resumption and the call that queues the answer it could close a connection whose
                // handler took longer than the timeout (seen as "closed early" on a loaded machine).
                latchkey_connection_set_timeout(connection, 0)
                MHD_suspend_connection(connection)
                return nil
            case .pending, .delivered:
                return nil
            }
        }
    }

    /// Takes the recorded answer once the connection has been resumed.
    func takeAnswer() -> HTTPResponse? {
        outcome.withLock { state in
            guard case .answered(let response) = state else { return nil }
            state = .delivered
            return response
        }
    }
}

/// Collects request headers and query arguments from libmicrohttpd's iterator.
final class ValueCollector {
    var values: [String: String] = [:]
    /// The head's layout, followed header by header (headers only).
    var layout: RequestHeadLayout?
    var contentLengths: [String] = []
    var hasTransferEncoding = false
    /// A name or value held a NUL byte. Values are read with the lengths libmicrohttpd reports: a query value's
    /// `%00` decodes to one (a C string would cut the value there instead); libmicrohttpd 0.9.75 itself ends a
    /// header value at a raw NUL, so there this catches what a later version might pass through.
    var containsNUL = false
    let lowercaseKeys: Bool

    init(lowercaseKeys: Bool) { self.lowercaseKeys = lowercaseKeys }

    func add(_ key: String, _ value: String) {
        let name = lowercaseKeys ? asciiLowercased(key) : key
        if lowercaseKeys {
            if name == "content-length" { contentLengths.append(value) }
            if name == "transfer-encoding" { hasTransferEncoding = true }
            if let existing = values[name] {
                values[name] = existing + ", " + value
                return
            }
        }
        values[name] = value
    }
}
