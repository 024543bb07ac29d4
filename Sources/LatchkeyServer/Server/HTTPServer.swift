import CMicroHTTPD
import Foundation
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd: an accept thread of its own (`Acceptor`), epoll worker threads, keep-alive,
/// connection and body limits, and async handlers that run on Swift concurrency while their connection is suspended
/// (so a slow handler, such as an Argon2id password check, does not hold up libmicrohttpd's threads).
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0), router: Router(routes))
/// try server.start()
/// print("listening on http://127.0.0.1:\(server.port)")
/// ```
public final class HTTPServer: Sendable {
    /// The configuration the server was made with.
    public let configuration: HTTPServerConfiguration
    let core: ServerCore
    let state = Locked<State>(.idle)

    /// `@unchecked Sendable`: the daemon pointer is used only while holding `state`'s lock or after being
    /// taken out of it by the one caller that stops the daemon.
    struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
        /// Owns the listening socket from `start` on.
        let acceptor: Acceptor
        let port: UInt16
    }

    enum State: Sendable {
        case idle
        case bound(ListenSocket)
        case running(Daemon)
        case draining(Daemon)
        case stopped
    }

    /// A server that dispatches through `router`.
    public init(configuration: HTTPServerConfiguration, router: Router) {
        self.configuration = configuration
        self.core = ServerCore(dispatch: .router(router), configuration: configuration)
    }

    /// A server that hands every request to `handler`.
    public init(configuration: HTTPServerConfiguration, handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.configuration = configuration
        self.core = ServerCore(dispatch: .handler(handler), configuration: configuration)
    }

    /// A server whose router is given to `start(router:)` (after `bind()`, when routes need the bound address).
    public init(configuration: HTTPServerConfiguration) {
        self.configuration = configuration
        self.core = ServerCore(dispatch: nil, configuration: configuration)
    }

    deinit {
        let daemon: Daemon? = state.withLock { state in
            switch state {
            case .running(let daemon), .draining(let daemon): return daemon
            case .bound(let socket):
                close(socket.descriptor)
                return nil
            case .idle, .stopped: return nil
            }
        }
        if let daemon {
            daemon.acceptor.stop()
            core.abandonSuspended()
            MHD_stop_daemon(daemon.pointer)
        }
    }

    /// Opens the listening socket without serving yet, so `port` and `baseURL` are known (connections wait in
    /// the backlog until `start`). Calling it again does nothing.
    public func bind() throws(HTTPServerError) {
        let configuration = configuration
        try state.withLock { (state: inout State) throws(HTTPServerError) in
            switch state {
            case .idle:
                state = .bound(try ListenSocket.open(host: configuration.host, port: configuration.port,
                                                     backlog: configuration.listenBacklog))
            case .bound: return
            case .running, .draining, .stopped: throw .alreadyStarted
            }
        }
    }

    /// Binds (unless `bind()` was called) and starts serving, through `router` when given (it replaces the one
    /// from `init`). Also makes the process ignore SIGPIPE (a client closing early must not kill it).
    public func start(router: Router? = nil) throws(HTTPServerError) {
        let configuration = configuration
        guard (1...64).contains(configuration.threads) else { throw .invalidConfiguration("threads must be 1...64") }
        guard configuration.connectionTimeout >= 1, configuration.connectionLimit >= 1,
              configuration.overflowConnections >= 0, configuration.connectionMemoryLimit >= 4096, configuration.perIPConnectionLimit >= 0 else {
            throw .invalidConfiguration("limits must be positive")
        }
        try state.withLock { (state: inout State) throws(HTTPServerError) in
            let socket: ListenSocket
            switch state {
            case .idle:
                socket = try ListenSocket.open(host: configuration.host, port: configuration.port,
                                               backlog: configuration.listenBacklog)
            case .bound(let bound):
                socket = bound
            case .running, .draining, .stopped:
                throw .alreadyStarted
            }
            if let router { core.dispatch = .router(router) }
            if case nil = core.dispatch {
                state = .bound(socket)
                throw .invalidConfiguration("no router or handler")
            }
            signal(SIGPIPE, SIG_IGN)
            let acceptor = try Acceptor(listenSocket: socket.descriptor, core: core)
            let coreReference = Unmanaged.passUnretained(core).toOpaque()
            // The accept thread enforces `connectionLimit + overflowConnections`; every worker may hold that many,
            // so none refuses a connection handed to it (its limit is the daemon's divided among the workers).
            let limit = core.connections.withLock { $0.limit }
            var options: [any CVarArg] = [
                MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(configuration.connectionTimeout),
                MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(limit * configuration.threads),
                MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, configuration.connectionMemoryLimit,
                MHD_OPTION.NOTIFY_COMPLETED.rawValue, unsafeBitCast(mhdRequestCompleted, to: OpaquePointer.self),
                OpaquePointer(coreReference),
                MHD_OPTION.NOTIFY_CONNECTION.rawValue, unsafeBitCast(mhdConnectionNotified, to: OpaquePointer.self),
                OpaquePointer(coreReference),
                MHD_OPTION.URI_LOG_CALLBACK.rawValue, unsafeBitCast(mhdTargetReceived, to: OpaquePointer.self),
                OpaquePointer(coreReference),
            ]
            if configuration.perIPConnectionLimit > 0 {
                options += [MHD_OPTION.PER_IP_CONNECTION_LIMIT.rawValue, UInt32(configuration.perIPConnectionLimit)]
            }
            if configuration.threads > 1 {
                options += [MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(configuration.threads)]
            }
            options.append(MHD_OPTION.END.rawValue)
            // No listening socket in libmicrohttpd: the acceptor hands it the connections (MHD_add_connection).
            let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
                | MHD_USE_NO_LISTEN_SOCKET.rawValue
            let daemon = withVaList(options) { list in
                MHD_start_daemon_va(flags, 0, nil, nil, mhdAccessHandler, coreReference, list)
            }
            guard let daemon else {
                state = .bound(socket)
                throw .startFailed
            }
            acceptor.run(Acceptor.DaemonPointer(pointer: daemon))
            state = .running(Daemon(pointer: daemon, acceptor: acceptor, port: socket.port))
        }
    }

    /// The bound port (useful when the configuration asked for port 0); 0 before `start()`.
    public var port: UInt16 {
        state.withLock { state in
            switch state {
            case .bound(let socket): return socket.port
            case .running(let daemon), .draining(let daemon): return daemon.port
            case .idle, .stopped: return 0
            }
        }
    }

    /// `http://HOST:PORT` of the running server.
    public var baseURL: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)"
    }

    /// Requests received and not yet completed.
    public var inFlightRequests: Int { core.inFlight.withLock { $0 } }

    /// TCP connections handed to libmicrohttpd and not yet closed by it (the fuzz target waits for 0 between inputs).
    package var openConnections: Int { core.connections.withLock { $0.open + $0.handedOver } }

    /// Whether the server is accepting connections.
    public var isRunning: Bool {
        state.withLock { if case .running = $0 { return true } else { return false } }
    }

    // MARK: shutdown

    /// Marks answers `Connection: close`, stops accepting connections and closes the listening socket (the port is
    /// free for a successor once `isRunning` is false). Returns the daemon if this call began the shutdown.
    ///
    /// Not `MHD_quiesce_daemon`: on an epoll daemon it races the workers over the listening socket and can abort the
    /// process (docs/ARCHITECTURE.md, Server). libmicrohttpd has no listening socket here; the acceptor stops.
    func beginShutdown() -> Daemon? {
        state.withLock { state in
            guard case .running(let daemon) = state else { return nil }
            core.draining.withLock { $0 = true }
            daemon.acceptor.stop()
            state = .draining(daemon)
            return daemon
        }
    }

    /// Shutdown of a server that was bound but never started: closes the socket.
    func releaseBoundSocket() {
        state.withLock { state in
            if case .bound(let socket) = state {
                close(socket.descriptor)
                state = .stopped
            }
        }
    }

    func endShutdown(_ daemon: Daemon) {
        MHD_stop_daemon(daemon.pointer)
        state.withLock { $0 = .stopped }
    }

    /// Graceful shutdown: stop accepting, let requests in flight finish (up to `gracePeriod`, by default the
    /// configuration's), answer handlers still running after that with 503, then stop the daemon.
    public func shutdown(gracePeriod: Duration? = nil) async {
        guard let daemon = beginShutdown() else { return releaseBoundSocket() }
        let deadline = ContinuousClock.now + (gracePeriod ?? configuration.shutdownGracePeriod)
        while inFlightRequests > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        core.abandonSuspended()
        let flushDeadline = ContinuousClock.now + .seconds(1)
        while inFlightRequests > 0, ContinuousClock.now < flushDeadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        endShutdown(daemon)
    }

    /// `shutdown(gracePeriod:)` for threads outside Swift concurrency (signal handlers, command-line tools).
    public func shutdownBlocking(gracePeriod: Duration? = nil) {
        guard let daemon = beginShutdown() else { return releaseBoundSocket() }
        let deadline = ContinuousClock.now + (gracePeriod ?? configuration.shutdownGracePeriod)
        while inFlightRequests > 0, ContinuousClock.now < deadline { usleep(10_000) }
        core.abandonSuspended()
        let flushDeadline = ContinuousClock.now + .seconds(1)
        while inFlightRequests > 0, ContinuousClock.now < flushDeadline { usleep(10_000) }
        endShutdown(daemon)
    }

    /// Blocks until one of `signals` (SIGTERM and SIGINT by default) arrives, then shuts down gracefully and
    /// returns the signal number. The handlers are installed (synchronously, with `sigaction`) before `ready`
    /// runs, so a signal sent as soon as the caller announces itself is never lost; once one has arrived the
    /// signals are ignored while the server drains.
    public func runUntilSignal(_ signals: [Int32] = [SIGTERM, SIGINT], ready: () -> Void = {}) -> Int32 {
        let pipe = SignalPipe.descriptors
        var action = sigaction()
        #if os(Linux)
        action.__sigaction_handler.sa_handler = SignalPipe.handler
        #else
        action.__sigaction_u.__sa_handler = SignalPipe.handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals {
            sigaction(number, &action, nil)
            sigaddset(&set, number)
        }
        // A parent may have started us with these signals blocked (the mask is inherited): take them here.
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        ready()
        var received: Int32 = 0
        while read(pipe.read, &received, MemoryLayout<Int32>.size) != MemoryLayout<Int32>.size {
            if errno != EINTR { received = 0; break }
        }
        for number in signals { signal(number, SIG_IGN) }
        shutdownBlocking()
        return received
    }
}

/// The self-pipe a signal handler writes the signal's number to (`write` is async-signal-safe); made once,
/// before any handler is installed.
enum SignalPipe {
    static let descriptors: (read: Int32, write: Int32) = {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }()
    /// `descriptors` is initialized by `runUntilSignal` before the handler is installed, so the handler only
    /// reads an initialized constant.
    static let handler: @convention(c) (Int32) -> Void = { number in
        var value = number
        _ = write(SignalPipe.descriptors.write, &value, MemoryLayout<Int32>.size)
    }
}
