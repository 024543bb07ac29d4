import Foundation
import LatchkeyTestSupport
import LatchkeySupport
import Testing

/// `SpawnedCommand`, which the cluster, PostgreSQL and tmux fixtures start their daemons with.
@Suite(.offCooperativePool)
struct SpawnedCommandTests {
    /// A descriptor this process holds open without close-on-exec (as Foundation's `Process` holds its monitoring
    /// sockets) is not inherited: a daemon the command leaves running cannot keep another child's `waitUntilExit`
    /// waiting. Before, the cluster test's PostgreSQL held such a socket and a concurrent `openssl` run never returned.
    @Test func theChildInheritsNothingAboveStderr() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { fds.forEach { close($0) } }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("spawned-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }

        let status = try SpawnedCommand.run(["/bin/sh", "-c", "ls /dev/fd/"], outputPath: output.path)
        #expect(status == 0)
        let open = Set(try String(contentsOf: output, encoding: .utf8).split(whereSeparator: \.isWhitespace).compactMap { Int32($0) })
        #expect(open.isSuperset(of: [0, 1, 2]))
        #expect(open.isDisjoint(with: fds), "inherited \(open)")
    }

    /// The exit status, and 128 + the signal for a command a signal ended.
    @Test func exitStatusAndSignal() throws {
        #expect(try SpawnedCommand.run(["/bin/sh", "-c", "exit 7"]) == 7)
        #expect(try SpawnedCommand.run(["/bin/sh", "-c", "kill -9 $$"]) == 128 + 9)
        #expect(throws: POSIXError.self) { try SpawnedCommand.run(["/nonexistent/command"]) }
    }
}
