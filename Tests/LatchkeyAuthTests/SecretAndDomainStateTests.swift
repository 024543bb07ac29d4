import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

@Suite("releaseSecret and domainState", .offCooperativePool)
struct SecretAndDomainStateTests {
    @Test func noSecretBeforeEvaluation() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        let context = fixture.context()
        for domain in ProtectionDomain.allCases {
            #expect(syncAuthError { _ = try context.releaseSecret(for: domain) } == .notInteractive)
        }
    }

    @Test(arguments: [(BiometricScanOutcome.noMatch, AuthenticationError.authenticationFailed),
                      (.cancel, .userCancel), (.systemCancel, .systemCancel)])
    func noSecretAfterAFailedEvaluation(_ outcome: BiometricScanOutcome, _ expected: AuthenticationError) async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(outcome)
        let context = fixture.context()
        _ = await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") }
        #expect(syncAuthError { _ = try context.releaseSecret(for: .biometryAny) } == expected)
    }

    @Test func biometricSuccessCoversBiometryAndPresenceOnly() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match)
        let context = fixture.context()
        try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        let any = try context.releaseSecret(for: .biometryAny)
        let current = try context.releaseSecret(for: .biometryCurrentSet)
        let presence = try context.releaseSecret(for: .userPresence)
        #expect(Set([any, current, presence]).count == 3)
        #expect(syncAuthError { _ = try context.releaseSecret(for: .devicePasscode) } == .notInteractive)
    }

    @Test func passcodeSuccessCoversPasscodeAndPresenceOnly() async throws {
        let fixture = try SimulatorFixture(enrolled: false)
        defer { fixture.cleanUp() }
        let context = fixture.context(ScriptedPasscodeProvider("1234"))
        try await context.evaluate(.deviceOwnerAuthentication, reason: "t")
        #expect(try context.releaseSecret(for: .devicePasscode).count == 32)
        #expect(try context.releaseSecret(for: .userPresence).count == 32)
        #expect(syncAuthError { _ = try context.releaseSecret(for: .biometryAny) } == .notInteractive)
        #expect(syncAuthError { _ = try context.releaseSecret(for: .biometryCurrentSet) } == .notInteractive)
    }

    @Test func secretsAreTheDevicesNotTheContexts() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match, .match)
        let first = fixture.context()
        let second = fixture.context()
        try await first.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        try await second.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        #expect(try first.releaseSecret(for: .userPresence) == second.releaseSecret(for: .userPresence))
    }

    @Test func reEnrolmentChangesCurrentSetSecretButNotAnySecret() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match, .match)
        let before = fixture.context()
        try await before.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        let anyBefore = try before.releaseSecret(for: .biometryAny)
        let currentBefore = try before.releaseSecret(for: .biometryCurrentSet)
        let stateBefore = try #require(before.domainState)

        try fixture.simulator.enroll()  // "enrol a new finger"
        #expect(before.domainState != stateBefore)
        // The old evaluation does not cover the new enrolment.
        #expect(syncAuthError { _ = try before.releaseSecret(for: .biometryCurrentSet) } == .authenticationFailed)
        #expect(try before.releaseSecret(for: .biometryAny) == anyBefore)

        let after = fixture.context()
        try await after.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        #expect(try after.releaseSecret(for: .biometryAny) == anyBefore)
        #expect(try after.releaseSecret(for: .biometryCurrentSet) != currentBefore)
    }

    @Test func unenrolKillsBothBiometricSecrets() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match, .match)
        let before = fixture.context()
        try await before.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        let anyBefore = try before.releaseSecret(for: .biometryAny)
        try fixture.simulator.unenroll()
        #expect(before.domainState == nil)
        try fixture.simulator.enroll()
        let after = fixture.context()
        try await after.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        #expect(try after.releaseSecret(for: .biometryAny) != anyBefore)
    }

    @Test func domainStateIsStableUntilEnrolmentChanges() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        let state = try #require(fixture.context().domainState)
        #expect(state.count == 32)
        try fixture.simulator.enqueue(.match)
        try fixture.simulator.setPasscode(Passcode("5678"))  // changing the passcode keeps enrolment
        #expect(fixture.context().domainState == state)
        try fixture.simulator.enroll()
        let changed = try #require(fixture.context().domainState)
        #expect(changed != state)
        try fixture.simulator.reset()
        #expect(fixture.context().domainState == nil)
    }
}
