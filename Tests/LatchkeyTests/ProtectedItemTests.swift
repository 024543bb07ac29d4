import Foundation
import Latchkey
import LatchkeyAuth
import LatchkeyKeychain
import Testing

/// A simulated device in a temp dir and a store: a FileVault on Linux; in the apple-frameworks mode the system
/// keychain path — `AppleKeychainStore` over Security, `AppleAuthenticationContext` over an `LAContext` — with the
/// simulated device behind the `LAContext`.
private struct ProtectedFixture {
    let directory: URL
    let simulator: SimulatedAuthenticator
    let store: any ItemStore
    /// Unique per fixture: in the apple-frameworks mode the system keychain is shared by every test.
    let service = "com.example.bank.\(UUID().uuidString)"

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-protected-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        simulator = SimulatedAuthenticator(stateURL: directory.appendingPathComponent("sim.json"))
        try simulator.setPasscode(Passcode("1357"))
        try simulator.enroll()
        #if LATCHKEY_APPLE_FRAMEWORKS
        AppleFrameworksFixture.useTestKeychain()
        store = AppleKeychainStore()
        #else
        let vault = try FileVault(url: directory.appendingPathComponent("items.vault"), kdf: .testing)
        try vault.unlock(passphrase: "vault passphrase")
        store = vault
        #endif
    }

    func item(_ protection: ProtectedItem.Protection, account: String = "token",
              passcode: String? = "1357") -> ProtectedItem {
        let simulator = simulator
        let authenticator = BiometricAuthenticator {
            AppleFrameworksFixture.platformContext(
                simulator.makeContext(passcodeProvider: ClosurePasscodeProvider { _ in passcode.map { Passcode($0) } }))
        }
        return ProtectedItem(service: service, account: account, protection: protection,
                             store: store, authenticator: authenticator)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

private func thrown(_ body: () async throws -> Void) async -> ProtectedItemError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? ProtectedItemError
    }
}

@Suite("ProtectedItem over FileVault and the simulated device")
struct ProtectedItemTests {
    @Test func readableAfterAMatchUnreadableAfterNonMatchOrCancel() async throws {
        let fixture = try ProtectedFixture()
        defer { fixture.cleanUp() }
        let item = fixture.item(.biometryCurrentSet)
        try fixture.simulator.enqueue(.match)
        try await item.save(Data("refresh-123".utf8), reason: "Protect")
        #expect(try item.exists())

        try fixture.simulator.enqueue(.match)
        #expect(try await item.read(reason: "Sign in") == Data("refresh-123".utf8))
        try fixture.simulator.enqueue(.noMatch)
        #expect(await thrown { _ = try await item.read(reason: "Sign in") } == .authentication(.failed))
        try fixture.simulator.enqueue(.cancel)
        #expect(await thrown { _ = try await item.read(reason: "Sign in") } == .authentication(.userCancel))
    }

    @Test func currentSetDiesOnReEnrolmentWhileAnyLives() async throws {
        let fixture = try ProtectedFixture()
        defer { fixture.cleanUp() }
        let current = fixture.item(.biometryCurrentSet, account: "current")
        let any = fixture.item(.biometryAny, account: "any")
        try fixture.simulator.enqueue(.match, .match)
        try await current.save(Data("c".utf8), reason: "r")
        try await any.save(Data("a".utf8), reason: "r")

        try fixture.simulator.enroll()  // a new finger
        try fixture.simulator.enqueue(.match, .match)
        #expect(await thrown { _ = try await current.read(reason: "r") } == .invalidatedByEnrollmentChange)
        #expect(try await any.read(reason: "r") == Data("a".utf8))
    }

    @Test func userPresenceOpensWithThePasscode() async throws {
        let fixture = try ProtectedFixture()
        defer { fixture.cleanUp() }
        let item = fixture.item(.userPresence)
        try fixture.simulator.enqueue(.noMatch)  // falls back to the passcode
        try await item.save(Data("p".utf8), reason: "r")
        try fixture.simulator.enqueue(.match)
        #expect(try await item.read(reason: "r") == Data("p".utf8))
        try fixture.simulator.enqueue(.fallback)
        #expect(try await item.read(reason: "r") == Data("p".utf8))
        let wrong = fixture.item(.userPresence, passcode: "0000")
        try fixture.simulator.enqueue(.noMatch)
        #expect(await thrown { _ = try await wrong.read(reason: "r") } == .authentication(.failed))
    }

    @Test func missingItemIsReportedWithoutAPrompt() async throws {
        let fixture = try ProtectedFixture()
        defer { fixture.cleanUp() }
        try fixture.simulator.enqueue(.match)
        #expect(await thrown { _ = try await fixture.item(.biometryAny).read(reason: "r") } == .notFound)
        #expect(try fixture.simulator.sensor().pendingOutcomes == [.match])
    }

    @Test func canceledSaveKeepsTheOldValue() async throws {
        let fixture = try ProtectedFixture()
        defer { fixture.cleanUp() }
        let item = fixture.item(.biometryAny)
        try fixture.simulator.enqueue(.match, .cancel, .match)
        try await item.save(Data("old".utf8), reason: "r")
        #expect(await thrown { try await item.save(Data("new".utf8), reason: "r") } == .authentication(.userCancel))
        #expect(try await item.read(reason: "r") == Data("old".utf8))
    }

    #if !LATCHKEY_APPLE_FRAMEWORKS
    @Test func lockedVaultIsAKeychainError() async throws {
        let fixture = try ProtectedFixture()
        defer { fixture.cleanUp() }
        let item = fixture.item(.biometryAny)
        try fixture.simulator.enqueue(.match)
        try await item.save(Data("x".utf8), reason: "r")
        try #require(fixture.store as? FileVault).lock()
        try fixture.simulator.enqueue(.match)
        let error = await thrown { _ = try await item.read(reason: "r") }
        #expect(error == .keychain(.interactionNotAllowed))
    }
    #endif

    @Test func changeDetectorWipesProtectedItems() async throws {
        let fixture = try ProtectedFixture()
        defer { fixture.cleanUp() }
        let item = fixture.item(.biometryCurrentSet)
        try fixture.simulator.enqueue(.match)
        try await item.save(Data("t".utf8), reason: "r")
        let simulator = fixture.simulator
        let detector = BiometricChangeDetector(store: MemoryDomainStateStore(),
                                               makeContext: { simulator.makeContext() },
                                               onChange: { try item.delete() })
        #expect(try await detector.check() == .firstCheck)
        try fixture.simulator.enroll()
        #expect(try await detector.check() == .changed)
        #expect(try !item.exists())
    }

    @Test func errorsHaveBothLanguages() {
        for error in [ProtectedItemError.notFound, .invalidatedByEnrollmentChange, .authentication(.lockout),
                      .keychain(.interactionNotAllowed)] {
            #expect(!(error.errorDescription ?? "").isEmpty)
        }
    }
}
