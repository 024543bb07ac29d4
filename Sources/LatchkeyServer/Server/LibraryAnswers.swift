import CMicroHTTPD
import Foundation
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#endif

/// The server's answers in place of the ones libmicrohttpd makes itself.
///
/// libmicrohttpd 0.9.75 refuses some requests before the application sees them — a request or header line it
/// cannot parse (400), an HTTP version other than 1.0 and 1.1 (505), a target or header block over its buffer (414,
/// 431), a malformed or oversized chunk (400, 413), a `Content-Length` it cannot read (400) or that does not fit in 64
/// bits (413) — with an HTML page and no media type, and has no option to change that. Its calls of
/// `MHD_queue_response` for those come here (`MicroHTTPD`: an interposed `MHD_queue_response`, Linux only), and each
/// answer becomes the server's `Error` JSON, with the security headers and `Connection: close` (libmicrohttpd closes
/// the connection after it).
///
/// The `Content-Length` refusals need more: libmicrohttpd 0.9.75 queues them while it reads the headers and then
/// carries on as if the request were fine, so it builds the response header a second time and sends both header
/// blocks before the body — a malformed answer. For those the server writes the whole answer to the socket itself
/// and tells libmicrohttpd the response could not be queued, which makes it close the connection and send nothing.
enum LibraryAnswers {
    /// Whether libmicrohttpd's own refusals reach `answer` (false off Linux, or in a link that did not export the
    /// interposed function: there libmicrohttpd's HTML answers stay).
    static var isActive: Bool {
        #if os(Linux)
        MicroHTTPD.interposes
        #else
        false
        #endif
    }

    /// What the server answers instead of libmicrohttpd's `status`, for a request whose headers were all read
    /// (`headersComplete`) and which declared a transfer coding (`chunked`) or not.
    static func response(status: Int, headersComplete: Bool, chunked: Bool) -> HTTPResponse {
        let description: String
        switch status {
        case 400:
            description = !headersComplete ? "The request line or a header line is malformed."
                : chunked ? "The chunked request body is malformed." : "Invalid Content-Length."
        case 413: description = chunked ? "A chunk of the request body is too large." : "The declared body is too large."
        case 414: description = "The request target is too long."
        case 431: description = "The request header fields are too large."
        case 505: description = "Only HTTP/1.0 and HTTP/1.1 are supported."
        default: description = "The request could not be read."
        }
        var response = HTTPResponse.error(status: status, code: status >= 500 && status != 505 ? "server_error" : "invalid_request",
                                          description: description)
        SecurityHeaders.apply(to: &response)
        response.headers.append((name: "Connection", value: "close"))
        return response
    }

    /// The hook's work for one refused request.
    static func answer(_ connection: OpaquePointer, status: Int) -> MHD_Result {
        let headersComplete = latchkey_connection_header_size(connection) > 0
        let chunked = MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") != nil
        let response = response(status: status, headersComplete: headersComplete, chunked: chunked)
        // With every header read and no transfer coding, the refusal is the Content-Length one, queued in the
        // middle of the header step (the only refusal libmicrohttpd makes there): answer on the socket, then let
        // libmicrohttpd close it. (The method is not known here, so a HEAD request gets the body too; the connection
        // ends right after it.)
        if headersComplete && !chunked {
            send(response, on: latchkey_connection_descriptor(connection))
            return .NO
        }
        return ServerCore.queue(response, on: connection)
    }

    /// Writes `response` (status line, headers with Content-Length and Date, body) to `socket`, as far as the socket
    /// takes it without waiting (libmicrohttpd has sent nothing for this request, and closes the connection next).
    static func send(_ response: HTTPResponse, on socket: Int32) {
        guard socket >= 0 else { return }
        var head = "HTTP/1.1 \(response.status) \(String(cString: MHD_get_reason_phrase_for(UInt32(response.status))))\r\n"
        for (name, value) in response.headers where ServerCore.mayPass(name, value) { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nDate: \(httpDate(time(nil)))\r\n\r\n"
        var bytes = Data(head.utf8)
        bytes.append(response.body)
        // The socket is non-blocking (the accept thread made it so): a full buffer ends the answer there.
        _ = bytes.withUnsafeBytes { PortableSocket.sendAll(socket, $0) }
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7), in English whatever the locale: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ seconds: time_t) -> String {
        var moment = tm()
        var clock = seconds
        gmtime_r(&clock, &moment)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(moment.tm_wday) % 7]), \(two(moment.tm_mday)) \(months[Int(moment.tm_mon) % 12]) \(moment.tm_year + 1900) "
            + "\(two(moment.tm_hour)):\(two(moment.tm_min)):\(two(moment.tm_sec)) GMT"
    }
}
