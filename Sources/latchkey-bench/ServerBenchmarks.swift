import CMicroHTTPD
import Foundation
import LatchkeyServer
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#endif

// HTTP load figures: our server against a bare libmicrohttpd responder (and nginx serving a static file, when
// installed), each driven by wrk at 32 connections on loopback for a few seconds.

enum ServerBenchmarks {
    static let all: [Benchmark] = []
    static let measurements: [Measurement] = [
        Measurement(name: "http GET /healthz") { try healthz() },
        Measurement(name: "http POST JSON echo") { try jsonEcho() },
    ]

    static let connections = 32
    static let seconds = 3

    /// GET /healthz on our server (synchronous fast path and an async route) vs a bare responder and nginx.
    static func healthz() throws -> [String] {
        guard LoadGenerator.isAvailable else { return [LoadGenerator.notRun("http GET /healthz")] }
        let bare = try BareResponder(threads: 4)
        defer { bare.stop() }
        // The async route returns the same prepared response as /healthz: the difference is the suspend/resume hop.
        let prepared = HTTPResponse.json(["status": "ok"])
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 4, accessLog: nil),
                                router: Router([Route("GET", "/healthz-async") { _ in prepared }]))
        try server.start()
        defer { server.shutdownBlocking(gracePeriod: .seconds(1)) }
        var hopping = HTTPServerConfiguration(port: 0, threads: 4, accessLog: nil)
        hopping.runsHandlersInline = false
        let hopServer = HTTPServer(configuration: hopping,
                                   router: Router([Route("GET", "/healthz-async") { _ in prepared }]))
        try hopServer.start()
        defer { hopServer.shutdownBlocking(gracePeriod: .seconds(1)) }
        let nginx = try? NginxStatic(body: #"{"status":"ok"}"#)
        defer { nginx?.stop() }

        var bareBest: LoadResult?, syncBest: LoadResult?, asyncBest: LoadResult?, hopBest: LoadResult?, nginxBest: LoadResult?
        for _ in 0..<2 {
            bareBest = .better(bareBest, try LoadGenerator.run(url: "http://127.0.0.1:\(bare.port)/healthz",
                                                               connections: connections, seconds: seconds))
            syncBest = .better(syncBest, try LoadGenerator.run(url: "\(server.baseURL)/healthz",
                                                               connections: connections, seconds: seconds))
            asyncBest = .better(asyncBest, try LoadGenerator.run(url: "\(server.baseURL)/healthz-async",
                                                                 connections: connections, seconds: seconds))
            hopBest = .better(hopBest, try LoadGenerator.run(url: "\(hopServer.baseURL)/healthz-async",
                                                             connections: connections, seconds: seconds))
            if let nginx {
                nginxBest = .better(nginxBest, try LoadGenerator.run(url: "http://127.0.0.1:\(nginx.port)/healthz.json",
                                                                     connections: connections, seconds: seconds))
            }
        }
        guard let bareBest, let syncBest, let asyncBest, let hopBest else { return [] }
        var lines = [
            "http GET /healthz, \(connections) connections, wrk \(seconds) s (best of 2):",
            "  bare libmicrohttpd responder   \(bareBest.summary)",
            "  latchkey /healthz (sync route) \(syncBest.summary)  ratio \(ratio(syncBest, bareBest)) vs bare",
            "  latchkey async route (inline)  \(asyncBest.summary)  ratio \(ratio(asyncBest, bareBest)) vs bare,"
                + " \(ratio(asyncBest, syncBest)) vs sync",
            "  latchkey async route (hop)     \(hopBest.summary)  ratio \(ratio(hopBest, bareBest)) vs bare,"
                + " \(ratio(hopBest, syncBest)) vs sync (suspend + global executor + resume)",
        ]
        if let nginxBest {
            lines.append("  nginx static file              \(nginxBest.summary)  latchkey sync/nginx \(ratio(syncBest, nginxBest))")
        } else {
            lines.append("  nginx: skipped (\(nginx == nil ? "not installed or failed to start" : "no result"))")
        }
        return lines
    }

    /// POST /v1/echo with a JSON body (decoded and re-encoded with Codable, async route) vs the bare responder
    /// answering the same POST.
    static func jsonEcho() throws -> [String] {
        guard LoadGenerator.isAvailable else { return [LoadGenerator.notRun("http POST JSON echo")] }
        struct Echo: Codable, Sendable { var name: String; var count: Int }
        let bare = try BareResponder(threads: 4)
        defer { bare.stop() }
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 4, accessLog: nil),
                                router: Router([Route("POST", "/v1/echo") { request in
                                    do throws(HTTPRequestError) {
                                        return .json(try request.decodeJSON(Echo.self))
                                    } catch {
                                        return error.response
                                    }
                                }]))
        try server.start()
        defer { server.shutdownBlocking(gracePeriod: .seconds(1)) }
        let body = #"{"name":"refresh-token-sized-payload-0123456789abcdef0123456789abcdef","count":1}"#
        var bareBest: LoadResult?, echoBest: LoadResult?
        for _ in 0..<2 {
            bareBest = .better(bareBest, try LoadGenerator.run(url: "http://127.0.0.1:\(bare.port)/v1/echo", connections: connections,
                                                               seconds: seconds, method: "POST", body: body))
            echoBest = .better(echoBest, try LoadGenerator.run(url: "\(server.baseURL)/v1/echo", connections: connections,
                                                               seconds: seconds, method: "POST", body: body))
        }
        guard let bareBest, let echoBest else { return [] }
        return [
            "http POST JSON echo (\(body.utf8.count)-byte body), \(connections) connections, wrk \(seconds) s (best of 2):",
            "  bare libmicrohttpd responder   \(bareBest.summary)",
            "  latchkey Codable echo (async)  \(echoBest.summary)  ratio \(ratio(echoBest, bareBest)) vs bare",
        ]
    }

    static func ratio(_ subject: LoadResult, _ base: LoadResult) -> String {
        String(format: "%.3fx", subject.requestsPerSecond / max(base.requestsPerSecond, 1))
    }
}

