import Foundation
import LatchkeySupport
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

/// A fresh temporary directory, removed by the caller with `cleanUp`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-auth-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// A passcode sheet that answers from a script and counts how often it was asked.
final class ScriptedPasscodeProvider: PasscodeProvider {
    private let answers: Locked<[String?]>
    private let asked = Locked<[AuthenticationPrompt]>([])
    private let onAppear: (@Sendable (AuthenticationPrompt) -> Void)?

    init(_ answers: String?..., onAppear: (@Sendable (AuthenticationPrompt) -> Void)? = nil) {
        self.answers = Locked(answers)
        self.onAppear = onAppear
    }

    var prompts: [AuthenticationPrompt] { asked.withLock { $0 } }

    func passcode(for prompt: AuthenticationPrompt) async -> Passcode? {
        asked.withLock { $0.append(prompt) }
        let answer = answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        return answer.map { Passcode($0) }
    }

    func promptDidAppear(_ prompt: AuthenticationPrompt) async { onAppear?(prompt) }

    private let shown = Locked<[String]>([])
    var displayed: [String] { shown.withLock { $0 } }
    func display(_ message: String, isError: Bool) { shown.withLock { $0.append(message) } }
}

/// A simulator in a temp dir with passcode "1234" and, unless told otherwise, Face ID enrolled.
struct SimulatorFixture {
    let directory: TemporaryDirectory
    let simulator: SimulatedAuthenticator
    let clock = ManualClock()

    init(biometry: BiometryType = .faceID, enrolled: Bool = true, passcode: String? = "1234") throws {
        directory = try TemporaryDirectory()
        simulator = SimulatedAuthenticator(stateURL: directory.url.appendingPathComponent("simulator.json"))
        try simulator.reset(biometryType: biometry)
        if let passcode { try simulator.setPasscode(Passcode(passcode)) }
        if enrolled { try simulator.enroll() }
    }

    func context(_ provider: (any PasscodeProvider)? = nil) -> DeviceOwnerContext {
        simulator.makeContext(passcodeProvider: provider, clock: clock.clock)
    }

    func cleanUp() { directory.cleanUp() }
}

/// The error `body` threw, or nil.
func authError(_ body: () async throws -> Void) async -> AuthenticationError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? AuthenticationError
    }
}

func syncAuthError(_ body: () throws -> Void) -> AuthenticationError? {
    do {
        try body()
        return nil
    } catch {
        return error as? AuthenticationError
    }
}
