import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

@Suite("Reuse window and invalidate()", .offCooperativePool)
struct ReuseAndInvalidateTests {
    @Test func unlockWithinTheWindowIsAcceptedWithoutPrompt() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.unlockDevice(at: fixture.clock.now)
        try fixture.simulator.enqueue(.noMatch)
        let context = fixture.context()
        context.reuseDuration = 60
        fixture.clock.advance(by: 59)
        try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        #expect(try fixture.simulator.sensor().pendingOutcomes == [.noMatch])

        fixture.clock.advance(by: 2)  // 61 s after the unlock: the prompt is shown again
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .authenticationFailed)
        #expect(try fixture.simulator.sensor().pendingOutcomes.isEmpty)
    }

    @Test func reuseIsCappedAtThreeHundredSeconds() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        let context = fixture.context()
        context.reuseDuration = 1_000
        #expect(context.reuseDuration == LocalAuthenticationRules.maximumAllowableReuseDuration)
        context.reuseDuration = -5
        #expect(context.reuseDuration == 0)
        context.reuseDuration = .nan
        #expect(context.reuseDuration == 0)
        context.reuseDuration = 1_000

        try fixture.simulator.unlockDevice(at: fixture.clock.now)
        fixture.clock.advance(by: 300)
        try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        fixture.clock.advance(by: 1)
        try fixture.simulator.enqueue(.cancel)
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .userCancel)
    }

    @Test func defaultZeroDurationNeverReuses() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.unlockDevice(at: fixture.clock.now)
        try fixture.simulator.enqueue(.cancel)
        let context = fixture.context()
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .userCancel)
    }

    @Test func reuseNeedsNoInteraction() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.unlockDevice(at: fixture.clock.now)
        let context = fixture.context()
        context.reuseDuration = 10
        context.interactionNotAllowed = true
        try await context.evaluate(.deviceOwnerAuthentication, reason: "t")
        #expect(try context.releaseSecret(for: .biometryAny).count == 32)
    }

    @Test func laterCallsAfterInvalidateFailWithInvalidContext() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match)
        let context = fixture.context()
        try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        context.invalidate()
        context.invalidate()  // a second call has no effect
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthentication) } == .invalidContext)
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .invalidContext)
        #expect(syncAuthError { _ = try context.releaseSecret(for: .biometryAny) } == .invalidContext)
    }

    @Test func invalidateDuringTheBiometricPromptIsAppCancel() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match)
        let holder = ContextHolder()
        let provider = ScriptedPasscodeProvider(onAppear: { _ in holder.context?.invalidate() })
        let context = fixture.context(provider)
        holder.context = context
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .appCancel)
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .invalidContext)
    }

    @Test func invalidateDuringThePasscodePromptIsAppCancel() async throws {
        let fixture = try SimulatorFixture(enrolled: false)
        defer { fixture.cleanUp() }
        let holder = ContextHolder()
        let provider = ScriptedPasscodeProvider("1234", onAppear: { prompt in
            if prompt.kind == .passcode { holder.context?.invalidate() }
        })
        let context = fixture.context(provider)
        holder.context = context
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .appCancel)
    }
}

/// Lets a prompt callback reach the context it belongs to.
final class ContextHolder: @unchecked Sendable {
    // @unchecked: set once before the evaluation starts, then only read.
    var context: DeviceOwnerContext?
}
