import Foundation

/// How an `HTTPServer` listens and what it tolerates from clients.
public struct HTTPServerConfiguration: Sendable {
    /// IPv4 or IPv6 literal to bind; loopback by default.
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free port (read it back from `HTTPServer.port`).
    public var port: UInt16 = 8080
    /// libmicrohttpd worker threads (each runs its own epoll loop).
    public var threads: Int = 4
    /// Seconds of client inactivity before the connection is closed (slow or stalled clients are cut off).
    public var connectionTimeout: Int = 10
    /// Connections served at once, over all clients.
    public var connectionLimit: Int = 1024
    /// Connections accepted beyond `connectionLimit` only to be refused at once: their requests get 503 with
    /// `Retry-After` and `Connection: close` (`/healthz` is still answered), so a client over the limit learns
    /// it in milliseconds instead of waiting in the kernel's backlog. Past `connectionLimit + overflowConnections`
    /// the server stops accepting and new connections wait in the backlog.
    public var overflowConnections: Int = 64
    /// Connections open at once from one IP address (0 = no per-address limit).
    public var perIPConnectionLimit: Int = 128
    /// Memory per connection for headers and read buffers, in bytes.
    public var connectionMemoryLimit: Int = 32 * 1024
    /// Largest request body accepted, in bytes; larger bodies get 413.
    public var maxBodyBytes: Int = 64 * 1024
    /// Access log sink; `nil` turns the log off.
    public var accessLog: AccessLog? = .standardError
    /// How long a graceful shutdown waits for requests in flight.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// Start async handlers on the server thread that received the request, so a handler that never suspends
    /// is answered without a thread hop; at its first real suspension the connection is suspended and the
    /// handler continues on Swift's global executor. Heavy synchronous work (Argon2) must therefore run off
    /// the caller's thread (a hashing queue) — as it must anyway. `false` always hops to the global executor.
    public var runsHandlersInline: Bool = true
    /// `listen(2)` backlog.
    public var listenBacklog: Int = 1024
    /// Peers (load balancers, reverse proxies) whose `X-Forwarded-For` is believed: a request from one of
    /// them gets the rightmost address of that header as its `remoteAddress` (what throttling and the access
    /// log use). Empty by default: the header is ignored, since any client can send it.
    public var trustedProxies: Set<String> = []

    public init(host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int = 4, accessLog: AccessLog? = .standardError) {
        self.host = host
        self.port = port
        self.threads = threads
        self.accessLog = accessLog
    }
}
