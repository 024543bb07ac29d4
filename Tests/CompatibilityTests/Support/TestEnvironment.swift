// Linux-only wiring for the tests (the client code in ClientCode/ uses Apple's names only).
import Foundation
import LatchkeyAuth
import LatchkeyKeychain
import LocalAuthentication
import Security

enum TestEnvironment {
    /// A fresh in-memory keychain for the `SecItem…` functions.
    static func useMemoryKeychain() {
        let store = MemoryStore()
        store.unlock()
        LatchkeySecurityConfiguration.store = store
    }

    /// The simulators' state files of this process: one temporary directory, removed when the process exits.
    static let stateDirectory: URL = {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-compat-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestEnvironment.stateDirectory) }
        return directory
    }()

    /// A fresh simulated sensor (Face ID, enrolled, passcode "1234") behind every new `LAContext`.
    @discardableResult
    static func useSimulator(biometryType: BiometryType = .faceID) throws -> SimulatedAuthenticator {
        let url = stateDirectory.appendingPathComponent("\(UUID().uuidString).json")
        let simulator = SimulatedAuthenticator(stateURL: url)
        try simulator.reset(biometryType: biometryType)
        try simulator.setPasscode(Passcode("1234"))
        try simulator.enroll()
        try simulator.setDefaultOutcome(.match)
        LatchkeyLocalAuthenticationConfiguration.makeContext = {
            simulator.makeContext(passcodeProvider: FixedPasscode())
        }
        return simulator
    }
}

/// Answers every passcode prompt with "1234".
struct FixedPasscode: PasscodeProvider {
    func passcode(for prompt: AuthenticationPrompt) async -> Passcode? { Passcode("1234") }
}

enum MemoryStoreFactory {
    /// Installs (and returns) an unlocked memory keychain whose items get `defaultAccessGroup`.
    @discardableResult
    static func make(defaultAccessGroup: String) -> MemoryStore {
        let store = MemoryStore(defaultAccessGroup: defaultAccessGroup)
        store.unlock()
        LatchkeySecurityConfiguration.store = store
        return store
    }
}
