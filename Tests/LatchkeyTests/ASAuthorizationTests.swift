import AuthenticationServices
import CryptoKit
import Foundation
import LatchkeyTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LatchkeyWebAuthn
import Security
import Testing
@testable import Latchkey

/// ASAuthorization code against a real `latchkey serve` and `latchkey apple-stand-in`, through the Linux
/// `AuthenticationServices` module (both build modes: in the apple-frameworks mode this is the module the kit's Apple
/// code compiles against). Serialized: the module's configuration (Apple ID authority, simulated owner) is per process.
@Suite("ASAuthorization against latchkey serve", .serialized, .enabled(if: LatchkeyBinary.testsRun, LatchkeyBinary.skipReason), .offCooperativePool)
struct ASAuthorizationTests {
    /// Waits for the next event of an app-code object (`AccountManager`, `LoginController`) started by `start`.
    @MainActor
    static func event<Reporter: ReportsEvents>(_ reporter: Reporter, start: () -> Void) async -> Reporter.Event {
        await withCheckedContinuation { continuation in
            reporter.onEvent = { event in
                reporter.onEvent = nil
                continuation.resume(returning: event)
            }
            start()
        }
    }

    /// The relying party's endpoints, through `PasskeyClient`'s requests.
    struct RelyingParty {
        let client: PasskeyClient

        init(_ server: ServerProcess) {
            client = PasskeyClient(baseURL: server.baseURL, ceremony: PlatformPasskeyCeremony())
        }

        func registrationOptions(username: String) async throws -> PublicKeyCredentialCreationOptions {
            let envelope: PasskeyClient.OptionsEnvelope<PublicKeyCredentialCreationOptions> = try await client.post(
                "v1/passkeys/register/options", PasskeyClient.RegisterRequest(username: username), bearer: nil)
            return envelope.publicKey
        }

        func assertionOptions() async throws -> PublicKeyCredentialRequestOptions {
            let envelope: PasskeyClient.OptionsEnvelope<PublicKeyCredentialRequestOptions> = try await client.post(
                "v1/passkeys/authenticate/options", PasskeyClient.RegisterRequest(username: nil), bearer: nil)
            return envelope.publicKey
        }

        func verifyRegistration(_ response: RegistrationResponse) async throws -> PasskeyClient.RegistrationResult {
            try await client.post("v1/passkeys/register/verify", response, bearer: nil)
        }

        func verifyAssertion(_ response: AuthenticationResponse) async throws -> TokenGrant {
            try await client.post("v1/passkeys/authenticate/verify", response, bearer: nil)
        }
    }

    static func origin(of clientDataJSON: Data) throws -> String? {
        (try JSONSerialization.jsonObject(with: clientDataJSON) as? [String: Any])?["origin"] as? String
    }

    static func username(_ server: ServerProcess, accessToken: String) async throws -> String? {
        try await server.request("GET", "v1/me", bearer: accessToken).body["username"] as? String
    }
}

