import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

@Suite("Lockout after 5 failed matches, lifted by the passcode", .offCooperativePool)
struct LockoutTests {
    @Test func fifthFailureLocksAndPasscodeUnlocks() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        let context = fixture.context()
        try fixture.simulator.enqueue(.noMatch, .noMatch, .noMatch, .noMatch, .noMatch, .match)
        for attempt in 1...4 {
            #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .authenticationFailed)
            #expect(try fixture.simulator.sensor().failedAttempts == attempt)
        }
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .biometryLockout)

        // Locked: both the pre-flight and a new context say so, and no outcome is consumed.
        let other = fixture.context()
        #expect(syncAuthError { try other.canEvaluate(.deviceOwnerAuthenticationWithBiometrics) } == .biometryLockout)
        #expect(await authError { try await other.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .biometryLockout)
        #expect(syncAuthError { try other.canEvaluate(.deviceOwnerAuthentication) } == nil)
        #expect(throws: SimulatorError.biometryUnusable) { try fixture.simulator.unlockDevice() }

        // The device-owner policy offers the passcode at once; its success lifts the lockout.
        let provider = ScriptedPasscodeProvider("1234")
        try await fixture.context(provider).evaluate(.deviceOwnerAuthentication, reason: "t")
        #expect(provider.prompts.map(\.kind) == [.passcode])
        #expect(try fixture.simulator.sensor().failedAttempts == 0)
        #expect(try fixture.simulator.sensor().pendingOutcomes == [.match])
        try await fixture.context().evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
    }

    @Test func wrongPasscodeDoesNotLiftTheLockout() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        for _ in 1...5 { try fixture.simulator.enqueue(.noMatch) }
        let context = fixture.context()
        for _ in 1...5 { _ = await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } }
        let wrong = fixture.context(ScriptedPasscodeProvider("9999"))
        #expect(await authError { try await wrong.evaluate(.deviceOwnerAuthentication, reason: "t") } == .authenticationFailed)
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthenticationWithBiometrics) } == .biometryLockout)
    }

    @Test func successfulMatchResetsTheCounter() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.noMatch, .noMatch, .noMatch, .noMatch, .match, .noMatch)
        let context = fixture.context()
        for _ in 1...4 { _ = await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } }
        try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .authenticationFailed)
        #expect(try fixture.simulator.sensor().failedAttempts == 1)
    }

    @Test func ownerPolicyNonMatchesCountTowardsLockout() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        for _ in 1...5 { try fixture.simulator.enqueue(.noMatch) }
        let context = fixture.context(ScriptedPasscodeProvider(nil, nil, nil, nil, nil))
        for _ in 1...5 {
            #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .userCancel)
        }
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthenticationWithBiometrics) } == .biometryLockout)
    }

    @Test func fallbackThatReachesTheLimitReportsLockout() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.noMatch, .noMatch, .noMatch, .noMatch, .fallback)
        let context = fixture.context()
        for _ in 1...4 { _ = await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } }
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .biometryLockout)
    }
}
