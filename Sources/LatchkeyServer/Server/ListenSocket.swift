import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bound, listening, non-blocking TCP socket (bound here so port 0 can be read back); the server's `Acceptor`
/// accepts on it and hands the connections to libmicrohttpd.
struct ListenSocket: Sendable {
    let descriptor: Int32
    let port: UInt16

    static func open(host: String, port: UInt16, backlog: Int) throws(HTTPServerError) -> ListenSocket {
        var v4 = in_addr()
        var v6 = in6_addr()
        let family: Int32
        if inet_pton(AF_INET, host, &v4) == 1 {
            family = AF_INET
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            family = AF_INET6
        } else {
            throw .invalidAddress(host)
        }
        #if canImport(Glibc)
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .bindFailed(host: host, port: port, errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var result: Int32
        if family == AF_INET {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = v4
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        } else {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = v6
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        if result == 0 { result = listen(fd, Int32(clamping: backlog)) }
        if result == 0 { result = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw .bindFailed(host: host, port: port, errno: code)
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let bound: UInt16 = withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET {
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
        }
        return ListenSocket(descriptor: fd, port: bound)
    }

    #if canImport(Glibc)
    /// `accept4`'s flags for `Acceptor`: the connection non-blocking and close-on-exec. Named in this file, which
    /// does not import CMicroHTTPD: where a file that imports both Glibc and CMicroHTTPD (whose header includes
    /// `sys/socket.h`) names glibc's socket types, a release build cannot find them in the module's other files.
    static let acceptFlags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #endif

    /// `127.0.0.1` / `::1` text for a socket address from libmicrohttpd.
    static func text(of address: UnsafePointer<sockaddr>) -> String {
        let family = Int32(address.pointee.sa_family)
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { buffer in
            let size = socklen_t(buffer.count)
            let result: UnsafePointer<CChar>?
            switch family {
            case AF_INET:
                result = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var raw = v4.pointee.sin_addr
                    return inet_ntop(AF_INET, &raw, buffer.baseAddress, size)
                }
            case AF_INET6:
                result = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var raw = v6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, buffer.baseAddress, size)
                }
            default:
                result = nil
            }
            return result.map { String(cString: $0) } ?? "unknown"
        }
    }
}
