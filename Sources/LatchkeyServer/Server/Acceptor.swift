import CMicroHTTPD
import Foundation
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#endif

/// The connections handed to libmicrohttpd, against the server's limit (`connectionLimit + overflowConnections`).
///
/// The accept thread reserves a place before each `accept`; libmicrohttpd's connection callback turns it into an
/// open connection (started) and frees it (closed). At the limit the accept thread stops polling the listening
/// socket — further connections wait in the kernel's backlog — and the next close wakes it.
struct ConnectionCount {
    let limit: Int
    /// Connections libmicrohttpd has started and not yet closed.
    var open = 0
    /// Connections reserved or handed to `MHD_add_connection` that libmicrohttpd has not started yet.
    var handedOver = 0
    /// The accept thread found the limit reached (or ran out of descriptors) and waits for a close.
    var acceptorWaits = false
    /// The write end of the accept thread's wake-up pipe (-1 before it starts); open until the daemon is stopped.
    var wake: Int32 = -1

    /// `connectionLimit + overflowConnections`, at most what libmicrohttpd can be given per worker
    /// (`HTTPServer.start` sets every worker's limit to this number, so a worker never refuses a connection handed
    /// to it: the count here is the only limit).
    init(_ configuration: HTTPServerConfiguration) {
        let most = Int(UInt32.max) / max(1, configuration.threads)
        limit = min(most, min(max(0, configuration.connectionLimit), most) + min(max(0, configuration.overflowConnections), most))
    }

    /// Reserves a place for the next connection; at the limit notes that the accept thread waits and returns false.
    mutating func reserve() -> Bool {
        if open + handedOver < limit {
            handedOver += 1
            return true
        }
        acceptorWaits = true
        return false
    }

    /// The reserved place was not used: accept failed, or libmicrohttpd refused the connection (and closed it).
    mutating func cancel() {
        handedOver -= 1
    }

    /// libmicrohttpd started a connection handed to it: returns the number open now.
    mutating func started() -> Int {
        handedOver -= 1
        open += 1
        return open
    }

    /// A connection closed: the descriptor to write to when the accept thread waits for a place.
    mutating func closed() -> Int32? {
        open -= 1
        guard acceptorWaits, open + handedOver < limit else { return nil }
        acceptorWaits = false
        return wake
    }
}

/// The server's accept thread: libmicrohttpd runs without a listening socket (`MHD_USE_NO_LISTEN_SOCKET`), and this
/// thread polls the listening socket and a wake-up pipe, accepts, and hands each connection to `MHD_add_connection`
/// (which queues it to a worker and wakes that worker through its own channel). So libmicrohttpd's workers never
/// touch a listening socket, and stopping to accept needs no `MHD_quiesce_daemon` — which, on an epoll daemon,
/// races the workers and can abort the process (docs/ARCHITECTURE.md, Server). `stop()` joins the thread and closes
/// the listening socket: the port is free for a successor at once.
final class Acceptor: Sendable {
    /// `@unchecked Sendable`: the daemon is only passed to `MHD_add_connection`, which is made to be called from
    /// another thread, and is stopped only after this thread has been joined.
    struct DaemonPointer: @unchecked Sendable { let pointer: OpaquePointer }

    let listenSocket: Int32
    let core: ServerCore
    let wakeRead: Int32
    let wakeWrite: Int32
    let stopping = Locked(false)
    let finished = DispatchSemaphore(value: 0)
    /// Connections accepted per poll round (then `stop()` is looked at again).
    static let batch = 64

    /// Makes the wake-up pipe and registers it with `core`; `run(_:)` starts the thread.
    init(listenSocket: Int32, core: ServerCore) throws(HTTPServerError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .startFailed }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        self.listenSocket = listenSocket
        self.core = core
        wakeRead = fds[0]
        wakeWrite = fds[1]
        core.connections.withLock { $0.wake = fds[1] }
    }

    /// The pipe stays open until the acceptor goes, after the daemon has stopped: libmicrohttpd's connection
    /// callback may write to it until then.
    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts accepting for `daemon`.
    func run(_ daemon: DaemonPointer) {
        let thread = Thread { [self] in
            defer { finished.signal() }
            acceptLoop(daemon.pointer)
        }
        thread.name = "latchkey-accept"
        thread.start()
    }

    /// Stops the thread (it finishes the connection in hand) and closes the listening socket. Only the first call
    /// does anything; it must come before the daemon is stopped.
    func stop() {
        let first = stopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        Self.wake(wakeWrite)
        finished.wait()
        close(listenSocket)
    }

    /// Writes a byte to a wake-up pipe (a full pipe is already readable).
    static func wake(_ descriptor: Int32) {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }

    func acceptLoop(_ daemon: OpaquePointer) {
        var waitForClose = false
        var backOff = false
        while true {
            var events = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                          pollfd(fd: waitForClose ? -1 : listenSocket, events: Int16(POLLIN), revents: 0)]
            // Backing off (out of descriptors or memory): again in 100 ms, or at the next close.
            let ready = poll(&events, 2, backOff ? 100 : -1)
            if ready > 0, events[0].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &bytes, bytes.count) > 0 {}
            }
            if stopping.withLock({ $0 }) { return }
            if ready < 0 {
                backOff = errno != EINTR
                continue
            }
            (waitForClose, backOff) = acceptBatch(daemon)
        }
    }

    /// `accept(2)`, the connection non-blocking and close-on-exec from the start on Linux (`accept4`), so a fork and
    /// exec on another thread at that moment cannot inherit it (a child holding it would keep it open after the
    /// server closes it). Elsewhere close-on-exec follows at once; `MHD_add_connection` makes it non-blocking.
    static func acceptConnection(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>,
                                 _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
        #if canImport(Glibc)
        return latchkey_accept4(socket, address, length, ListenSocket.acceptFlags)
        #else
        let connection = accept(socket, address, length)
        if connection >= 0 { _ = fcntl(connection, F_SETFD, FD_CLOEXEC) }
        return connection
        #endif
    }

    /// Accepts up to `batch` connections and hands them over. Returns whether to wait for a close (the limit is
    /// reached) and whether to back off (accept failed for lack of resources).
    func acceptBatch(_ daemon: OpaquePointer) -> (waitForClose: Bool, backOff: Bool) {
        for _ in 0..<Self.batch {
            guard core.connections.withLock({ $0.reserve() }) else { return (true, false) }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let connection = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.acceptConnection(listenSocket, $0, &length) }
            }
            guard connection >= 0 else {
                let code = errno
                core.connections.withLock { $0.cancel() }
                switch code {
                case EAGAIN, EWOULDBLOCK: return (false, false)
                // A connection that failed before it was accepted, or a signal: the next one.
                case EINTR, ECONNABORTED, EPROTO, ENETDOWN, ENETUNREACH, EHOSTUNREACH, EHOSTDOWN, ENOPROTOOPT, EOPNOTSUPP:
                    continue
                default:
                    // EMFILE, ENFILE, ENOBUFS, ENOMEM: wait for a close or 100 ms, as libmicrohttpd does.
                    core.connections.withLock { $0.acceptorWaits = true }
                    return (true, true)
                }
            }
            let added = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, connection, $0, length) }
            }
            // Refused (the per-address limit, memory): libmicrohttpd has closed it and will not report it.
            if added != .YES { core.connections.withLock { $0.cancel() } }
        }
        return (false, false)
    }
}
