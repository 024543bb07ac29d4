import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

/// The `latchkey` CLI built next to the test bundle (`swift build --build-tests` builds both).
enum LatchkeyExecutable {
    static var url: URL? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidate = directory.appendingPathComponent("latchkey")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// Runs `latchkey arguments…` with `stdin` and the simulator state at `state`; returns the exit code.
    static func run(_ arguments: [String], state: URL, stdin: String = "",
                    extraEnvironment: [String: String] = [:]) throws -> Int32 {
        guard let url else { return -1 }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LATCHKEY_SIMULATOR_STATE"] = state.path
        environment.removeValue(forKey: "LATCHKEY_AUTH_BACKEND")
        environment.merge(extraEnvironment) { _, new in new }
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

@Suite("One simulated device across processes (the CLI and this test)",
       .enabled(if: LatchkeyExecutable.url != nil), .offCooperativePool)
struct SimulatorCrossProcessTests {
    @Test func cliAndLibrarySeeTheSameDevice() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let state = directory.url.appendingPathComponent("device.json")
        let simulator = SimulatedAuthenticator(stateURL: state)

        #expect(try LatchkeyExecutable.run(["auth", "simulate", "set-passcode"], state: state, stdin: "4321\n") == 0)
        #expect(try LatchkeyExecutable.run(["auth", "simulate", "enroll"], state: state) == 0)
        #expect(try simulator.sensor().enrolled)
        #expect(try simulator.sensor().passcodeSet)

        // The other process scripts the sensor; this process's context consumes it.
        #expect(try LatchkeyExecutable.run(["auth", "simulate", "match"], state: state) == 0)
        try await simulator.makeContext().evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")

        // This process scripts; the CLI evaluates and reports through its exit code.
        try simulator.enqueue(.noMatch)
        #expect(try LatchkeyExecutable.run(["auth", "test", "--policy", "biometrics"], state: state) == 77)
        #expect(try simulator.sensor().failedAttempts == 1)
        try simulator.enqueue(.noMatch)
        #expect(try LatchkeyExecutable.run(["auth", "test", "--policy", "owner"], state: state, stdin: "4321\n") == 0)
        #expect(try simulator.sensor().failedAttempts == 0)
        try simulator.enqueue(.match)
        #expect(try LatchkeyExecutable.run(["auth", "test", "--policy", "biometrics"], state: state) == 0)

        #expect(try LatchkeyExecutable.run(["auth", "simulate", "unenroll"], state: state) == 0)
        #expect(try LatchkeyExecutable.run(["auth", "test", "--policy", "biometrics"], state: state) == 69)
        #expect(try LatchkeyExecutable.run(["auth", "test"], state: state) == 64)
        #expect(try LatchkeyExecutable.run(["auth", "status"], state: state) == 0)
    }

    @Test(.enabled(if: PAMFixture.available))
    func cliAuthenticatesThroughPAM() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let services = directory.url.appendingPathComponent("pam.d", isDirectory: true)
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let passdb = directory.url.appendingPathComponent("passdb")
        try "\(PAMAuthenticator.currentUser()):open-sesame:latchkey\n".write(to: passdb, atomically: true, encoding: .utf8)
        try "auth required \(PAMFixture.matrix) passdb=\(passdb.path)\naccount required \(PAMFixture.matrix) passdb=\(passdb.path)\n"
            .write(to: services.appendingPathComponent("latchkey"), atomically: true, encoding: .utf8)
        let environment = ["LATCHKEY_PAM_CONFDIR": services.path,
                           "XDG_STATE_HOME": directory.url.appendingPathComponent("state").path]
        let state = directory.url.appendingPathComponent("unused.json")
        let owner = ["auth", "test", "--backend", "pam", "--policy", "owner"]
        #expect(try LatchkeyExecutable.run(owner, state: state, stdin: "open-sesame\n", extraEnvironment: environment) == 0)
        #expect(try LatchkeyExecutable.run(owner, state: state, stdin: "wrong\n", extraEnvironment: environment) == 77)
        #expect(try LatchkeyExecutable.run(owner, state: state, stdin: "", extraEnvironment: environment) == 77)
        #expect(try LatchkeyExecutable.run(["auth", "test", "--backend", "pam", "--policy", "biometrics"], state: state,
                                           extraEnvironment: environment) == 69)
        #expect(try LatchkeyExecutable.run(["auth", "status", "--backend", "pam"], state: state,
                                           extraEnvironment: environment) == 0)
        #expect(try LatchkeyExecutable.run(["auth", "test", "--backend", "nonsense", "--policy", "owner"], state: state) == 64)
    }
}
