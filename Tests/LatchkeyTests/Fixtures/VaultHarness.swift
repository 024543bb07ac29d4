import Foundation
import Latchkey
import LatchkeyAuth

/// Runs `latchkey vault` (the built CLI next to the test binary) against a vault in a temporary directory
/// with the simulated Touch ID sensor.
struct VaultHarness {
    let directory: URL
    let binary: String
    let simulator: SimulatedAuthenticator
    let environment: [String: String]

    /// The CLI built next to this test binary, or nil (then the test is skipped).
    static var latchkeyBinary: String? {
        let path = URL(fileURLWithPath: ChildProcess.testBinary).deletingLastPathComponent()
            .appendingPathComponent("latchkey").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    init(binary: String) throws {
        self.binary = binary
        directory = try ChildProcess.temporaryDirectory("latchkey-vault")
        let simulatorURL = directory.appendingPathComponent("simulator.json")
        simulator = SimulatedAuthenticator(stateURL: simulatorURL)
        try simulator.reset(biometryType: .touchID)
        try simulator.setPasscode(Passcode("2468"))
        try simulator.enroll()
        var environment = ProcessInfo.processInfo.environment
        environment["LATCHKEY_VAULT"] = directory.appendingPathComponent("notes.vault").path
        environment["LATCHKEY_AUTH_BACKEND"] = "simulated"
        environment["LATCHKEY_SIMULATOR_STATE"] = simulatorURL.path
        environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        environment["LATCHKEY_LANG"] = "en"
        environment["LD_PRELOAD"] = nil
        environment["TERM"] = "xterm"
        self.environment = environment
    }

    /// Runs `latchkey vault ARGS` with `input` on stdin.
    func vault(_ arguments: [String], input: String = "") throws -> ChildProcess.Result {
        try ChildProcess.run(binary, ["vault"] + arguments, environment: environment, input: Data(input.utf8))
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}
