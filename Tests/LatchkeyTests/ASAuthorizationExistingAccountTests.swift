import AuthenticationServices
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Security
import LatchkeyCrypto
import Testing
@testable import Latchkey

/// The existing-account flow: Apple's documented code (`AuthenticationServicesClient/ExistingAccountSetup.swift`) and
/// the kit's `ExistingAccountSignIn`, on the Linux `AuthenticationServices` module against a real `latchkey serve` and
/// `latchkey apple-stand-in` (both build modes). Each test uses a relying party of its own, so the passkeys and saved
/// passwords of the process's test keychain do not meet.
extension ASAuthorizationTests {
    @Suite("The existing-account flow")
    struct ExistingAccounts {
        /// A password as Safari's AutoFill (or `SecAddSharedWebCredential`) saves it: an internet password of the domain.
        static func savePassword(_ password: String, user: String, domain: String) throws {
            let item: [String: Any] = [kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: domain,
                                       kSecAttrAccount as String: user, kSecAttrProtocol as String: kSecAttrProtocolHTTPS,
                                       kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeHTMLForm,
                                       kSecValueData as String: Data(password.utf8)]
            let status = SecItemAdd(item as CFDictionary, nil)
            try #require(status == errSecSuccess, "saving the password: \(status)")
        }

        static func forgetPasswords(domain: String) {
            SecItemDelete([kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: domain] as CFDictionary)
        }

        /// An account with a password on the server.
        static func createAccount(_ server: ServerProcess, username: String, password: String) async throws {
            let created = try await server.request("POST", "v1/accounts", json: ["username": username, "password": password])
            try #require(created.status == 201, "creating \(username): \(created.status)")
        }

        /// Apple's sample, unchanged: the saved password of the app's `webcredentials:` domain comes back as an
        /// `ASPasswordCredential`, and the server starts a session with it.
        @MainActor @Test func applesExistingAccountCodeHandsOverTheSavedPassword() async throws {
            let domain = "sample.example"
            let services = try await AuthenticationServicesFixture.start(relyingParty: domain)
            LatchkeyAuthenticationServicesConfiguration.associatedDomains = ["applinks:\(domain)", "webcredentials:\(domain)"]
            defer {
                services.stop()
                Self.forgetPasswords(domain: domain)
                LatchkeyAuthenticationServicesConfiguration.associatedDomains = []
            }
            let controller = LoginController()
            // Nothing saved and no earlier Sign in with Apple for this app: the flow ends without a sheet.
            let nothing = await ASAuthorizationTests.event(controller) { controller.performExistingAccountSetupFlows() }
            guard case .canceled = nothing else {
                Issue.record("expected .canceled, got \(nothing)")
                return
            }

            try await Self.createAccount(services.server, username: "juice", password: "correct horse battery")
            try Self.savePassword("correct horse battery", user: "juice", domain: domain)
            let found = await ASAuthorizationTests.event(controller) { controller.performExistingAccountSetupFlows() }
            guard case let .password(username, password) = found else {
                Issue.record("expected the saved password, got \(found)")
                return
            }
            #expect(username == "juice" && password == "correct horse battery")
            let tokens = try await PasswordSessionClient(baseURL: services.server.baseURL)
                .signIn(username: username, password: password)
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: tokens.accessToken) == "juice")

