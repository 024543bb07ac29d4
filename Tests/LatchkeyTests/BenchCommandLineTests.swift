#if !LATCHKEY_APPLE_FRAMEWORKS  // the command-line products are not built in the Apple mode
import Foundation
import LatchkeyTestSupport
import Testing

/// `latchkey-bench --help` prints usage instead of running every figure.
@Suite(.offCooperativePool) struct BenchCommandLineTests {
    func run(_ arguments: [String]) throws -> ChildProcess.Result {
        let directory = try #require(LatchkeyCLI.binary, "build the products first").deletingLastPathComponent()
        let bench = directory.appendingPathComponent("latchkey-bench").path
        try #require(FileManager.default.isExecutableFile(atPath: bench), "build latchkey-bench first")
        return try ChildProcess.run(bench, arguments, environment: ProcessInfo.processInfo.environment)
    }

    @Test func helpPrintsUsageAndRunsNothing() throws {
        for flag in ["--help", "-h"] {
            let result = try run([flag])
            #expect(result.status == 0)
            #expect(result.output.hasPrefix("usage: swift run -c release latchkey-bench"))
            #expect(!result.output.contains("ratio") || result.output.contains("the ratio between them"))
            #expect(result.output.split(separator: "\n").count < 20, "no figure was run")
        }
    }

    @Test func unknownArgumentsAreUsageErrors() throws {
        let result = try run(["--fitler", "aead"])
        #expect(result.status == 64)
        #expect(result.output.contains("unknown argument '--fitler'"))
    }
}
#endif
