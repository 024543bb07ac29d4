import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuthCore

/// `evaluate(_: AccessRequirement, reason:)`: the prompts follow what an access control needs, as Apple's
/// `evaluateAccessControl` does.
@Suite(.offCooperativePool) struct AccessRequirementTests {
    @Test func aPasscodeOnlyRequirementNeverScansBiometry() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.noMatch) // would fail the evaluation if a scan happened
        let provider = ScriptedPasscodeProvider("1234")
        let context = fixture.context(provider)
        try await context.evaluate(AccessRequirement(alternatives: [[.devicePasscode]]), reason: "pin")
        #expect(try fixture.simulator.sensor().pendingOutcomes == [.noMatch], "no scan")
        #expect(provider.prompts.map(\.kind) == [.passcode])
        #expect(throws: AuthenticationError.notInteractive) { _ = try context.releaseSecret(for: .biometryAny) }
        _ = try context.releaseSecret(for: .devicePasscode)
    }

    @Test func aBiometricMatchDoesNotProveThePasscode() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match)
        let provider = ScriptedPasscodeProvider("1234")
        let context = fixture.context(provider)
        try await context.evaluate(.deviceOwnerAuthentication, reason: "unlock")
        #expect(provider.prompts.isEmpty, "the match was enough for the policy")
        #expect(throws: AuthenticationError.notInteractive) { _ = try context.releaseSecret(for: .devicePasscode) }
        // The same context, asked for what a passcode item needs, asks for the passcode.
        try await context.evaluate(AccessRequirement(alternatives: [[.devicePasscode]]), reason: "pin")
        #expect(provider.prompts.map(\.kind) == [.passcode])
        _ = try context.releaseSecret(for: .devicePasscode)
    }

    @Test func biometryAndPasscodeAsksForBoth() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match)
        let provider = ScriptedPasscodeProvider("1234")
        let context = fixture.context(provider)
        try await context.evaluate(AccessRequirement(alternatives: [[.biometryCurrentSet, .devicePasscode]]), reason: "both")
        #expect(provider.prompts.map(\.kind) == [.passcode])
        _ = try context.releaseSecret(for: .biometryCurrentSet)
        _ = try context.releaseSecret(for: .devicePasscode)
        // Already proven: no prompt at all.
        try await context.evaluate(AccessRequirement(alternatives: [[.biometryCurrentSet, .devicePasscode]]), reason: "again")
        #expect(provider.prompts.count == 1)
        // A failed match ends it: biometry is required.
        let second = fixture.context(ScriptedPasscodeProvider("1234"))
        try fixture.simulator.enqueue(.noMatch)
        #expect(await authError { try await second.evaluate(AccessRequirement(alternatives: [[.biometryAny, .devicePasscode]]), reason: "x") }
                == .authenticationFailed)
    }

    @Test func eitherAlternativeFallsBackToThePasscode() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.noMatch)
        let provider = ScriptedPasscodeProvider("1234")
        let context = fixture.context(provider)
        try await context.evaluate(AccessRequirement(alternatives: [[.biometryAny], [.devicePasscode]]), reason: "or")
        #expect(provider.prompts.map(\.kind) == [.passcode])
        _ = try context.releaseSecret(for: .devicePasscode)
    }

    @Test func theReuseWindowDoesNotOpenKeychainItems() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.unlockDevice(at: fixture.clock.now)
        let context = fixture.context()
        context.reuseDuration = 60
        try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "unlock") // reused, no scan
        let item = fixture.context()
        item.reuseDuration = 60
        item.interactionNotAllowed = true
        #expect(await authError { try await item.evaluate(AccessRequirement(alternatives: [[.biometryAny]]), reason: "item") }
                == .notInteractive, "a keychain item asks for its own match")
    }

    @Test func theApplicationPasswordIsAskedForOnceAndKept() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        let provider = ScriptedPasscodeProvider("app secret")
        let context = fixture.context(provider)
        #expect(!context.isCredentialSet(.applicationPassword))
        try await context.evaluate(AccessRequirement(alternatives: [], applicationPassword: true), reason: "note")
        #expect(provider.prompts.map(\.kind) == [.applicationPassword])
        let password = try context.credential(.applicationPassword)
        #expect(password.withBytes { Array($0) } == Array("app secret".utf8))
        try await context.evaluate(AccessRequirement(alternatives: [], applicationPassword: true), reason: "again")
        #expect(provider.prompts.count == 1, "kept on the context")
        context.invalidate()
        #expect(!context.isCredentialSet(.applicationPassword), "invalidate drops it")
        // Set by the app, it is never asked for; without a provider nobody can be asked.
        let quiet = fixture.context()
        #expect(await authError { try await quiet.evaluate(AccessRequirement(alternatives: [], applicationPassword: true), reason: "x") }
                == .notInteractive)
        #expect(quiet.setCredential(Passcode("given"), type: .applicationPassword))
        try await quiet.evaluate(AccessRequirement(alternatives: [], applicationPassword: true), reason: "x")
        // Cancel at the prompt.
        let canceled = fixture.context(ScriptedPasscodeProvider(nil))
        #expect(await authError { try await canceled.evaluate(AccessRequirement(alternatives: [], applicationPassword: true), reason: "x") }
                == .userCancel)
    }
}
