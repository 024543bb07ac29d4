import Foundation
import LatchkeySupport
import LatchkeyTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `latchkey` child process that serves HTTP on 127.0.0.1 — `latchkey serve` with a SQLite database in a temporary
/// directory, or `latchkey apple-stand-in` — once it printed `listening on http://...`.
final class ServerProcess: @unchecked Sendable { // set once in init; Process is only asked to run, stop and wait
    let process = Process()
    let baseURL: URL
    let directory: URL

    /// `latchkey serve --port 0 ... <arguments>`, its clock moved by `advanceClock(by:)`.
    convenience init(binary: String, arguments: [String] = []) async throws {
        let directory = try ChildProcess.temporaryDirectory("latchkey-server")
        try await self.init(binary: binary, directory: directory,
                      command: ["serve", "--port", "0", "--threads", "2", "--access-log",
                                "--database", "sqlite:" + directory.appendingPathComponent("server.sqlite").path,
                                "--clock-offset-file", directory.appendingPathComponent(Self.clockOffsetName).path]
                          + arguments)
    }

    private static let clockOffsetName = "clock-offset"
    private let clockOffset = Locked<Int64>(0)

    /// Moves the server's clock `seconds` forward (`latchkey serve --clock-offset-file`): e.g. past the step-up max age,
    /// so that a sign-in made before is too old however fast the machine is. Only for `latchkey serve`.
    func advanceClock(by seconds: Int64) throws {
        try clockOffset.withLock { offset in
            offset += seconds
            try Data("\(offset)\n".utf8).write(to: directory.appendingPathComponent(Self.clockOffsetName), options: .atomic)
        }
    }

    /// `latchkey apple-stand-in --port 0 <arguments>`: the development stand-in for appleid.apple.com.
    static func appleStandIn(binary: String, arguments: [String] = []) async throws -> ServerProcess {
        try await ServerProcess(binary: binary, directory: try ChildProcess.temporaryDirectory("latchkey-apple"),
                          command: ["apple-stand-in", "--port", "0"] + arguments)
    }

    init(binary: String, directory: URL, command: [String]) async throws {
        self.directory = directory
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = command
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = nil
        process.environment = environment
        baseURL = try await startListening(process, errorLog: directory.appendingPathComponent(Self.errorLogName))
    }

    private static let errorLogName = "stderr.log"

    /// What the server wrote to its standard error so far (warnings, `--access-log` lines, a crash's report).
    var errorLog: String {
        (try? String(contentsOf: directory.appendingPathComponent(Self.errorLogName), encoding: .utf8)) ?? ""
    }

    /// The server's state for a failure message: running, or how it ended, and the end of its standard error.
    var diagnosis: String {
        let state = process.isRunning ? "running"
            : "exited (\(process.terminationReason == .uncaughtSignal ? "signal" : "status") \(process.terminationStatus))"
        return "latchkey at \(baseURL) is \(state); its standard error ends with:\n\(errorLog.suffix(2000))"
    }

    /// Sends a JSON (or form) request and returns the status and the decoded JSON object.
    func request(_ method: String, _ path: String, json: [String: String]? = nil,
                 bearer: String? = nil) async throws -> (status: Int, body: [String: Any]) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw ServerRequestFailure(request: "\(method) \(path)", underlying: error, server: diagnosis)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, body)
    }

    /// Stops the server (again: nothing) and removes its directory.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A request to a `ServerProcess` that got no answer: the client's error and what the server was doing.
struct ServerRequestFailure: Error, CustomStringConvertible {
    let request: String
    let underlying: any Error
    let server: String
    var description: String { "\(request): \(underlying)\n\(server)" }
}
