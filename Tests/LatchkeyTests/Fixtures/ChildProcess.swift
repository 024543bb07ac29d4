import Foundation

/// Runs a child process to completion and captures its output (test helper).
struct ChildProcess {
    struct Result {
        var status: Int32
        var output: String
    }

    /// The running test binary (so a test can re-run it with `--filter` of a child-mode test).
    static var testBinary: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Arguments that run exactly one Swift Testing test of this binary.
    static func filterArguments(_ testName: String) -> [String] {
        ["--testing-library", "swift-testing", "--filter", testName]
    }

    /// Runs to completion. Output goes through a temporary file, not a pipe, so a child that leaves a
    /// daemon behind (tmux) cannot keep the read open.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    input: Data? = nil) throws -> Result {
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).out")
        guard FileManager.default.createFile(atPath: outputURL.path, contents: nil) else { throw POSIXError(.EIO) }
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        let data = (try? Data(contentsOf: outputURL)) ?? Data()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// A fresh temporary directory, removed by the caller.
    /// A path for a simulated sensor's state file (`prefix-<uuid>.json` and its `.lock`), in one temporary directory
    /// of this process that is removed when the process exits: the files outlive the fixtures that made them.
    static func simulatorStateFile(_ prefix: String) -> URL {
        scratch.appendingPathComponent("\(prefix)-\(UUID().uuidString).json")
    }

    private static let scratch: URL = {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ChildProcess.scratch) }
        return directory
    }()

    static func temporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