extension ASAuthorizationTests {
    /// Code written as Apple's documentation and tutorials write it (`AuthenticationServicesClient/`).
    @Suite("As Apple's documentation writes it")
    struct DocumentationStyle {
        @MainActor @Test func delegateStylePasskeyRegistersAndSignsIn() async throws {
            let services = try await AuthenticationServicesFixture.start()
            defer { services.stop() }
            let rp = RelyingParty(services.server)
            let manager = AccountManager(domain: AuthenticationServicesFixture.relyingParty)
            let options = try await rp.registrationOptions(username: "ada")
            let created = await ASAuthorizationTests.event(manager) {
                manager.signUpWith(userName: options.user.name, challenge: options.challenge.data,
                                   userID: options.user.id.data, anchor: ASPresentationAnchor())
            }
            guard case let .registered(credentialID, clientDataJSON, attestationObject) = created else {
                Issue.record("registration ended with \(created)")
                return
            }
            #expect(try ASAuthorizationTests.origin(of: clientDataJSON) == "https://localhost")
            let registered = try await rp.verifyRegistration(RegistrationResponse(
                rawId: credentialID, response: AuthenticatorAttestationResponse(clientDataJSON: clientDataJSON,
                                                                                attestationObject: attestationObject)))
            #expect(registered.id == credentialID.base64URLEncodedString() && registered.tokens != nil)

            let challenge = try await rp.assertionOptions().challenge.data
            let signed = await ASAuthorizationTests.event(manager) {
                manager.signInWith(challenge: challenge, anchor: ASPresentationAnchor(),
                                   preferImmediatelyAvailableCredentials: true)
            }
            guard case let .signedIn(id, clientData, authenticatorData, signature, userID) = signed else {
                Issue.record("sign-in ended with \(signed)")
                return
            }
            #expect(id == credentialID && userID == options.user.id.data)
            let tokens = try await rp.verifyAssertion(AuthenticationResponse(
                rawId: id, response: AuthenticatorAssertionResponse(clientDataJSON: clientData,
                                                                    authenticatorData: authenticatorData,
                                                                    signature: signature, userHandle: userID)))
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: tokens.accessToken) == "ada")
        }

        @MainActor @Test func asyncStylePasskeyRegistersAndSignsIn() async throws {
            let services = try await AuthenticationServicesFixture.start()
            defer { services.stop() }
            let rp = RelyingParty(services.server)
            let options = try await rp.registrationOptions(username: "grace")
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: "localhost")
            let authorization = AsyncAuthorization()
            let created = try await authorization.perform([provider.createCredentialRegistrationRequest(
                challenge: options.challenge.data, name: options.user.name, userID: options.user.id.data)])
            let attestationObject = try #require(created.attestationObject)
            _ = try await rp.verifyRegistration(RegistrationResponse(
                rawId: created.credentialID,
                response: AuthenticatorAttestationResponse(clientDataJSON: created.clientDataJSON,
                                                           attestationObject: attestationObject)))

            let challenge = try await rp.assertionOptions().challenge.data
            let request = provider.createCredentialAssertionRequest(challenge: challenge)
            request.allowedCredentials = [ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: created.credentialID)]
            let signed = try await authorization.perform([request])
            let tokens = try await rp.verifyAssertion(AuthenticationResponse(
                rawId: signed.credentialID,
                response: AuthenticatorAssertionResponse(clientDataJSON: signed.clientDataJSON,
                                                         authenticatorData: try #require(signed.authenticatorData),
                                                         signature: try #require(signed.signature),
                                                         userHandle: signed.userID)))
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: tokens.accessToken) == "grace")

            // A user who cancels the prompt: the continuation throws ASAuthorizationError.canceled.
            try AuthenticationServicesFixture.simulator.enqueue(.cancel)
            await #expect(throws: ASAuthorizationError(.canceled)) {
                _ = try await authorization.perform([provider.createCredentialAssertionRequest(challenge: challenge)])
            }
        }

        @MainActor @Test func delegateStyleSignInWithAppleYieldsAServerSession() async throws {
            let services = try await AuthenticationServicesFixture.start(appleID: "lin@example.com")
            defer { services.stop() }
            let manager = AccountManager(domain: AuthenticationServicesFixture.relyingParty)
            // The nonce as the tutorials make it: random characters, SHA-256 hex in the request, raw to the server.
            var bytes = [UInt8](repeating: 0, count: 32)
            #expect(SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes) == errSecSuccess)
            let rawNonce = Data(bytes).base64EncodedString()
            let hashed = SHA256.hash(data: Data(rawNonce.utf8)).compactMap { String(format: "%02x", $0) }.joined()

            let first = await ASAuthorizationTests.event(manager) {
                manager.signInWithApple(nonce: hashed, anchor: ASPresentationAnchor())
            }
            guard case let .signedInWithApple(user, identityToken, code, email, givenName) = first else {
                Issue.record("Sign in with Apple ended with \(first)")
                return
            }
            #expect(email?.hasSuffix("@privaterelay.appleid.com") == true && givenName == "Lin")
            var body: [String: Any] = ["identity_token": identityToken, "raw_nonce": rawNonce,
                                       "user": ["email": email ?? "", "name": ["firstName": givenName ?? ""]]]
            body["authorization_code"] = code
            let session = try await Self.postJSON(services.server.baseURL.appendingPathComponent("v1/session/apple"), body)
            #expect(session.status == 200)
            let access = try #require(session.body["access_token"] as? String)
            #expect(try await ASAuthorizationTests.username(services.server, accessToken: access) == "apple:\(user)")

            // The second authorization shares neither name nor email, and the same user signs in again.
            let second = await ASAuthorizationTests.event(manager) {
                manager.signInWithApple(nonce: hashed, anchor: ASPresentationAnchor())
            }
            guard case let .signedInWithApple(sameUser, _, _, noEmail, noName) = second else {
                Issue.record("second Sign in with Apple ended with \(second)")
                return
            }
            #expect(sameUser == user && noEmail == nil && noName == nil)
            // A token whose nonce is not SHA-256 of the raw nonce is refused.
            let forged = try await Self.postJSON(services.server.baseURL.appendingPathComponent("v1/session/apple"),
                                                 ["identity_token": identityToken, "raw_nonce": "another"])
            #expect(forged.status == 401)
        }

        @MainActor @Test func withoutAPasskeyTheSheetEndsCanceled() async throws {
            let services = try await AuthenticationServicesFixture.start(relyingParty: "nobody.example")
            defer { services.stop() }
            let manager = AccountManager(domain: "nobody.example")
            let ended = await ASAuthorizationTests.event(manager) {
                manager.signInWith(challenge: Data(repeating: 7, count: 32), anchor: ASPresentationAnchor(),
                                   preferImmediatelyAvailableCredentials: true)
            }
            guard case .canceled = ended else {
                Issue.record("expected .canceled, got \(ended)")
                return
            }
        }

        static func postJSON(_ url: URL, _ object: [String: Any]) async throws -> (status: Int, body: [String: Any]) {
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: object)
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0,
                    (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
        }
    }
}

/// The app-code objects of `AuthenticationServicesClient/`, which report what their delegate heard through `onEvent`.
@MainActor
protocol ReportsEvents: AnyObject {
    associatedtype Event: Sendable
    var onEvent: ((Event) -> Void)? { get set }
}

extension AccountManager: ReportsEvents {}
extension LoginController: ReportsEvents {}
