import Foundation
import LatchkeyTestSupport
import LatchkeyServer
import LatchkeySupport
import Testing

/// A graceful shutdown under load must never abort the process. libmicrohttpd 0.9.75's `MHD_quiesce_daemon`
/// removes the listening socket from each epoll worker's set from the caller's thread while the worker may be
/// removing it itself (it saw the quiesce flag, or "at the connection limit, disable listen socket"); the flags
/// are neither atomic nor locked, so one side gets ENOENT and `MHD_PANIC` aborts the process ("Failed to remove
/// listen FD from epoll set", daemon.c:4976 or :5531). The cycles run in a child process (this test binary
/// again), so an abort fails this test instead of killing the test run: the child must exit normally.
@Suite("HTTP shutdown under load", .serialized, .offCooperativePool)
struct HTTPShutdownRaceTests {
    static let childVariable = "LATCHKEY_SHUTDOWN_RACE_CHILD"
    /// Cycles run side by side in the child (a shutdown mostly waits, so one loop alone leaves the cores idle).
    static let loops = 4
    /// Start → load → shutdown cycles per loop. With `MHD_quiesce_daemon` about one cycle in 500 aborted: the child
    /// aborted in each of 10 runs of this test, 1.5 to 6 s into its run (all of it takes about 8 s).
    static let cyclesPerLoop = 600
    /// Answers the clients collect in a cycle before the shutdown begins (a count, not a time).
    static let answersBeforeShutdown = 5
    static let finishedMarker = "shutdown-race-child: all cycles done"

    #if os(Linux)
    // Linux only: the race is libmicrohttpd's epoll code, and the child is this binary found through /proc.
    @Test func shutdownUnderLoadAtTheConnectionLimitNeverAbortsTheProcess() async throws {
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let result = try await onThread { try Self.runChild(binary) }
        // libmicrohttpd's "Fatal error in GNU libmicrohttpd daemon.c:…" and the child's failures, else its last lines.
        let notable = result.output.split(separator: "\n").filter { $0.contains("Fatal error") || $0.contains("✘") }.prefix(8)
        let summary = notable.isEmpty ? String(result.output.suffix(1500)) : notable.joined(separator: "\n")
        #expect(result.reason == .exit, "the child was killed by signal \(result.status): \(summary)")
        #expect(result.status == 0, "the child failed: \(summary)")
        #expect(result.output.contains(Self.finishedMarker), "the child did not run the cycles: \(summary)")
    }
    #endif

    /// The child (runs only with `childVariable` set): `loops` threads each running `cyclesPerLoop` cycles.
    @Test func childCycles() throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] == "1" else { return }
        let failures = Locked<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        for loop in 0..<Self.loops {
            Thread {
                defer { finished.signal() }
                for cycle in 0..<Self.cyclesPerLoop {
                    do {
                        let answers = try Self.cycle(threads: cycle % 2 == 0 ? 2 : 4)
                        if answers < Self.answersBeforeShutdown {
                            failures.withLock { $0.append("loop \(loop) cycle \(cycle): \(answers) answers") }
                        }
                    } catch {
                        failures.withLock { $0.append("loop \(loop) cycle \(cycle): \(error)") }
                    }
                }
            }.start()
        }
        for _ in 0..<Self.loops { finished.wait() }
        #expect(failures.withLock { $0 } == [])
        print(Self.finishedMarker)
    }

    /// One cycle: a server whose workers flap at their connection limit (2 + 2 overflow over `threads` workers),
    /// a client opening a connection per request and one on keep-alive, and a shutdown once they have had
    /// `answersBeforeShutdown` answers between them. Returns that number of answers.
    static func cycle(threads: Int) throws -> Int {
        var configuration = HTTPServerConfiguration(port: 0, threads: threads, accessLog: nil)
        configuration.connectionLimit = 2
        configuration.overflowConnections = 2
        configuration.perIPConnectionLimit = 0
        configuration.connectionTimeout = 5
        let server = HTTPServer(configuration: configuration, router: Router([]))
        try server.start()
        let port = server.port
        let answers = Locked(0)
        let attempts = Locked(0)
        let stop = Locked(false)
        let done = DispatchSemaphore(value: 0)
        let clients = 2
        for client in 0..<clients {
            Thread {
                defer { done.signal() }
                let keepAlive = client == 1
                let request = "GET /healthz HTTP/1.1\r\nHost: t\r\n" + (keepAlive ? "\r\n" : "Connection: close\r\n\r\n")
                while !stop.withLock({ $0 }) {
                    attempts.withLock { $0 += 1 }
                    guard let connection = try? RawConnection(port: port, receiveTimeoutSeconds: 10) else { continue }
                    for _ in 0..<(keepAlive ? 50 : 1) {
                        guard (try? connection.send(request)) != nil, (try? connection.readResponse()) != nil else { break }
                        answers.withLock { $0 += 1 }
                        if stop.withLock({ $0 }) { break }
                    }
                }
            }.start()
        }
        // A server that answers nothing must not hang the child: it gives up after many connection attempts.
        while answers.withLock({ $0 }) < answersBeforeShutdown, attempts.withLock({ $0 }) < 1000 * answersBeforeShutdown {
            usleep(200)
        }
        server.shutdownBlocking(gracePeriod: .milliseconds(200))
        stop.withLock { $0 = true }
        for _ in 0..<clients { done.wait() }
        return answers.withLock { $0 }
    }

    /// Runs this test binary's `childCycles` to completion: how it ended, its status or signal, and its output (stdout
    /// and stderr, where libmicrohttpd writes its "Fatal error" line). The output goes to a file, not a pipe: a daemon
    /// another test of this process spawns meanwhile could inherit a pipe's write end and hold it open.
    static func runChild(_ binary: String) throws -> (reason: Process.TerminationReason, status: Int32, output: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("shutdown-race-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        guard FileManager.default.createFile(atPath: log.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: log.path) else { throw POSIXError(.EIO) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: binary)
        child.arguments = ["--testing-library", "swift-testing", "--filter", "HTTPShutdownRaceTests/childCycles"]
        child.environment = ProcessInfo.processInfo.environment.merging([childVariable: "1"]) { $1 }
        (child.standardOutput, child.standardError, child.standardInput) = (handle, handle, FileHandle.nullDevice)
        try child.run()
        child.waitUntilExit()
        try? handle.close()
        let output = (try? Data(contentsOf: log)) ?? Data()
        return (child.terminationReason, child.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
