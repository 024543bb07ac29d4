import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `MHD_queue_response`, and the server's hold on libmicrohttpd's own calls of it.
///
/// libmicrohttpd 0.9.75 queues its own refusals (`LibraryAnswers`) through its exported `MHD_queue_response`, which it
/// calls through its procedure linkage table. On Linux this module defines a function of that name too
/// (`@_cdecl`): the executable's definition comes first in the dynamic linker's lookup (ELF symbol interposition),
/// so libmicrohttpd's own calls reach `libraryCalledQueueResponse`, which hands them to `LibraryAnswers`. Every
/// answer of the server itself, and of anything else in the process that answers through libmicrohttpd (the
/// benchmarks' bare responder), goes through `MicroHTTPD.queueResponse` to libmicrohttpd's function, found with
/// `dlsym(RTLD_NEXT)`: nothing but libmicrohttpd calls the interposed name.
package enum MicroHTTPD {
    typealias QueueFunction = @convention(c) (OpaquePointer?, UInt32, OpaquePointer?) -> MHD_Result

    #if os(Linux)
    /// libmicrohttpd's `MHD_queue_response` (the next definition after this executable's); nil if none is found.
    static let libraryQueueResponse: QueueFunction? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "MHD_queue_response") else { return nil }
        return unsafeBitCast(symbol, to: QueueFunction.self)
    }()

    /// Whether libmicrohttpd's own calls reach this module: the process's first `MHD_queue_response` is this one.
    static var interposes: Bool {
        guard let first = dlsym(nil, "MHD_queue_response"), let library = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "MHD_queue_response")
        else { return false }
        return first != library
    }
    #endif

    /// Queues `response` on `connection` with libmicrohttpd's own function (`MHD_queue_response`'s contract).
    package static func queueResponse(_ connection: OpaquePointer?, _ status: UInt32, _ response: OpaquePointer?) -> MHD_Result {
        #if os(Linux)
        guard let libraryQueueResponse else { return .NO }
        return libraryQueueResponse(connection, status, response)
        #else
        return MHD_queue_response(connection, status, response)
        #endif
    }
}

#if os(Linux)
/// The interposed `MHD_queue_response`: called by libmicrohttpd for the refusals it makes itself, and by nothing else
/// (see `MicroHTTPD`). libmicrohttpd destroys its own `response` after the call. `package`, not internal: an internal
/// function's symbol may be hidden in an optimized build (the fuzz build's was), and a hidden symbol interposes nothing —
/// libmicrohttpd's HTML refusals came back (`Tests/Fuzz/Regressions/http/malformed-header-line`).
@_cdecl("MHD_queue_response")
package func libraryCalledQueueResponse(_ connection: OpaquePointer?, _ status: UInt32, _ response: OpaquePointer?) -> MHD_Result {
    guard let connection else { return .NO }
    return LibraryAnswers.answer(connection, status: Int(status))
}
#endif
