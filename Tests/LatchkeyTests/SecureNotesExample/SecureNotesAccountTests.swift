import AuthenticationServices
import Foundation
import Latchkey
import Testing
@testable import SecureNotesExampleCore

extension ASAuthorizationTests.SecureNotesExample {
    /// Settings' "Devices" and "Delete Account" for a passkey account on a real `latchkey serve` whose clock is then
    /// moved past the step-up max age: the sessions listed (this iPhone marked), the others signed out, then the account deleted after the
    /// passkey sheet confirmed it's the user; the app is back at sign-in and nothing of the account is left.
    @MainActor @Test func devicesAndDeletingAPasskeyAccount() async throws {
        let services = try await AuthenticationServicesFixture.start()
        defer { services.stop() }
        let world = try SecureNotesWorld()
        defer { world.cleanUp() }
        var environment = world.environment(server: services.server.baseURL)
        environment.deviceName = "Mina's iPhone"
        let model = SecureNotesModel(environment: environment, defaults: world.defaults)
        await model.launch()
        #expect(model.deleteAccountScreen() == nil && model.devicesScreen() == nil, "nobody signed in")
        let username = "mina-\(UUID().uuidString.prefix(8).lowercased())"
        await model.createPasskeyAccount(username: username)
        let account = try #require(model.account)
        #expect(model.addNote(title: "Door code", body: "4711"))
        // The same passkey signs in on another device too.
        let other = try await PasskeyClient(baseURL: services.server.baseURL, ceremony: PlatformPasskeyCeremony(),
                                            deviceName: "Mina's iPad").signIn()

        let devices = try #require(model.devicesScreen())
        await devices.load()
        #expect(devices.sessions.map { devices.name(of: $0) } == ["Mina's iPhone", "Mina's iPad"])
        #expect(devices.badge(of: devices.sessions[0]) == "This Device")
        await devices.endAllOthers()
        #expect(devices.notice == "Signed out 1 other device." && devices.sessions.count == 1)
        let refused = try await services.server.request("POST", "v1/token", json: [
            "grant_type": "refresh_token", "refresh_token": other.refreshToken ?? ""])
        #expect(refused.status == 400)

        try services.passStepUpMaxAge()   // the sign-in is now older than the step-up max age
        let deletion = try #require(model.deleteAccountScreen())
        #expect(deletion.consequences.last == "Your notes on this device are deleted.")
        await deletion.delete()
        #expect(deletion.phase == .deleted, "\(deletion.errorMessage ?? "")")
        #expect(model.account == nil && model.lockScreen.presentation == .login && model.notes.isEmpty)
        await #expect(throws: TokenManagerError.loggedOut) { try await model.accessToken() }
        #expect(try world.notes(owner: account.notesOwner).notes().isEmpty)
        for keychain in world.notes(owner: account.notesOwner).keychains { #expect(try await keychain.allKeys().isEmpty) }
        let app = Keychain(service: world.service, store: world.store)
        let left = try await app.allKeys()
        #expect(left.isEmpty, "no token, account or lock session left: \(left)")
        // A relaunch finds nobody; the passkey no longer signs in.
        let relaunched = SecureNotesModel(environment: environment, defaults: world.defaults)
        await relaunched.launch()
        #expect(relaunched.account == nil && relaunched.lockScreen.presentation == .login)
        await relaunched.signIn.signInWithPasskey()
        #expect(relaunched.account == nil && relaunched.signIn.errorMessage != nil)
    }

    /// "Delete Account" of the password account, which lives on this device: its notes and login go, the form is back
    /// to creating an account; it has no "Devices".
    @MainActor @Test func deletingThePasswordAccountOnThisDevice() async throws {
        let world = try SecureNotesWorld()
        defer { world.cleanUp() }
        let server = try #require(URL(string: "https://notes.example.com"))
        let model = SecureNotesModel(environment: world.environment(server: server, language: .korean),
                                     defaults: world.defaults)
        await model.launch()
        model.lockScreen.logInWithPassword()
        model.passwordForm.username = "mina"
        (model.passwordForm.password, model.passwordForm.passwordConfirmation) = ("correct horse", "correct horse")
        await model.passwordForm.submit()
        #expect(model.addNote(title: "현관 비밀번호", body: "4711"))
        #expect(model.devicesScreen() == nil)

        let deletion = try #require(model.deleteAccountScreen())
        #expect(deletion.title == "계정 삭제" && deletion.consequences.last == "이 기기의 메모가 삭제됩니다.")
        await deletion.delete()
        #expect(deletion.phase == .deleted && deletion.resultMessage == "계정이 삭제되었습니다.")
        #expect(model.account == nil && model.lockScreen.presentation == .login)
        #expect(model.passwordForm.mode == .createAccount)
        #expect(try world.notes(owner: "local:mina").notes().isEmpty)
        #expect(try await Keychain(service: world.service, store: world.store).allKeys().isEmpty)
    }

    /// A Sign in with Apple account: deleting it asks Apple again (the step-up), then forgets the Apple user; a
    /// relaunch finds nobody.
    @MainActor @Test func deletingASignInWithAppleAccount() async throws {
        let services = try await AuthenticationServicesFixture.start(appleID: "sora@example.com")
        defer { services.stop() }
        let world = try SecureNotesWorld()
        defer { world.cleanUp() }
        let environment = world.environment(server: services.server.baseURL)
        let model = SecureNotesModel(environment: environment, defaults: world.defaults)
        await model.launch()
        await Self.tapSignInWithApple(model)
        let account = try #require(model.account)
        #expect(account.method == .apple && model.addNote(title: "Apple note", body: "mine"))

        try services.passStepUpMaxAge()
        let deletion = try #require(model.deleteAccountScreen())
        await deletion.delete()
        #expect(deletion.phase == .deleted, "\(deletion.errorMessage ?? "")")
        #expect(model.account == nil && model.lockScreen.presentation == .login)
        #expect(try world.notes(owner: account.notesOwner).notes().isEmpty)
        #expect(try await Keychain(service: world.service, store: world.store).allKeys().isEmpty)
        let relaunched = SecureNotesModel(environment: environment, defaults: world.defaults)
        await relaunched.launch()
        #expect(relaunched.account == nil && relaunched.lockScreen.presentation == .login)
    }
}
