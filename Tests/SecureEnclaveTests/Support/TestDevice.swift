import Foundation
import LatchkeyAuthCore
import LocalAuthentication
import LatchkeyTPM
import Security

/// A simulated phone (Face ID, enrolled, passcode "1234") in a control file of the test's own, whose contexts are
/// handed to the API under test as `LAContext`s: no process-wide configuration is touched.
struct TestDevice {
    let simulator: SimulatedAuthenticator

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-se-sim-\(UUID().uuidString).json")
        simulator = SimulatedAuthenticator(stateURL: url)
        try simulator.reset(biometryType: .faceID)
        try simulator.setPasscode(Passcode("1234"))
        try simulator.enroll()
        try simulator.setDefaultOutcome(nil)  // a prompt nobody scripted times out: it shows as a failure
    }

    /// A new context on this phone; its passcode prompts answer "1234".
    func context() -> LAContext {
        LAContext(latchkeyContext: simulator.makeContext(passcodeProvider: FixedPasscode()))
    }

    /// The next biometric prompt matches (one prompt only).
    func matchOnce() throws { try simulator.enqueue(.match) }

    /// Evaluates biometrics on a new context and returns it.
    func evaluatedContext() async throws -> LAContext {
        try matchOnce()
        let context = context()
        _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "test")
        return context
    }

    func remove() { try? FileManager.default.removeItem(at: simulator.stateURL) }

    /// `SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)`.
    static func access(_ flags: SecAccessControlCreateFlags) throws -> SecAccessControl {
        guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil) else {
            throw SoftwareTPMError.failed("SecAccessControlCreateWithFlags refused \(flags.rawValue)")
        }
        return access
    }
}

/// Answers every passcode prompt with "1234".
struct FixedPasscode: PasscodeProvider {
    func passcode(for prompt: AuthenticationPrompt) async -> Passcode? { Passcode("1234") }
}