// MARK: load generator

/// One wrk run: throughput, latency percentiles and failures.
struct LoadResult: Sendable {
    var requestsPerSecond: Double
    var p50Microseconds: Double
    var p99Microseconds: Double
    /// Answers that were not 2xx or 3xx, by status (counted by the script `LoadGenerator` adds to every run).
    var statuses: [Int: Int] = [:]
    /// wrk's socket errors by kind (connect, read, write, timeout), the ones that happened.
    var socketErrors: [String: Int] = [:]
    /// wrk's own count of non-2xx/3xx answers (`statuses` adds up to it).
    var non2xx3xx = 0

    /// Non-2xx/3xx answers plus socket errors.
    var errors: Int { max(non2xx3xx, statuses.values.reduce(0, +)) + socketErrors.values.reduce(0, +) }

    /// "0", or the total and its kinds: "6 (status 502: 6)", "2 (read: 2)".
    var errorKinds: String {
        guard errors > 0 else { return "0" }
        var kinds = statuses.sorted { $0.key < $1.key }.map { "status \($0.key): \($0.value)" }
        kinds += socketErrors.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        if non2xx3xx > statuses.values.reduce(0, +) { kinds.append("status not counted: \(non2xx3xx - statuses.values.reduce(0, +))") }
        return "\(errors) (\(kinds.joined(separator: ", ")))"
    }

    var summary: String {
        String(format: "%8.0f req/s  p50 %@  p99 %@  errors %@", requestsPerSecond,
               Harness.format(ns: p50Microseconds * 1000), Harness.format(ns: p99Microseconds * 1000), errorKinds)
    }

    static func better(_ a: LoadResult?, _ b: LoadResult) -> LoadResult {
        guard let a else { return b }
        return a.requestsPerSecond >= b.requestsPerSecond ? a : b
    }
}

enum LoadGeneratorError: Error, CustomStringConvertible {
    case notInstalled
    case failed(String)
    var description: String {
        switch self {
        case .notInstalled: return "wrk is not installed (apt-get install -y wrk)"
        case .failed(let output): return "wrk failed: \(output.prefix(300))"
        }
    }
}

