#if os(Linux)
import CPAM
import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

/// Real PAM: `pam_start_confdir` with a service directory of the test's own and pam_matrix.
struct PAMFixture {
    static let matrix = "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so"
    static var available: Bool { FileManager.default.fileExists(atPath: matrix) }

    let directory: TemporaryDirectory
    let authenticator: PAMAuthenticator

    init(user: String = "alice", verbose: Bool = false, biometric: (any PasscodeProvider)? = nil) throws {
        directory = try TemporaryDirectory()
        let services = directory.url.appendingPathComponent("pam.d", isDirectory: true)
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        // pam_matrix takes a user's first line, so the "finger" stand-in service gets a passdb of its own.
        let databases = ["latchkey-test": "alice:secret:latchkey-test\nbob:other:another-service\n",
                         "latchkey-finger": "alice:finger-A:latchkey-finger\n"]
        for (service, lines) in databases {
            let passdb = directory.url.appendingPathComponent("passdb-\(service)")
            try lines.write(to: passdb, atomically: true, encoding: .utf8)
            let options = "passdb=\(passdb.path)" + (verbose ? " verbose" : "")
            try "auth required \(Self.matrix) \(options)\naccount required \(Self.matrix) \(options)\n"
                .write(to: services.appendingPathComponent(service), atomically: true, encoding: .utf8)
        }
        authenticator = PAMAuthenticator(configuration: .init(
            service: "latchkey-test", user: user, configurationDirectory: services,
            biometricService: biometric == nil ? nil : "latchkey-finger", biometricResponder: biometric,
            biometryType: .touchID, stateURL: directory.url.appendingPathComponent("state/pam-secrets")))
    }

    func cleanUp() { directory.cleanUp() }
}

@Suite("PAMAuthenticator, for real through pam_matrix", .enabled(if: PAMFixture.available), .offCooperativePool)
struct PAMAuthenticatorTests {
    @Test func rightPasswordIsAccepted() async throws {
        let fixture = try PAMFixture()
        defer { fixture.cleanUp() }
        let provider = ScriptedPasscodeProvider("secret")
        let context = fixture.authenticator.makeContext(passcodeProvider: provider)
        try await context.evaluate(.deviceOwnerAuthentication, reason: "Unlock")
        #expect(provider.prompts.count == 1)
        #expect(provider.prompts.first?.kind == .passcode)
        #expect(provider.prompts.first?.reason == "Unlock")
        #expect(try context.releaseSecret(for: .devicePasscode).count == 32)
        #expect(syncAuthError { _ = try context.releaseSecret(for: .biometryAny) } == .notInteractive)
    }

