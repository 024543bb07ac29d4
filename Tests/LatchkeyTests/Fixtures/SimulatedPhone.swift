import Foundation
import Latchkey
import LatchkeyAuth

/// A simulated device in a temporary directory (control file), with a passcode and, optionally, enrolled biometry.
struct SimulatedPhone {
    let directory: URL
    let simulator: SimulatedAuthenticator
    let passcode: String?

    init(biometry: BiometryType = .touchID, enrolled: Bool = true, passcode: String? = "2468") throws {
        directory = try ChildProcess.temporaryDirectory("latchkey-phone")
        simulator = SimulatedAuthenticator(stateURL: directory.appendingPathComponent("simulator.json"))
        try simulator.reset(biometryType: biometry)
        try simulator.setPasscode(Passcode("2468"))
        if enrolled { try simulator.enroll() }
        self.passcode = passcode
    }

    /// Authenticator whose passcode sheet answers `passcode` (nil = Cancel).
    func authenticator() -> BiometricAuthenticator {
        let answer = passcode
        return authenticator(passcodeProvider: ClosurePasscodeProvider { _ in answer.map { Passcode($0) } })
    }

    /// Authenticator whose prompts go to `passcodeProvider`.
    func authenticator(passcodeProvider: any PasscodeProvider) -> BiometricAuthenticator {
        let simulator = simulator
        return BiometricAuthenticator(fallbackTitle: "Enter Password") {
            simulator.makeContext(passcodeProvider: passcodeProvider)
        }
    }

    /// Fails biometric matches until the sensor locks out (after five, as on iOS).
    func lockOut() async throws {
        let authenticator = authenticator()
        for _ in 0..<10 where try !simulator.sensor().isLockedOut {
            try simulator.enqueue(.noMatch)
            _ = await authenticator.authenticate(reason: "lock out")
        }
    }

    func next(_ outcomes: BiometricScanOutcome...) throws {
        for outcome in outcomes { try simulator.enqueue(outcome) }
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}