/// Drives a URL with wrk (bounded in time). Reusable for other server figures, e.g. token refresh requests/s:
/// pass `method: "POST"`, a `body` and `contentType`, or a whole wrk Lua `script` when every request must differ
/// (rotating refresh tokens: a `request()` function that returns `wrk.format("POST", path, headers, body)`).
enum LoadGenerator {
    static let executable = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var isAvailable: Bool { executable != nil }

    /// The line printed (and the miss recorded) for an HTTP figure that cannot run: never skipped silently.
    static func notRun(_ figure: String) -> String {
        Outcomes.miss("\(figure): not run, wrk is missing")
        return "\(figure): NOT RUN — wrk is not installed. Install it with `apt-get install -y wrk` (Debian), "
            + "or run `make bench`, which installs wrk and nginx-light before running every figure."
    }

    static func run(url: String, connections: Int = 32, seconds: Int = 3, threads: Int = 2, method: String = "GET",
                    body: String? = nil, contentType: String = "application/json", script: String? = nil) throws -> LoadResult {
        guard let executable else { throw LoadGeneratorError.notInstalled }
        var arguments = ["-t", String(threads), "-c", String(connections), "-d", "\(seconds)s", "--latency", "--timeout", "5s"]
        let lua = (script ?? (method == "GET" && body == nil ? "" : """
            wrk.method = "\(method)"
            wrk.body = [==[\(body ?? "")]==]
            wrk.headers["Content-Type"] = "\(contentType)"
            """)) + "\n" + statusCounting
        let scriptURL = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-wrk-\(UUID().uuidString).lua")
        try lua.write(to: scriptURL, atomically: true, encoding: .utf8)
        arguments += ["-s", scriptURL.path]
        defer { try? FileManager.default.removeItem(at: scriptURL) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + [url]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0, let result = parse(output) else { throw LoadGeneratorError.failed(output) }
        return result
    }

    /// Appended to every run's script: counts the answers that are not 2xx/3xx by status in each thread and prints
    /// the totals at the end (`latchkey-status <code> <count>`), so a failed figure says what failed. A script's own
    /// `setup` and `init` still run.
    static let statusCounting = """
        local latchkey_threads = {}
        local latchkey_setup = setup
        function setup(thread)
          table.insert(latchkey_threads, thread)
          if latchkey_setup then latchkey_setup(thread) end
        end
        local latchkey_init = init
        function init(args)
          latchkey_statuses = {}
          if latchkey_init then latchkey_init(args) end
        end
        function response(status, headers, body)
          if status < 200 or status > 399 then latchkey_statuses[status] = (latchkey_statuses[status] or 0) + 1 end
        end
        function done(summary, latency, requests)
          local total = {}
          for _, thread in ipairs(latchkey_threads) do
            for status, count in pairs(thread:get("latchkey_statuses") or {}) do total[status] = (total[status] or 0) + count end
          end
          for status, count in pairs(total) do io.write(string.format("latchkey-status %d %d\\n", status, count)) end
        end
        """

    /// Parses wrk's `--latency` report and the status counts of `statusCounting`.
    static func parse(_ output: String) -> LoadResult? {
        var rps: Double?
        var result = LoadResult(requestsPerSecond: 0, p50Microseconds: 0, p99Microseconds: 0)
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("Requests/sec:"), fields.count >= 2 { rps = Double(fields[1]) }
            if fields.count == 2, fields[0] == "50%" { result.p50Microseconds = microseconds(fields[1]) }
            if fields.count == 2, fields[0] == "99%" { result.p99Microseconds = microseconds(fields[1]) }
            if line.contains("Non-2xx or 3xx responses:"), let last = fields.last { result.non2xx3xx += Int(last) ?? 0 }
            if fields.count == 3, fields[0] == "latchkey-status", let status = Int(fields[1]), let count = Int(fields[2]) {
                result.statuses[status, default: 0] += count
            }
            // "Socket errors: connect 0, read 3, write 0, timeout 0"
            if line.contains("Socket errors:") {
                let words = line.split(separator: ":", maxSplits: 1).last.map { $0.split(separator: ",") } ?? []
                for word in words {
                    let pair = word.split(separator: " ")
                    if pair.count == 2, let count = Int(pair[1]), count > 0 { result.socketErrors[String(pair[0]), default: 0] += count }
                }
            }
        }
        guard let rps else { return nil }
        result.requestsPerSecond = rps
        return result
    }