    @Test func wrongPasswordIsRejected() async throws {
        let fixture = try PAMFixture()
        defer { fixture.cleanUp() }
        let context = fixture.authenticator.makeContext(passcodeProvider: ScriptedPasscodeProvider("wrong"))
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .authenticationFailed)
        #expect(syncAuthError { _ = try context.releaseSecret(for: .devicePasscode) } == .authenticationFailed)
    }

    @Test func unknownUserIsRejected() async throws {
        let fixture = try PAMFixture(user: "mallory")
        defer { fixture.cleanUp() }
        let context = fixture.authenticator.makeContext(passcodeProvider: ScriptedPasscodeProvider("secret"))
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .authenticationFailed)
    }

    @Test func userOfAnotherServiceFailsTheAccountCheck() async throws {
        let fixture = try PAMFixture(user: "bob")
        defer { fixture.cleanUp() }
        let context = fixture.authenticator.makeContext(passcodeProvider: ScriptedPasscodeProvider("other"))
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .authenticationFailed)
    }

    @Test func cancelInThePromptIsUserCancel() async throws {
        let fixture = try PAMFixture()
        defer { fixture.cleanUp() }
        let context = fixture.authenticator.makeContext(passcodeProvider: ScriptedPasscodeProvider(nil))
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .userCancel)
    }

    @Test func noPromptCallbackIsNotInteractive() async throws {
        let fixture = try PAMFixture()
        defer { fixture.cleanUp() }
        let context = fixture.authenticator.makeContext()
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") } == .notInteractive)
    }

    @Test func verboseInfoMessagesGetNoResponse() async throws {
        let fixture = try PAMFixture(verbose: true)
        defer { fixture.cleanUp() }
        let provider = ScriptedPasscodeProvider("secret")
        try await fixture.authenticator.makeContext(passcodeProvider: provider)
            .evaluate(.deviceOwnerAuthentication, reason: "t")
        let wrongProvider = ScriptedPasscodeProvider("nope")
        let wrong = fixture.authenticator.makeContext(passcodeProvider: wrongProvider)
        #expect(await authError { try await wrong.evaluate(.deviceOwnerAuthentication, reason: "t") } == .authenticationFailed)
        let shown = provider.displayed + wrongProvider.displayed
        #expect(provider.displayed == ["Authentication succeeded"])
        #expect(wrongProvider.displayed == ["Authentication failed"])
        #expect(!shown.joined().contains("secret") && !shown.joined().contains("nope"))
    }

    @Test func missingServiceFileIsASystemFailure() async throws {
        let fixture = try PAMFixture()
        defer { fixture.cleanUp() }
        var configuration = fixture.authenticator.configuration
        configuration.service = "no-such-service"
        let context = PAMAuthenticator(configuration: configuration).makeContext(passcodeProvider: ScriptedPasscodeProvider("secret"))
        let error = await authError { try await context.evaluate(.deviceOwnerAuthentication, reason: "t") }
        #expect(error == .systemCancel)
    }

    @Test func withoutBiometricServiceThereIsNoBiometry() throws {
        let fixture = try PAMFixture()
        defer { fixture.cleanUp() }
        let context = fixture.authenticator.makeContext()
        #expect(context.biometryType == .none)
        #expect(context.domainState == nil)
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthenticationWithBiometrics) } == .biometryNotAvailable)
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthentication) } == nil)
    }

    @Test func biometricServiceLocksOutAfterFiveAndPasscodeLiftsIt() async throws {
        let finger = ScriptedPasscodeProvider("finger-B", "finger-B", "finger-B", "finger-B", "finger-B", "finger-A")
        let fixture = try PAMFixture(biometric: finger)
        defer { fixture.cleanUp() }
        let context = fixture.authenticator.makeContext()
        #expect(context.biometryType == .touchID)
        for _ in 1...4 {
            #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .authenticationFailed)
        }
        #expect(await authError { try await context.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t") } == .biometryLockout)
        #expect(try fixture.authenticator.failedAttempts() == 5)
        #expect(syncAuthError { try context.canEvaluate(.deviceOwnerAuthenticationWithBiometrics) } == .biometryLockout)

        let password = ScriptedPasscodeProvider("secret")
        try await fixture.authenticator.makeContext(passcodeProvider: password).evaluate(.deviceOwnerAuthentication, reason: "t")
        #expect(try fixture.authenticator.failedAttempts() == 0)
        let again = fixture.authenticator.makeContext()
        try await again.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        #expect(try again.releaseSecret(for: .biometryCurrentSet).count == 32)
    }

    @Test func enrolmentChangeRotatesCurrentSetOnly() async throws {
        let fixture = try PAMFixture(biometric: ScriptedPasscodeProvider("finger-A", "finger-A"))
        defer { fixture.cleanUp() }
        let before = fixture.authenticator.makeContext()
        try await before.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        let state = try #require(before.domainState)
        let any = try before.releaseSecret(for: .biometryAny)
        let current = try before.releaseSecret(for: .biometryCurrentSet)
        try fixture.authenticator.noteEnrollmentChanged()
        let after = fixture.authenticator.makeContext()
        #expect(after.domainState != state)
        try await after.evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        #expect(try after.releaseSecret(for: .biometryAny) == any)
        #expect(try after.releaseSecret(for: .biometryCurrentSet) != current)
    }

    @Test func stateFileIsPrivate() async throws {
        let fixture = try PAMFixture()
        defer { fixture.cleanUp() }
        _ = try fixture.authenticator.failedAttempts()
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.authenticator.configuration.stateURL.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func statusCodesMatchTheHeader() {
        #expect(PAMStatus.authenticationError.rawValue == PAM_AUTH_ERR)
        #expect(PAMStatus.userUnknown.rawValue == PAM_USER_UNKNOWN)
        #expect(PAMStatus.maximumTries.rawValue == PAM_MAXTRIES)
        #expect(PAMStatus.authenticationInfoUnavailable.rawValue == PAM_AUTHINFO_UNAVAIL)
        #expect(PAMStatus.conversationError.rawValue == PAM_CONV_ERR)
        #expect(PAMStatus.permissionDenied.rawValue == PAM_PERM_DENIED)
        #expect(PAMStatus.accountExpired.rawValue == PAM_ACCT_EXPIRED)
        #expect(PAMStatus.abort.rawValue == PAM_ABORT)
        #expect(PAMStatus.incomplete.rawValue == PAM_INCOMPLETE)
    }
}
#endif