            // The user declines the Face ID prompt that hands the password over: canceled, as the sheet would be.
            try AuthenticationServicesFixture.simulator.enqueue(.cancel)
            let declined = await ASAuthorizationTests.event(controller) { controller.performExistingAccountSetupFlows() }
            guard case .canceled = declined else {
                Issue.record("expected .canceled, got \(declined)")
                return
            }
        }

        /// After the app's first Sign in with Apple, the same code finds the Apple ID credential (and none of a
        /// revoked one).
        @MainActor @Test func applesExistingAccountCodeFindsAnEarlierAppleIDSignIn() async throws {
            let services = try await AuthenticationServicesFixture.start(relyingParty: "apple.example", appleID: "juice@example.com")
            defer { services.stop() }
            let controller = LoginController()
            let before = await ASAuthorizationTests.event(controller) { controller.performExistingAccountSetupFlows() }
            guard case .canceled = before else {
                Issue.record("expected .canceled before any Sign in with Apple, got \(before)")
                return
            }
            let first = try await SystemAppleIDAuthorizer().authorize(AppleIDAuthorizationRequest(
                hashedNonce: AppleSignIn.makeNonce().hashed, state: "s", scopes: [.email]))
            let found = await ASAuthorizationTests.event(controller) { controller.performExistingAccountSetupFlows() }
            guard case let .appleID(user, identityToken, email, _) = found else {
                Issue.record("expected the Apple ID credential, got \(found)")
                return
            }
            #expect(user == first.userID && identityToken != nil && email == nil)

            // Revoked in Settings: no longer offered.
            let revoked = try await services.apple.request("POST", "dev/revoke",
                                                           json: ["client_id": AuthenticationServicesFixture.clientID,
                                                                  "user": user])
            #expect(revoked.status == 200)
            let after = await ASAuthorizationTests.event(controller) { controller.performExistingAccountSetupFlows() }
            guard case .canceled = after else {
                Issue.record("expected .canceled after the revocation, got \(after)")
                return
            }
        }

        /// A saved password is never printed: not by the credential, not by the kit's form of it.
        @MainActor @Test func thePasswordIsNeverPrinted() {
            let credential = ASPasswordCredential(user: "juice", password: "pw-Secret-4711")
            var dumped = ""
            dump(credential, to: &dumped)
            #expect(credential.user == "juice" && credential.password == "pw-Secret-4711")
            #expect(!dumped.contains("pw-Secret") && !credential.description.contains("pw-Secret"))
            let picked = ExistingAccountCredential.password(user: "juice", password: "pw-Secret-4711")
            #expect("\(picked)" == "password(user: juice)")
        }

        @Test func errorsAreWordedInEnglishAndKorean() {
            let rows: [(ExistingAccountSignInError, Bilingual)] = [
                (.password(.invalidCredentials), Bilingual("The user name or password is incorrect.",
                                                          "사용자 이름 또는 암호가 올바르지 않습니다.")),
                (.password(.throttled(retryAfter: 30)), Bilingual("Too many failed attempts. Try again in 30 seconds.",
                                                                 "실패한 시도가 너무 많습니다. 30초 후에 다시 시도하세요.")),
                (.authorization(.notHandled), Bilingual("The sign-in request was not handled.",
                                                        "로그인 요청이 처리되지 않았습니다.")),
            ]
            for (error, words) in rows {
                for language in MessageLanguage.allCases { #expect(error.message(in: language) == words(language)) }
            }
        }

        // MARK: - The kit's call

        static func existingAccount(_ services: AuthenticationServicesFixture.Services,
                                    appleKeychain: String) -> (ExistingAccountSignIn, AppleSignIn) {
            let apple = AppleSignIn(keychain: Keychain(service: appleKeychain, store: MemoryStore()),
                                    stateProvider: SystemAppleCredentialStateProvider()) {}
            return (ExistingAccountSignIn(baseURL: services.server.baseURL, appleSignIn: apple), apple)
        }

        @Test func nothingToOfferIsNoSessionAndNoError() async throws {
            let services = try await AuthenticationServicesFixture.start(relyingParty: "empty.example")
            defer { services.stop() }
            let (existing, _) = Self.existingAccount(services, appleKeychain: "empty")
            #expect(try await existing.signIn() == nil)
        }

        @Test func aSavedPasswordStartsAPasswordSession() async throws {
            let domain = "password.example"
            let services = try await AuthenticationServicesFixture.start(relyingParty: domain)
            defer {
                services.stop()
                Self.forgetPasswords(domain: domain)
            }
            try await Self.createAccount(services.server, username: "ada", password: "analytical engine")
            // The passkey request names the relying party, so its domain's saved passwords are offered with it.
            try Self.savePassword("analytical engine", user: "ada", domain: domain)
            let (existing, _) = Self.existingAccount(services, appleKeychain: "password")
            let signedIn = try #require(try await existing.signIn())
            #expect(signedIn.method == .password && signedIn.username == "ada")
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: signedIn.tokens.accessToken) == "ada")

            // A password changed elsewhere since it was saved: the server's refusal, not a silent nil.
            Self.forgetPasswords(domain: domain)
            try Self.savePassword("an old password", user: "ada", domain: domain)
            await #expect(throws: ExistingAccountSignInError.password(.invalidCredentials)) { try await existing.signIn() }
        }

        @Test func aPasskeyStartsAPasskeySession() async throws {
            let domain = "passkey.example"
            let services = try await AuthenticationServicesFixture.start(relyingParty: domain)
            defer { services.stop() }
            let client = PasskeyClient(baseURL: services.server.baseURL, ceremony: PlatformPasskeyCeremony())
            _ = try await client.register(username: "grace")
            let (existing, _) = Self.existingAccount(services, appleKeychain: "passkey")
            let signedIn = try #require(try await existing.signIn())
            #expect(signedIn.method == .passkey)
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: signedIn.tokens.accessToken) == "grace")
        }

        @Test func anEarlierSignInWithAppleStartsAnAppleSession() async throws {
            let services = try await AuthenticationServicesFixture.start(relyingParty: "appleid.example", appleID: "lovelace@example.com")
            defer { services.stop() }
            let (existing, apple) = Self.existingAccount(services, appleKeychain: "apple")
            let first = try await apple.signIn(with: SystemAppleIDAuthorizer(),
                                               server: AppleSessionClient(baseURL: services.server.baseURL))
            let signedIn = try #require(try await existing.signIn())
            #expect(signedIn.method == .apple && signedIn.appleAuthorization?.userID == first.authorization.userID)
            #expect(try apple.userID() == first.authorization.userID)
            let me = try await ASAuthorizationTests.username(services.server, accessToken: signedIn.tokens.accessToken)
            #expect(me == "apple:\(first.authorization.userID)")
        }
    }
}
