import Foundation

/// BSD-socket spellings that glibc and Darwin import differently into Swift, for the package's loopback
/// helpers (tests, benchmarks). glibc imports the socket types as an enum (`SOCK_STREAM.rawValue`) and has
/// `MSG_NOSIGNAL`; Darwin has plain `Int32` macros and suppresses SIGPIPE per socket (`SO_NOSIGPIPE`).
package enum PortableSocket {
    /// `SOCK_STREAM` as `socket(2)` takes it.
    package static var stream: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// Makes writes to a closed peer fail with EPIPE instead of raising SIGPIPE, on platforms where that is a
    /// property of the socket (Darwin: `SO_NOSIGPIPE`). On Linux `send(_:_:_:)` passes `MSG_NOSIGNAL` instead.
    package static func suppressSIGPIPE(on descriptor: Int32) {
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Sends all of `bytes` (again after a partial write or an interrupted call); stops at the first error, or when a
    /// non-blocking socket's buffer is full. Returns how many bytes went out.
    @discardableResult
    package static func sendAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset < bytes.count {
            let sent = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        return offset
    }

    /// `bind(2)` of `descriptor` to 127.0.0.1:`port` (0: an ephemeral port): whether it was bound.
    package static func bindLoopback(_ descriptor: Int32, port: UInt16) -> Bool {
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// `connect(2)` of `descriptor` to 127.0.0.1:`port`: whether it connected.
    package static func connectLoopback(_ descriptor: Int32, port: UInt16) -> Bool {
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// 127.0.0.1:`port` as a socket address.
    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// `recv(2)` into `buffer`, again when a signal interrupts it: the bytes read, 0 at the peer's end, or -1 with
    /// `errno` (a timeout set with `SO_RCVTIMEO` is `EAGAIN`).
    package static func receive(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            return count
        }
    }

    /// `send(2)` without SIGPIPE (on Darwin, after `suppressSIGPIPE(on:)`): the bytes sent, or -1 with `errno`.
    package static func send(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
        #elseif canImport(Darwin)
        Darwin.send(descriptor, bytes, count, 0)
        #else
        -1
        #endif
    }
}
