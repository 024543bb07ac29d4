import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

@Suite("evaluate: every outcome maps to LAError's code", .offCooperativePool)
struct EvaluateTests {
    @Test(arguments: [
        (BiometricScanOutcome.match, AuthenticationError?.none),
        (.noMatch, .authenticationFailed),
        (.cancel, .userCancel),
        (.fallback, .userFallback),
        (.systemCancel, .systemCancel),
    ])
    func biometricOutcome(_ outcome: BiometricScanOutcome, _ expected: AuthenticationError?) async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(outcome)
        let context = fixture.context()
        let error = await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "test") }
        #expect(error == expected)
        #expect(try fixture.simulator.sensor().pendingOutcomes.isEmpty)
    }

    @Test func emptyQueueTimesOutAsSystemCancel() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        let context = fixture.context()
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .systemCancel)
        try fixture.simulator.setDefaultOutcome(.match)
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == nil)
    }

    @Test func hiddenFallbackKeepsANonMatchAFailure() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.fallback, .fallback)
        let context = fixture.context()
        context.localizedFallbackTitle = ""
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .authenticationFailed)
        context.localizedFallbackTitle = "Use Password"
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .userFallback)
        #expect(try fixture.simulator.sensor().failedAttempts == 2)
    }

    @Test func promptCarriesTitlesAndReason() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.noMatch)
        let provider = ScriptedPasscodeProvider("1234")
        let context = fixture.context(provider)
        context.localizedCancelTitle = "Not now"
        context.localizedFallbackTitle = "Enter Code"
        try await context.evaluate(.deviceOwnerAuthentication, reason: "Unlock your notes")
        let prompt = try #require(provider.prompts.first)
        #expect(prompt.kind == .passcode)
        #expect(prompt.reason == "Unlock your notes")
        #expect(prompt.cancelTitle == "Not now")
        #expect(prompt.fallbackTitle == "Enter Code")
    }

    @Test func ownerPolicyFallsBackToPasscodeAfterNonMatch() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.noMatch)
        let provider = ScriptedPasscodeProvider("1234")
        let context = fixture.context(provider)
        try await context.evaluate(.deviceOwnerAuthentication, reason: "t")
        #expect(provider.prompts.count == 1)
        #expect(try fixture.simulator.sensor().failedAttempts == 0)
    }

    @Test func ownerPolicyFallbackButtonGoesToPasscode() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.fallback)
        let provider = ScriptedPasscodeProvider("1234")
        try await fixture.context(provider).evaluate(.deviceOwnerAuthentication, reason: "t")
        #expect(provider.prompts.count == 1)
    }

    @Test func ownerPolicyMatchNeedsNoPasscode() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match)
        let provider = ScriptedPasscodeProvider("1234")
        try await fixture.context(provider).evaluate(.deviceOwnerAuthentication, reason: "t")
        #expect(provider.prompts.isEmpty)
    }

    @Test func ownerPolicyCancelAndSystemCancelDoNotAskThePasscode() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.cancel, .systemCancel)
        let provider = ScriptedPasscodeProvider("1234")
        let context = fixture.context(provider)
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .userCancel)
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .systemCancel)
        #expect(provider.prompts.isEmpty)
    }

    @Test func wrongPasscodeCancelledPasscodeAndNoPasscodeSheet() async throws {
        let fixture = try SimulatorFixture(enrolled: false)
        defer { fixture.cleanUp() }
        let wrong = fixture.context(ScriptedPasscodeProvider("0000"))
        #expect(await authError { try await wrong.evaluate(.deviceOwnerAuthentication, reason: "t") } == .authenticationFailed)
        let canceled = fixture.context(ScriptedPasscodeProvider(nil))
        #expect(await authError { try await canceled.evaluate(.deviceOwnerAuthentication, reason: "t") } == .userCancel)
        let noSheet = fixture.context(nil)
        #expect(await authError { try await noSheet.evaluate(.deviceOwnerAuthentication, reason: "t") } == .notInteractive)
    }

    @Test func notEnrolledOwnerPolicyGoesStraightToPasscode() async throws {
        let fixture = try SimulatorFixture(enrolled: false)
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match)
        let provider = ScriptedPasscodeProvider("1234")
        try await fixture.context(provider).evaluate(.deviceOwnerAuthentication, reason: "t")
        #expect(provider.prompts.count == 1)
        #expect(try fixture.simulator.sensor().pendingOutcomes == [.match])
    }

    @Test func evaluateRepeatsTheCanEvaluateReasons() async throws {
        let fixture = try SimulatorFixture(enrolled: false)
        defer { fixture.cleanUp() }
        let context = fixture.context()
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .biometryNotEnrolled)
        try fixture.simulator.setPasscode(nil)
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .passcodeNotSet)
        try fixture.simulator.setBiometryType(.none)
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .biometryNotAvailable)
    }

    @Test func interactionNotAllowedFailsBeforePrompting() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match)
        let context = fixture.context(ScriptedPasscodeProvider("1234"))
        context.interactionNotAllowed = true
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .notInteractive)
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .notInteractive)
        #expect(try fixture.simulator.sensor().pendingOutcomes == [.match])
    }
}
