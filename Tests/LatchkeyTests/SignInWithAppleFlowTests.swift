import AuthenticationServices
import Foundation
import Testing
@testable import Latchkey

extension ASAuthorizationTests {
    /// The kit's Sign in with Apple: `AppleSignIn` over `SystemAppleIDAuthorizer` (ASAuthorizationAppleIDProvider),
    /// `latchkey apple-stand-in` as Apple, `POST /v1/session/apple` on a real server.
    @Suite("Sign in with Apple")
    struct SignInWithApple {
        /// Sign-outs, awaited by a test.
        final class SignOuts: Sendable {
            let signal = AsyncStream<Void>.makeStream()
            func record() { signal.continuation.yield() }
            func next() async { for await _ in signal.stream { return } }
        }

        static func make(_ signOuts: SignOuts) -> AppleSignIn {
            AppleSignIn(keychain: Keychain(service: "test.apple.\(UUID().uuidString)", store: MemoryStore()),
                        stateProvider: SystemAppleCredentialStateProvider()) { signOuts.record() }
        }

        @MainActor @Test func startsASessionAndKeepsTheNameUntilTheServerHasIt() async throws {
            let services = try await AuthenticationServicesFixture.start(appleID: "sora@example.com")
            defer { services.stop() }
            let signOuts = SignOuts()
            let apple = Self.make(signOuts)
            // A server that does not accept this app: the first authorization's name and email stay in the keychain.
            let elsewhere = try await ServerProcess(binary: try LatchkeyBinary.required(), arguments: [
                "--apple-client-id", "com.example.other", "--apple-base-url", services.apple.baseURL.absoluteString])
            defer { elsewhere.stop() }
            do {
                _ = try await apple.signIn(with: SystemAppleIDAuthorizer(), server: AppleSessionClient(baseURL: elsewhere.baseURL))
                Issue.record("a server for another app accepted the token")
            } catch {
                guard case .rejected(401, "invalid_grant", _) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
            }
            let pending = try #require(try apple.pendingProfile())
            #expect(pending.givenName == "Sora" && pending.email?.hasSuffix("@privaterelay.appleid.com") == true)
            #expect(try apple.userID() == nil)

            // The right server: Apple gives no name this time; the kept one is sent, then forgotten.
            let result = try await apple.signIn(with: SystemAppleIDAuthorizer(),
                                                server: AppleSessionClient(baseURL: services.server.baseURL))
            #expect(result.authorization.email == nil && result.authorization.fullName == nil)
            #expect(result.authorization.userID == pending.userID)
            #expect(try apple.pendingProfile() == nil)
            #expect(try apple.userID() == result.authorization.userID)
            let username = try await ASAuthorizationTests.username(services.server, accessToken: result.tokens.accessToken)
            #expect(username == "apple:\(result.authorization.userID)")
            #expect(!String(describing: result.authorization).contains(result.authorization.identityToken))
        }

        @MainActor @Test func revocationSignsOutAtLaunchAndOnTheNotification() async throws {
            let services = try await AuthenticationServicesFixture.start(appleID: "ren@example.com")
            defer { services.stop() }
            let signOuts = SignOuts()
            let apple = Self.make(signOuts)
            let server = AppleSessionClient(baseURL: services.server.baseURL)
            let user = try await apple.signIn(with: SystemAppleIDAuthorizer(), server: server).authorization.userID
            #expect(await apple.checkCredentialState() == .authorized)

            // The user stops using Sign in with Apple with the app (Settings): the next launch signs out.
            let revoke = try await ASAuthorizationTests.DocumentationStyle.postJSON(
                services.apple.baseURL.appendingPathComponent("dev/revoke"),
                ["client_id": AuthenticationServicesFixture.clientID, "user": user])
            #expect(revoke.status == 200)
            #expect(await apple.checkCredentialState() == .revoked)
            await signOuts.next()
            #expect(try apple.userID() == nil)

            // Signed in again; the system's revocation notification signs out while the app runs.
            _ = try await apple.signIn(with: SystemAppleIDAuthorizer(), server: server)
            let observation = apple.observeCredentialRevocation()
            defer { observation.cancel() }
            NotificationCenter.default.post(name: ASAuthorizationAppleIDProvider.credentialRevokedNotification, object: nil)
            await signOuts.next()
            #expect(try apple.userID() == nil)
        }

        /// SwiftUI's `SignInWithAppleButton` performs the request itself: `AppleIDAuthorization(_:)` reads its
        /// `ASAuthorization` and `finishSignIn` starts the session with the nonce the request carried.
        @MainActor @Test func finishesAnAuthorizationTheButtonObtained() async throws {
            let services = try await AuthenticationServicesFixture.start(appleID: "jun@example.com")
            defer { services.stop() }
            let apple = Self.make(SignOuts())
            let server = AppleSessionClient(baseURL: services.server.baseURL)
            let nonce = AppleSignIn.makeNonce()
            let result = await SignInWithAppleButtonStandIn().tap { request in
                request.requestedScopes = [.fullName, .email]
                request.nonce = nonce.hashed
                request.state = "state-1"
            }
            let authorization = try AppleIDAuthorization(result.get())
            #expect(authorization.state == "state-1" && authorization.email != nil)

            await #expect(throws: SignInWithAppleError.stateMismatch) {
                try await apple.finishSignIn(authorization, nonce: nonce, state: "another request", server: server)
            }
            // Another nonce than the request's: the server refuses the token; the first-time name and email are kept.
            do {
                _ = try await apple.finishSignIn(authorization, nonce: AppleSignIn.makeNonce(), server: server)
                Issue.record("a token for another nonce was accepted")
            } catch {
                guard case .rejected(401, "invalid_grant", _) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(SignInScreenError(classifying: error) == .rejected)
            }
            #expect(try apple.pendingProfile()?.email == authorization.email)

            let session = try await apple.finishSignIn(authorization, nonce: nonce, state: "state-1", server: server)
            #expect(try apple.userID() == authorization.userID && apple.pendingProfile() == nil)
            let username = try await ASAuthorizationTests.username(services.server, accessToken: session.tokens.accessToken)
            #expect(username == "apple:\(authorization.userID)")

            // A passkey is no Apple ID authorization.
            let passkey = await SignInWithAppleButtonStandIn().perform([
                ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: "localhost")
                    .createCredentialRegistrationRequest(challenge: Data(repeating: 7, count: 32), name: "jun",
                                                         userID: Data("jun".utf8)),
            ])
            #expect(throws: AuthorizationCeremonyError.invalidResponse("ASAuthorizationPlatformPublicKeyCredentialRegistration")) {
                try AppleIDAuthorization(passkey.get())
            }
        }

        @MainActor @Test func aCanceledSheetIsNotAFailureToShow() async throws {
            let services = try await AuthenticationServicesFixture.start()
            defer { services.stop() }
            let apple = Self.make(SignOuts())
            try AuthenticationServicesFixture.simulator.enqueue(.cancel)
            do {
                _ = try await apple.signIn(with: SystemAppleIDAuthorizer(),
                                           server: AppleSessionClient(baseURL: services.server.baseURL))
                Issue.record("the sign-in succeeded")
            } catch {
                #expect(error == .canceled && !error.shouldShowToUser)
            }
            #expect(try apple.pendingProfile() == nil && apple.userID() == nil)
        }
    }
}
