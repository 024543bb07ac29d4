import AuthenticationServices
import Foundation
import LatchkeyWebAuthn
import Testing
@testable import Latchkey

extension ASAuthorizationTests {
    /// The kit's `PlatformPasskeyCeremony` (over `ASAuthorizationController`) with `PasskeyClient`, against a real server.
    @Suite("PlatformPasskeyCeremony")
    struct PlatformPasskeys {
        @MainActor @Test func registersAndSignsInWithThePlatformAuthenticator() async throws {
            let services = try await AuthenticationServicesFixture.start()
            defer { services.stop() }
            let client = PasskeyClient(baseURL: services.server.baseURL, ceremony: PlatformPasskeyCeremony())
            #expect(client.ceremonyOrigin(relyingPartyID: "localhost") == "https://localhost")
            #expect(client.origin == services.server.baseURL.absoluteString.trimmingCharacters(in: ["/"]))
            let registered = try await client.register(username: "mina")
            let created = try #require(registered.tokens)
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: created.accessToken) == "mina")
            let signedIn = try await client.signIn()
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: signedIn.accessToken) == "mina")
            // AutoFill-assisted: the passkey offered in the username field, picked.
            let autoFilled = try await client.signIn(autoFill: true)
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: autoFilled.accessToken) == "mina")
            let listed = try await client.passkeys(accessToken: autoFilled.accessToken)
            #expect(listed.map(\.id) == [registered.id])

            // Adding a second passkey to the account on the same device: the server excludes the first, the system refuses.
            await #expect(throws: PasskeyClientError.ceremony(.credentialExists)) {
                _ = try await client.register(username: nil, accessToken: signedIn.accessToken)
            }
        }

        @MainActor @Test func securityKeysRegisterAndSignIn() async throws {
            let services = try await AuthenticationServicesFixture.start(relyingParty: "keys.example")
            LatchkeyAuthenticationServicesConfiguration.securityKey = LatchkeyVirtualSecurityKey()
            defer {
                LatchkeyAuthenticationServicesConfiguration.securityKey = nil
                services.stop()
            }
            let rp = RelyingParty(services.server)
            let options = try await rp.registrationOptions(username: "kai")
            let request = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: "keys.example")
                .createCredentialRegistrationRequest(challenge: options.challenge.data, displayName: options.user.displayName,
                                                     name: options.user.name, userID: options.user.id.data)
            request.credentialParameters = [ASAuthorizationPublicKeyCredentialParameters(algorithm: .ES256)]
            let created = try await AsyncAuthorization().perform([request])
            _ = try await rp.verifyRegistration(RegistrationResponse(
                rawId: created.credentialID,
                response: AuthenticatorAttestationResponse(clientDataJSON: created.clientDataJSON,
                                                           attestationObject: try #require(created.attestationObject)),
                authenticatorAttachment: "cross-platform"))
            // The kit offers security keys next to platform passkeys; only the key has one for this relying party.
            let client = PasskeyClient(baseURL: services.server.baseURL,
                                       ceremony: PlatformPasskeyCeremony(includesSecurityKeys: true))
            let tokens = try await client.signIn()
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: tokens.accessToken) == "kai")
            // Without the key, nothing answers: the sheet ends canceled.
            LatchkeyAuthenticationServicesConfiguration.securityKey = nil
            await #expect(throws: PasskeyClientError.canceled) { _ = try await client.signIn() }
        }

        @MainActor @Test func aCanceledPromptIsNotAFailureToShow() async throws {
            let services = try await AuthenticationServicesFixture.start()
            defer { services.stop() }
            let client = PasskeyClient(baseURL: services.server.baseURL, ceremony: PlatformPasskeyCeremony())
            try AuthenticationServicesFixture.simulator.enqueue(.cancel)
            do {
                _ = try await client.register(username: "nora")
                Issue.record("the registration succeeded")
            } catch {
                #expect(error == .canceled && !error.shouldShowToUser)
            }
            // Nothing was registered: signing in finds no passkey for the account (the sheet ends canceled too).
            let again = try await client.register(username: "nora")
            #expect(again.tokens != nil)
        }

        @MainActor @Test func cancellingTheTaskCancelsTheRequest() async throws {
            AuthenticationServicesFixture.install()
            // No passkey for this relying party: the AutoFill request waits for the user until it is canceled.
            let options = PublicKeyCredentialRequestOptions(challenge: Data(repeating: 1, count: 32), rpId: "waiting.example")
            let presented = AsyncStream<Void>.makeStream()
            let ceremony = PlatformPasskeyCeremony(presentationAnchor: {
                presented.continuation.yield()
                return ASPresentationAnchor()
            })
            let waiting = Task { try await ceremony.authenticateWithAutoFill(options, origin: "https://waiting.example") }
            for await _ in presented.stream { break }  // the controller runs: cancelling reaches it through cancel()
            waiting.cancel()
            await #expect(throws: AuthorizationCeremonyError.canceled) { _ = try await waiting.value }
            // A modal request for it ends at once: no credentials available.
            await #expect(throws: AuthorizationCeremonyError.canceled) {
                _ = try await ceremony.authenticate(options, origin: "https://waiting.example")
            }
        }
    }
}
