import AuthenticationServices
import Foundation
import Latchkey
import LatchkeyCrypto
import Testing
@testable import SecureNotesExampleCore

extension ASAuthorizationTests {
    /// The example app (`Examples/SecureNotes.swiftpm`) as its views drive it, against a real `latchkey serve` and
    /// `latchkey apple-stand-in`: the password account, Face ID with the passcode, the privacy cover and the lock on
    /// background, notes per account, passkey and Sign in with Apple accounts, Apple's revocation, the server address.
    @Suite("Secure notes example")
    struct SecureNotesExample {
        /// `SignInScreen`'s Apple button: the request with the model's nonce, the result to the model.
        @MainActor
        static func tapSignInWithApple(_ model: SecureNotesModel) async {
            var hashedNonce: String?
            let result = await SignInWithAppleButtonStandIn().tap { request in
                request.requestedScopes = [.fullName, .email]
                request.nonce = model.signIn.startAppleSignIn()?.hashed
                hashedNonce = request.nonce
            }
            #expect(hashedNonce?.count == 64)
            await model.signIn.finishAppleSignIn(result)
        }

        /// A password account: created, Face ID at every return from the background (the passcode when Face ID fails),
        /// the privacy cover while away, notes only in memory while unlocked, a relaunch that stays locked.
        @MainActor @Test func passwordAccountFaceIDAndThePrivacyCover() async throws {
            let world = try SecureNotesWorld()
            defer { world.cleanUp() }
            let server = try #require(URL(string: "https://notes.example.com"))
            let model = SecureNotesModel(environment: world.environment(server: server), defaults: world.defaults)
            await model.launch()
            #expect(model.lockScreen.presentation == .login && model.account == nil)
            #expect(model.passwordForm.mode == .createAccount)

            model.lockScreen.logInWithPassword()
            model.passwordForm.username = "mina"
            (model.passwordForm.password, model.passwordForm.passwordConfirmation) = ("correct horse", "correct horse")
            await model.passwordForm.submit()
            #expect(model.lockScreen.presentation == .content)
            #expect(model.account == SignedInAccount(method: .password, username: "mina", server: nil))
            #expect(model.addNote(title: "Door code", body: "4711"))
            #expect(!model.addNote(title: "  ", body: "no title"))
            #expect(model.errorMessage == "Give the note a title.")
            model.dismissError()
            #expect(model.notes.map(\.title) == ["Door code"])

            // To the background: covered and locked; the notes leave memory.
            model.lockScreen.scenePhaseChanged(to: .inactive)
            #expect(model.lockScreen.isPrivacyCoverShown)
            model.lockScreen.scenePhaseChanged(to: .background)
            model.refresh()
            #expect(model.lockScreen.presentation == .lockScreen && model.notes.isEmpty)
            // Back: Face ID fails; "Use Passcode" (Face ID once more, then the passcode) opens it.
            try world.phone.next(.noMatch, .noMatch)
            await model.lockScreen.scenePhaseChanged(to: .active)?.value
            #expect(model.lockScreen.presentation == .lockScreen)
            #expect(model.lockScreen.primaryButton?.title == "Unlock with Face ID")
            await model.lockScreen.usePasscode()
            model.refresh()
            #expect(model.lockScreen.presentation == .content && !model.lockScreen.isPrivacyCoverShown)
            #expect(model.notes.map(\.title) == ["Door code"])

            // The app is suspended, then ended; its next launch: the same keychain, locked until Face ID.
            model.lockScreen.scenePhaseChanged(to: .background)
            let relaunched = SecureNotesModel(environment: world.environment(server: server), defaults: world.defaults)
            try world.phone.next(.cancel)
            await relaunched.launch()
            #expect(relaunched.lockScreen.presentation == .lockScreen && relaunched.notes.isEmpty)
            #expect(relaunched.account?.username == "mina" && relaunched.passwordForm.mode == .logIn)
            try world.phone.next(.match)
            await relaunched.lockScreen.performPrimaryAction()
            relaunched.refresh()
            #expect(relaunched.notes.map(\.title) == ["Door code"])

            // A locked note: Face ID to lock, and to open.
            let id = try #require(relaunched.notes.first?.id)
            try world.phone.next(.match)
            #expect(await relaunched.setLocked(true, id))
            #expect(relaunched.notes.first?.isLocked == true && relaunched.notes.first?.body == "")
            try world.phone.next(.cancel)
            #expect(await relaunched.open(id) == nil && relaunched.errorMessage == nil, "a cancelled prompt says nothing")
            try world.phone.next(.match)
            #expect(await relaunched.open(id)?.body == "4711")

            await relaunched.signOut()
            #expect(relaunched.lockScreen.presentation == .login && relaunched.account == nil && relaunched.notes.isEmpty)
        }

