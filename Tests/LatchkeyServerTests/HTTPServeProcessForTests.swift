import Foundation
import LatchkeyTestSupport
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#endif

enum ServeProcessError: Error {
    case binaryNotFound
    case exitedEarly(String)
}

/// A `latchkey serve` child process on a free loopback port (the binary built next to the test bundle).
final class ServeProcess: Sendable {
    let process: Process
    let port: UInt16
    let baseURL: String
    /// Standard error of the child (its access log and messages), read after it exits.
    let errorPipe: Pipe

    /// The `latchkey` executable built by `swift build --build-tests`.
    static func binary() throws -> URL {
        let fileManager = FileManager.default
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let url = directory.appendingPathComponent("latchkey")
            if fileManager.isExecutableFile(atPath: url.path) { return url }
        }
        throw ServeProcessError.binaryNotFound
    }

    /// Runs `latchkey` with `arguments` to completion and returns its standard output.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let result = try await runCapturingErrors(arguments)
        return (result.status, result.output)
    }

    /// Runs `latchkey` with `arguments` to completion and returns its standard output and standard error.
    static func runCapturingErrors(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let binary = try binary()
        return try await onThread {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            let pipe = Pipe()
            let errorPipe = Pipe()
            process.standardOutput = pipe
            process.standardError = errorPipe
            try process.run()
            // A command that runs to completion (`--print-routes`, a refused start): killed if it hangs.
            DispatchQueue.global().asyncAfter(deadline: .now() + 300) {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            // Standard error is read on another thread so neither pipe can fill up and block the child.
            let errorData = Locked(Data())
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                let data = errorPipe.fileHandleForReading.readDataToEndOfFile()
                errorData.withLock { $0 = data }
            }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            group.wait()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self),
                    String(decoding: errorData.withLock { $0 }, as: UTF8.self))
        }
    }

    /// Starts `latchkey serve --port 0 <extra>` and waits for its `listening on http://...` line.
    init(_ extra: [String] = []) async throws {
        let binary = try Self.binary()
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--threads", "2"] + extra
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Watchdog: a child that never says it is listening is killed (which ends the read below). Only such a child:
        // one that did is the test's to stop, however long a loaded machine makes the test take (an unconditional
        // SIGKILL at 60 s used to kill servers in the middle of their tests during a busy `make test`).
        let watched = process
        let listening = Locked(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + 300) {
            if !listening.withLock({ $0 }), watched.isRunning { kill(watched.processIdentifier, SIGKILL) }
        }
        let reader = output.fileHandleForReading
        let line = try await onThread { () -> String in
            var seen = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { throw ServeProcessError.exitedEarly(String(decoding: seen, as: UTF8.self)) }
                seen += chunk
                let text = String(decoding: seen, as: UTF8.self)
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://") }) {
                    listening.withLock { $0 = true }
                    return String(line)
                }
            }
        }
        let url = String(line.dropFirst("listening on ".count))
        guard let portText = url.split(separator: ":").last, let port = UInt16(portText) else {
            process.terminate()
            throw ServeProcessError.exitedEarly(line)
        }
        self.process = process
        self.port = port
        self.baseURL = url
        self.errorPipe = errors
    }

    /// Sends SIGTERM and waits for the exit status (SIGKILL after 30 s).
    func stop() async throws -> Int32 {
        let process = process
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }  // never a reaped (maybe reused) pid
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        return try await onThread {
            process.waitUntilExit()
            return process.terminationStatus
        }
    }
}
