import Foundation
import Latchkey
import LatchkeyAuth
import LatchkeyCrypto
import Testing

private struct SimulatedDevice {
    let directory: URL
    let simulator: SimulatedAuthenticator
    let answer: String?

    init(biometry: BiometryType = .faceID, enrolled: Bool = true, answer: String? = "2468") throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-biometric-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        simulator = SimulatedAuthenticator(stateURL: directory.appendingPathComponent("sim.json"))
        try simulator.reset(biometryType: biometry)
        try simulator.setPasscode(Passcode("2468"))
        if enrolled { try simulator.enroll() }
        self.answer = answer
    }

    func authenticator(fallbackTitle: String? = nil) -> BiometricAuthenticator {
        let simulator = simulator
        let answer = answer
        return BiometricAuthenticator(fallbackTitle: fallbackTitle) {
            simulator.makeContext(passcodeProvider: ClosurePasscodeProvider { _ in answer.map { Passcode($0) } })
        }
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

@Suite("BiometricAuthenticator")
struct BiometricAuthenticatorTests {
    @Test(arguments: [(BiometryType.faceID, "Face ID", "faceid"), (.touchID, "Touch ID", "touchid"),
                      (.opticID, "Optic ID", "opticid")])
    func displayNamesAndSymbols(_ type: BiometryType, _ name: String, _ symbol: String) throws {
        #expect(type.displayName == name)
        #expect(type.systemImageName == symbol)
        let device = try SimulatedDevice(biometry: type)
        defer { device.cleanUp() }
        #expect(device.authenticator().biometryType == type)
        #expect(device.authenticator().isAvailable)
    }

    @Test func availabilityReasons() throws {
        let notEnrolled = try SimulatedDevice(enrolled: false)
        defer { notEnrolled.cleanUp() }
        #expect(!notEnrolled.authenticator().isAvailable)
        #expect(throws: AuthError.notEnrolled) { try notEnrolled.authenticator().availability.get() }
        let none = try SimulatedDevice(biometry: .none, enrolled: false)
        defer { none.cleanUp() }
        #expect(throws: AuthError.notAvailable) { try none.authenticator().availability.get() }
        #expect(BiometryType.none.systemImageName == "lock")
    }

    @Test(arguments: [(BiometricScanOutcome.match, AuthError?.none), (.noMatch, .failed),
                      (.cancel, .userCancel), (.fallback, .userFallback), (.systemCancel, .systemCancel)])
    func authenticateMapsEveryOutcome(_ outcome: BiometricScanOutcome, _ expected: AuthError?) async throws {
        let device = try SimulatedDevice()
        defer { device.cleanUp() }
        try device.simulator.enqueue(outcome)
        #expect(failure(await device.authenticator().authenticate(reason: "Open the vault")) == expected)
    }

    @Test func hiddenFallbackTitleMeansNoUserFallback() async throws {
        let device = try SimulatedDevice()
        defer { device.cleanUp() }
        try device.simulator.enqueue(.fallback)
        #expect(failure(await device.authenticator(fallbackTitle: "").authenticate(reason: "r")) == .failed)
    }

    @Test func lockoutThenPasscodeFallbackLiftsIt() async throws {
        let device = try SimulatedDevice()
        defer { device.cleanUp() }
        for _ in 1...5 { try device.simulator.enqueue(.noMatch) }
        let authenticator = device.authenticator()
        for _ in 1...4 { #expect(failure(await authenticator.authenticate(reason: "r")) == .failed) }
        #expect(failure(await authenticator.authenticate(reason: "r")) == .lockout)
        #expect(throws: AuthError.lockout) { try authenticator.availability.get() }
        let unlocked = await authenticator.authenticateWithPasscodeFallback(reason: "r")
        #expect(failure(unlocked) == nil)
        #expect(authenticator.isAvailable)
    }

    @Test func wrongPasscodeFails() async throws {
        let device = try SimulatedDevice(enrolled: false, answer: "0000")
        defer { device.cleanUp() }
        #expect(failure(await device.authenticator().authenticateWithPasscodeFallback(reason: "r")) == .failed)
    }

    @Test func authenticatedContextReleasesSecrets() async throws {
        let device = try SimulatedDevice()
        defer { device.cleanUp() }
        try device.simulator.enqueue(.match)
        let context = try await device.authenticator()
            .authenticatedContext(policy: .deviceOwnerAuthenticationWithBiometrics, reason: "r").get()
        #expect(try context.releaseSecret(for: .biometryCurrentSet).count == 32)
    }

    @Test func everyErrorHasBothLanguages() {
        for error in AuthError.allCases {
            let english = error.message(in: .english)
            let korean = error.message(in: .korean)
            #expect(!english.isEmpty && !korean.isEmpty && english != korean)
        }
        #expect(AuthError(.biometryLockout) == .lockout)
        #expect(AuthError(.authenticationFailed) == .failed)
        #expect(AuthError(.appCancel).isCancellation)
        #expect(!AuthError.failed.isCancellation)
    }

    @Test func unknownBackendIsUnavailable() {
        let authenticator = BiometricAuthenticator(backend: nil)
        #expect(!authenticator.isAvailable)
        #expect(authenticator.biometryType == .none)
    }
}

/// The failure of a result, or nil on success.
private func failure(_ result: Result<Void, AuthError>) -> AuthError? {
    if case let .failure(error) = result { return error }
    return nil
}