        /// A server account with a passkey (created in the app), signed out and in again with the passkey button; its
        /// notes are its own.
        @MainActor @Test func passkeyAccountAgainstLatchkeyServe() async throws {
            let services = try await AuthenticationServicesFixture.start()
            defer { services.stop() }
            let world = try SecureNotesWorld()
            defer { world.cleanUp() }
            let model = SecureNotesModel(environment: world.environment(server: services.server.baseURL),
                                         defaults: world.defaults)
            await model.launch()
            let username = "ada-\(UUID().uuidString.prefix(8).lowercased())"
            await model.createPasskeyAccount(username: username)
            #expect(model.errorMessage == nil)
            #expect(model.account == SignedInAccount(method: .passkey, username: username,
                                                     server: services.server.baseURL.host))
            #expect(model.lockScreen.presentation == .content)
            #expect(model.addNote(title: "Server account note", body: "only mine"))
            let access = try await model.accessToken()
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: access) == username)

            await model.signOut()
            #expect(model.lockScreen.presentation == .login && model.notes.isEmpty)
            await #expect(throws: TokenManagerError.loggedOut) { try await model.accessToken() }

            await model.signIn.signInWithPasskey()
            #expect(model.signIn.errorMessage == nil)
            #expect(model.account?.method == .passkey && model.account?.username == username)
            #expect(model.notes.map(\.title) == ["Server account note"])
        }

        /// At launch, signed out, Apple's existing-account sheet: the password saved for the server's website signs the
        /// app in to the server account, with nothing typed; once signed out, a launch with nothing saved stays at the
        /// sign-in screen without a word.
        @MainActor @Test func aSavedPasswordSignsInAtLaunch() async throws {
            let domain = "notes.example"
            let services = try await AuthenticationServicesFixture.start(relyingParty: domain)
            defer {
                services.stop()
                ASAuthorizationTests.ExistingAccounts.forgetPasswords(domain: domain)
            }
            let world = try SecureNotesWorld()
            defer { world.cleanUp() }
            try await ASAuthorizationTests.ExistingAccounts.createAccount(services.server, username: "mina",
                                                                           password: "correct horse battery")
            try ASAuthorizationTests.ExistingAccounts.savePassword("correct horse battery", user: "mina", domain: domain)
            let environment = world.environment(server: services.server.baseURL,
                                                existingAccounts: SystemExistingAccountAuthorizer())
            let model = SecureNotesModel(environment: environment, defaults: world.defaults)
            await model.launch()
            #expect(model.errorMessage == nil)
            #expect(model.account == SignedInAccount(method: .serverPassword, username: "mina",
                                                     server: services.server.baseURL.host))
            #expect(model.lockScreen.presentation == .content)
            #expect(model.addNote(title: "Saved password note", body: "filled by AutoFill"))
            let access = try await model.accessToken()
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: access) == "mina")

            await model.signOut()
            ASAuthorizationTests.ExistingAccounts.forgetPasswords(domain: domain)
            let relaunched = SecureNotesModel(environment: environment, defaults: world.defaults)
            await relaunched.launch()
            #expect(relaunched.account == nil && relaunched.lockScreen.presentation == .login)
            #expect(relaunched.errorMessage == nil)
        }

        /// Sign in with Apple through `SignInScreen`'s button (the nonce the model made, the server's session for the
        /// Apple user); Apple revokes the user and the next launch signs out.
        @MainActor @Test func signInWithAppleAndRevocation() async throws {
            let services = try await AuthenticationServicesFixture.start(appleID: "mina@example.com")
            defer { services.stop() }
            let world = try SecureNotesWorld()
            defer { world.cleanUp() }
            let environment = world.environment(server: services.server.baseURL, language: .korean)
            let model = SecureNotesModel(environment: environment, defaults: world.defaults)
            await model.launch()
            await Self.tapSignInWithApple(model)
            #expect(model.signIn.errorMessage == nil)
            let account = try #require(model.account)
            #expect(account.method == .apple && account.username.hasPrefix("apple:"))
            #expect(model.lockScreen.presentation == .content)
            #expect(model.addNote(title: "", body: "") == false && model.errorMessage == "메모 제목을 입력하세요.")

            // The user stops using Sign in with Apple with the app: at the next launch the app signs out.
            let user = String(account.username.dropFirst("apple:".count))
            let revoke = try await ASAuthorizationTests.DocumentationStyle.postJSON(
                services.apple.baseURL.appendingPathComponent("dev/revoke"),
                ["client_id": AuthenticationServicesFixture.clientID, "user": user])
            #expect(revoke.status == 200)
            let relaunched = SecureNotesModel(environment: environment, defaults: world.defaults)
            await relaunched.launch()
            #expect(relaunched.account == nil && relaunched.lockScreen.presentation == .login)

            // A cancelled sheet is no error.
            try AuthenticationServicesFixture.simulator.enqueue(.cancel)
            await Self.tapSignInWithApple(relaunched)
            #expect(relaunched.signIn.errorMessage == nil && relaunched.account == nil)
        }

        /// The server's address: refused with the reason; a new one signs a server account out (its tokens are the
        /// other server's); a server that does not answer is a network error on the sign-in screen.
        @MainActor @Test func theServerAddress() async throws {
            let services = try await AuthenticationServicesFixture.start()
            defer { services.stop() }
            let world = try SecureNotesWorld()
            defer { world.cleanUp() }
            let model = SecureNotesModel(environment: world.environment(server: services.server.baseURL),
                                         defaults: world.defaults)
            await model.launch()
            await model.createPasskeyAccount(username: "ren-\(UUID().uuidString.prefix(8).lowercased())")
            #expect(model.account?.method == .passkey)

            model.serverAddress = "http://notes.example.com"
            #expect(await model.saveServerAddress() == false)
            #expect(model.errorMessage == "Use https:// for notes.example.com: plain http:// is only for this device or the local network.")
            #expect(model.account?.method == .passkey, "a refused address changes nothing")

            model.serverAddress = "http://127.0.0.1:9"
            #expect(await model.saveServerAddress())
            #expect(model.server.absoluteString == "http://127.0.0.1:9" && model.account == nil)
            #expect(SecureNotesModel(environment: world.environment(server: services.server.baseURL),
                                     defaults: world.defaults).server.absoluteString == "http://127.0.0.1:9")
            await model.signIn.signInWithPasskey()
            #expect(model.signIn.errorMessage == SignInScreenError.network.message(for: .passkey, in: .english))
        }
    }
}