    static func microseconds(_ text: Substring) -> Double {
        for (suffix, scale) in [("us", 1.0), ("ms", 1000.0), ("s", 1_000_000.0)] where text.hasSuffix(suffix) {
            return (Double(text.dropLast(suffix.count)) ?? 0) * scale
        }
        return Double(text) ?? 0
    }
}

// MARK: baselines

/// A free loopback TCP port (bound and released).
func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, PortableSocket.stream, 0)
    guard fd >= 0 else { throw LoadGeneratorError.failed("socket") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw LoadGeneratorError.failed("bind") }
    return UInt16(bigEndian: address.sin_port)
}

/// The smallest libmicrohttpd responder, written directly against the C API: one static JSON response for every
/// request, queued on the final call (keep-alive), same threading as our server.
final class BareResponder: Sendable {
    /// `@unchecked Sendable`: the daemon pointer is only passed to MHD_stop_daemon once.
    struct Daemon: @unchecked Sendable { let pointer: OpaquePointer }
    let daemon: Daemon
    let port: UInt16

    init(threads: Int) throws {
        let port = try freeLoopbackPort()
        self.port = port
        let options: [any CVarArg] = [MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(threads),
                                      MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(10), MHD_OPTION.END.rawValue]
        let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue
        let started = withVaList(options) { MHD_start_daemon_va(flags, port, nil, nil, bareAccessHandler, nil, $0) }
        guard let started else { throw LoadGeneratorError.failed("MHD_start_daemon") }
        daemon = Daemon(pointer: started)
    }

    func stop() { MHD_stop_daemon(daemon.pointer) }
}

/// One response shared by every request (libmicrohttpd reference-counts it).
/// `@unchecked Sendable`: created once, then only handed to MHD_queue_response, which does not mutate it.
struct SharedResponse: @unchecked Sendable {
    let pointer: OpaquePointer?
    static let healthz: SharedResponse = {
        let body = Array(#"{"status":"ok"}"#.utf8)
        let response = body.withUnsafeBytes {
            MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
        if let response { _ = MHD_add_response_header(response, "Content-Type", "application/json") }
        return SharedResponse(pointer: response)
    }()
}

let bareAccessHandler: MHD_AccessHandlerCallback = { _, connection, _, _, _, _, uploadDataSize, slot in
    guard let slot, let uploadDataSize else { return .NO }
    if slot.pointee == nil {
        slot.pointee = UnsafeMutableRawPointer(bitPattern: 1)  // "headers seen"; never dereferenced
        return .YES
    }
    if uploadDataSize.pointee > 0 {
        uploadDataSize.pointee = 0
        return .YES
    }
    // libmicrohttpd's own function (the process's `MHD_queue_response` is LatchkeyServer's, for libmicrohttpd's refusals).
    return MicroHTTPD.queueResponse(connection, 200, SharedResponse.healthz.pointer)
}

/// nginx on a free loopback port serving one static file, from a temporary prefix (skipped when nginx is absent).
final class NginxStatic: Sendable {
    let process: Process
    let port: UInt16
    let directory: URL

    init(body: String) throws {
        guard let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw LoadGeneratorError.failed("nginx not installed")
        }
        port = try freeLoopbackPort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-nginx-\(UUID().uuidString)")
        let root = directory.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try body.write(to: root.appendingPathComponent("healthz.json"), atomically: true, encoding: .utf8)
        let path = directory.path
        let configuration = """
            worker_processes 2;
            daemon off;
            master_process on;
            user root;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(path)/body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
                keepalive_requests 1000000;
                types { application/json json; }
                server {
                    listen 127.0.0.1:\(port);
                    root \(root.path);
                }
            }
            """
        let file = directory.appendingPathComponent("nginx.conf")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-p", path, "-c", file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until it accepts connections.
        for _ in 0..<100 {
            if Self.canConnect(port) { return }
            usleep(20_000)
        }
        stop()
        throw LoadGeneratorError.failed("nginx did not start")
    }

    static func canConnect(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, PortableSocket.stream, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGQUIT)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
