import Foundation
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#endif

/// A detached tmux session on a private server socket: a real pseudo-terminal a test can type into and read.
struct TmuxSession {
    let socket: String
    let name = "latchkey"
    /// The tmux server's pid (killed in `kill()` if `kill-server` leaves it running).
    private(set) var serverPID: Int32 = 0

    struct Timeout: Error, CustomStringConvertible {
        let waitingFor: String
        let screen: String
        var description: String { "timed out waiting for “\(waitingFor)”; screen:\n\(screen)" }
    }

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Starts `command` (argv) with `environment` in a 160×50 terminal.
    init(command: [String], environment: [String: String], directory: URL) throws {
        socket = directory.appendingPathComponent("tmux.sock").path
        let assignments = environment.filter { !$0.key.contains("=") && $0.key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }
            .map { "\($0.key)=\(Self.quote($0.value))" }.sorted()
        let line = (["exec", "env", "-i"] + assignments + command.map(Self.quote)).joined(separator: " ")
        let result = try tmux(["new-session", "-d", "-s", name, "-x", "160", "-y", "50", line])
        guard result.status == 0 else { throw Timeout(waitingFor: "tmux start", screen: result.output) }
        _ = try tmux(["set-option", "-t", name, "remain-on-exit", "on"])
        serverPID = Int32(try tmux(["display-message", "-p", "#{pid}"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Runs a tmux client to completion (`SpawnedCommand`: the tmux server daemon it may start must not inherit
    /// Foundation's process-monitoring sockets, or `Process` would never see those children exit).
    @discardableResult
    func tmux(_ arguments: [String]) throws -> ChildProcess.Result {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try SpawnedCommand.run(["/usr/bin/tmux", "-S", socket] + arguments, outputPath: outputPath)
        return ChildProcess.Result(status: status, output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }

    /// Types `text` literally, then Enter.
    func type(_ text: String) throws {
        if !text.isEmpty { try tmux(["send-keys", "-t", name, "-l", text]) }
        try tmux(["send-keys", "-t", name, "Enter"])
    }

    /// The whole scrollback as text.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-J", "-t", name, "-S", "-2000"]).output
    }

    /// Waits until the screen contains `text` `occurrences` times (bounded: 60 s).
    @discardableResult
    func waitFor(_ text: String, occurrences: Int = 1) throws -> String {
        let deadline = Date().addingTimeInterval(60)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if last.components(separatedBy: text).count - 1 >= occurrences { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw Timeout(waitingFor: text, screen: last)
    }

    /// Waits until the program in the pane has exited (bounded: 60 s); returns its exit status.
    func waitUntilExited() throws -> Int32? {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let state = try tmux(["display-message", "-p", "-t", name, "#{pane_dead} #{pane_dead_status} #{pane_dead_signal}"]).output
                .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
            if state.first == "1" {
                // "1 STATUS" after exit(STATUS); "1  SIGNAL" (or "1 SIGNAL") when a signal killed it.
                return state.count >= 2 ? Int32(state[1]) ?? -(Int32(state.last ?? "") ?? 0) : nil
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw Timeout(waitingFor: "the program to exit", screen: (try? screen()) ?? "")
    }

    func kill() {
        _ = try? tmux(["kill-server"])
        // Only if that pid is still this test's tmux server (never a reused pid).
        if serverPID > 0, let command = FileManager.default.contents(atPath: "/proc/\(serverPID)/cmdline"),
           String(decoding: command, as: UTF8.self).contains(socket) {
            #if canImport(Glibc)
            Glibc.kill(serverPID, SIGKILL)
            #else
            Darwin.kill(serverPID, SIGKILL)
            #endif
        }
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
