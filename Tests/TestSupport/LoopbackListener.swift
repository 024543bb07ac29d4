import Foundation
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening TCP socket on 127.0.0.1 whose thread accepts connections and hands each to `connection` (which owns it
/// and closes it), for the tests' hand-written servers and proxies.
///
/// Written against two failures seen on a loaded test machine. An accept (or a read) cut short by a signal or by a
/// client that gave up is retried, never taken for the end: an accept thread that stopped on it closed its listener
/// while the test still ran. And the listening descriptor is closed exactly once, under the same lock as `stop()`'s
/// shutdown: a `shutdown(2)` after that close hit whatever socket of another test had been given the freed number
/// (URLSession's connection to a `latchkey serve` of another suite read it as "Empty reply from server").
public final class LoopbackListener: Sendable {
    public let port: UInt16
    private let descriptor: Int32
    /// `stopped`: `stop()` was called; `closed`: the descriptor is closed (its number may belong to anything now).
    private let state = Locked<(stopped: Bool, closed: Bool)>((false, false))

    /// Listens on `port` (0: an ephemeral one, read back from `port`) and starts the accept thread.
    public init(port: UInt16 = 0, backlog: Int32 = 64,
                connection: @escaping @Sendable (Int32) -> Void) throws(LoopbackListenerError) {
        let fd = socket(AF_INET, PortableSocket.stream, 0)
        guard fd >= 0 else { throw .socket(errno) }
        guard PortableSocket.bindLoopback(fd, port: port), listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw .bind(port: port, errno: code)
        }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.port = UInt16(bigEndian: address.sin_port)
        descriptor = fd
        let thread = Thread { [self] in acceptLoop(connection) }
        thread.name = "loopback-listener"
        thread.start()
    }

    /// Stops accepting: shuts the listening socket down (if the accept thread has not closed it yet), which ends the
    /// thread; the thread closes it. Connections already handed over are not touched. Calling it again does nothing.
    public func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            if !state.closed { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop(_ connection: @Sendable (Int32) -> Void) {
        defer {
            state.withLock { state in
                close(descriptor)
                state.closed = true
            }
        }
        while true {
            let client = accept(descriptor, nil, nil)
            let code = errno
            if state.withLock({ $0.stopped }) {
                if client >= 0 { close(client) }
                return
            }
            guard client >= 0 else {
                switch code {
                // A signal, or a client that reset before it was accepted: the next one.
                case EINTR, ECONNABORTED, EPROTO: continue
                // Out of descriptors or buffers: again shortly (the socket stays open until `stop()`).
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: Thread.sleep(forTimeInterval: 0.01); continue
                // Anything else is the socket's end (shut down by another hand than `stop()`).
                default: return
                }
            }
            PortableSocket.suppressSIGPIPE(on: client)
            connection(client)
        }
    }
}

/// Why a `LoopbackListener` could not start.
public enum LoopbackListenerError: Error, CustomStringConvertible {
    case socket(Int32)
    case bind(port: UInt16, errno: Int32)

    public var description: String {
        switch self {
        case .socket(let code): "socket(2) failed: errno \(code)"
        case .bind(let port, let code): "could not listen on 127.0.0.1:\(port): errno \(code)"
        }
    }
}
