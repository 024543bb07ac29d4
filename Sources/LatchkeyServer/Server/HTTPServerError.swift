import Foundation
import LatchkeyCrypto

/// Why the HTTP server could not start or run.
public enum HTTPServerError: Error, Sendable, Equatable {
    /// The host is not an IPv4 or IPv6 address literal.
    case invalidAddress(String)
    /// A configuration value is out of range.
    case invalidConfiguration(String)
    /// The socket could not be created, bound or put into listening state (`errno` given).
    case bindFailed(host: String, port: UInt16, errno: Int32)
    /// libmicrohttpd refused to start the daemon.
    case startFailed
    /// `start()` was called on a server that is running or has been stopped.
    case alreadyStarted
}

extension HTTPServerError: LocalizedError {
    public var errorDescription: String? {
        let language = MessageLanguage.current
        switch self {
        case .invalidAddress(let host):
            return language.pick(english: "'\(host)' is not an IP address to listen on.",
                                 korean: "'\(host)'은(는) 수신할 수 있는 IP 주소가 아닙니다.")
        case .invalidConfiguration(let detail):
            return language.pick(english: "Invalid server configuration: \(detail).",
                                 korean: "서버 설정이 올바르지 않습니다: \(detail).")
        case .bindFailed(let host, let port, let code):
            let reason = String(cString: strerror(code))
            return language.pick(english: "Cannot listen on \(host):\(port): \(reason).",
                                 korean: "\(host):\(port)에서 수신할 수 없습니다: \(reason).")
        case .startFailed:
            return language.pick(english: "The HTTP daemon (libmicrohttpd) failed to start.",
                                 korean: "HTTP 데몬(libmicrohttpd)을 시작하지 못했습니다.")
        case .alreadyStarted:
            return language.pick(english: "The server has already been started.",
                                 korean: "서버가 이미 시작되었습니다.")
        }
    }
}
