import Foundation
import LatchkeyCrypto
import LatchkeySupport
import LatchkeyWebAuthn
import Testing
@testable import Latchkey

/// The session an app keeps.
private struct TestSession: Sendable, Equatable { var user: String }

/// What the system button hands over (`ASAuthorization` on Apple platforms: a class, not Sendable).
private final class TestAuthorization {
    let user: String
    init(user: String) { self.user = user }
}

/// `ASAuthorizationError` as AuthenticationServices bridges it to `NSError`: its domain and code.
private struct AuthorizationError: CustomNSError {
    static var errorDomain: String { "com.apple.AuthenticationServices.AuthorizationError" }
    var errorCode: Int
}

private struct SomethingElse: Error {}

private typealias Model = SignInScreenModel<TestSession, TestAuthorization>

/// The failure texts, per method.
private func failureText(_ error: SignInScreenError, _ method: SignInMethod) -> Bilingual? {
    switch (error, method) {
    case (.cancelled, _): nil
    case (.network, _): Bilingual("Could not reach the server. Check your connection and try again.",
                             "서버에 연결할 수 없습니다. 연결을 확인한 후 다시 시도하세요.")
    case (.rejected, .passkey): Bilingual("The server did not accept this passkey.", "서버가 이 패스키를 받아들이지 않았습니다.")
    case (.rejected, .apple): Bilingual("The server did not accept your Apple Account.", "서버가 Apple 계정을 받아들이지 않았습니다.")
    case (.failed, .passkey): Bilingual("Signing in with a passkey failed. Try again.", "패스키로 로그인하지 못했습니다. 다시 시도하세요.")
    case (.failed, .apple): Bilingual("Signing in with Apple failed. Try again.", "Apple로 로그인하지 못했습니다. 다시 시도하세요.")
    }
}

private struct ErrorRow: Sendable, CustomTestStringConvertible {
    var name: String
    var error: any Error
    var sorted: SignInScreenError
    var testDescription: String { name }
}

private let errorRows: [ErrorRow] = [
    ErrorRow(name: "task cancelled", error: CancellationError(), sorted: .cancelled),
    ErrorRow(name: "ASAuthorizationError.canceled", error: AuthorizationError(errorCode: 1001), sorted: .cancelled),
    ErrorRow(name: "ASAuthorizationError.failed", error: AuthorizationError(errorCode: 1004), sorted: .failed),
    ErrorRow(name: "ASAuthorizationError.unknown", error: AuthorizationError(errorCode: 1000), sorted: .failed),
    ErrorRow(name: "AuthError.userCancel", error: AuthError.userCancel, sorted: .cancelled),
    ErrorRow(name: "AuthError.systemCancel", error: AuthError.systemCancel, sorted: .cancelled),
    ErrorRow(name: "AuthError.appCancel", error: AuthError.appCancel, sorted: .cancelled),
    ErrorRow(name: "AuthError.failed", error: AuthError.failed, sorted: .failed),
    ErrorRow(name: "URLError.cancelled", error: URLError(.cancelled), sorted: .cancelled),
    ErrorRow(name: "URLError.notConnectedToInternet", error: URLError(.notConnectedToInternet), sorted: .network),
    ErrorRow(name: "PasskeyClientError.network", error: PasskeyClientError.network("refused"), sorted: .network),
    ErrorRow(name: "PasskeyClientError.rejected",
             error: PasskeyClientError.rejected(status: 401, error: "invalid_grant", description: nil),
             sorted: .rejected),
    ErrorRow(name: "PasskeyClientError.badResponse", error: PasskeyClientError.badResponse("x"), sorted: .failed),
    ErrorRow(name: "PasskeyClientError.ceremonyFailed", error: PasskeyClientError.ceremonyFailed("x"), sorted: .failed),
    ErrorRow(name: "PasskeyClientError.canceled", error: PasskeyClientError.canceled, sorted: .cancelled),
    ErrorRow(name: "PasskeyClientError.ceremony", error: PasskeyClientError.ceremony(.notHandled), sorted: .failed),
    ErrorRow(name: "AuthorizationCeremonyError.canceled", error: AuthorizationCeremonyError.canceled, sorted: .cancelled),
    ErrorRow(name: "AuthorizationCeremonyError.failed", error: AuthorizationCeremonyError.credentialExists, sorted: .failed),
    ErrorRow(name: "SignInWithAppleError.canceled", error: SignInWithAppleError.canceled, sorted: .cancelled),
    ErrorRow(name: "SignInWithAppleError.network", error: SignInWithAppleError.network("refused"), sorted: .network),
    ErrorRow(name: "SignInWithAppleError.rejected",
             error: SignInWithAppleError.rejected(status: 401, error: "invalid_grant", description: nil), sorted: .rejected),
    ErrorRow(name: "SignInWithAppleError.authorization(.canceled)",
             error: SignInWithAppleError.authorization(.canceled), sorted: .cancelled),
    ErrorRow(name: "SignInWithAppleError.authorization(.failed)",
             error: SignInWithAppleError.authorization(.failed("x")), sorted: .failed),
    ErrorRow(name: "SignInWithAppleError.stateMismatch", error: SignInWithAppleError.stateMismatch, sorted: .failed),
    ErrorRow(name: "SignInWithAppleError.keychain", error: SignInWithAppleError.keychain(.interactionNotAllowed),
             sorted: .failed),
    ErrorRow(name: "PasswordSessionError.invalidCredentials", error: PasswordSessionError.invalidCredentials,
             sorted: .rejected),
    ErrorRow(name: "PasswordSessionError.throttled", error: PasswordSessionError.throttled(retryAfter: 30), sorted: .rejected),
    ErrorRow(name: "PasswordSessionError.network", error: PasswordSessionError.network("refused"), sorted: .network),
    ErrorRow(name: "PasswordSessionError.canceled", error: PasswordSessionError.canceled, sorted: .cancelled),
    ErrorRow(name: "PasswordSessionError.badResponse", error: PasswordSessionError.badResponse, sorted: .failed),
    ErrorRow(name: "ExistingAccountSignInError.password", error: ExistingAccountSignInError.password(.invalidCredentials),
             sorted: .rejected),
    ErrorRow(name: "ExistingAccountSignInError.passkey", error: ExistingAccountSignInError.passkey(.network("x")),
             sorted: .network),
    ErrorRow(name: "ExistingAccountSignInError.apple", error: ExistingAccountSignInError.apple(.canceled), sorted: .cancelled),
    ErrorRow(name: "ExistingAccountSignInError.authorization",
             error: ExistingAccountSignInError.authorization(.notInteractive), sorted: .failed),
    ErrorRow(name: "SignInScreenError thrown by the app", error: SignInScreenError.rejected, sorted: .rejected),
    ErrorRow(name: "any other error", error: SomethingElse(), sorted: .failed),
]

/// A sign-in the test finishes: `signIn()` waits until `finish(_:)`.
private final class PendingSignIn: Sendable {
    private let calls = Locked(0)
    private let stream: AsyncStream<Result<TestSession, any Error>>
    private let continuation: AsyncStream<Result<TestSession, any Error>>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream() }

    var callCount: Int { calls.withLock { $0 } }

    func signIn() async throws -> TestSession {
        calls.withLock { $0 += 1 }
        for await result in stream { return try result.get() }
        throw CancellationError()
    }

    func finish(_ result: Result<TestSession, any Error>) { continuation.yield(result) }
}

@MainActor
@Suite struct SignInScreenModelTests {
    private final class Handed {
        var sessions: [(TestSession, SignInMethod)] = []
    }

    private func model(passkey: Model.PasskeySignIn?, apple: Model.AppleExchange?, language: MessageLanguage,
                       handed: Handed) -> Model {
        Model(passkey: passkey, exchangeApple: apple, language: language) { handed.sessions.append(($0, $1)) }
    }

    @Test(arguments: errorRows, [SignInMethod.passkey, .apple])
    fileprivate func errorsAreSortedAndWorded(_ row: ErrorRow, _ method: SignInMethod) async throws {
        #expect(SignInScreenError(classifying: row.error) == row.sorted)
        for language in MessageLanguage.allCases {
            let handed = Handed()
            let error = row.error
            let model = model(passkey: { throw error }, apple: { _, _ in Issue.record("no exchange"); throw error },
                              language: language, handed: handed)
            switch method {
            case .passkey:
                await model.signInWithPasskey()
            case .apple:
                #expect(model.startAppleSignIn() != nil)
                await model.finishAppleSignIn(.failure(error))
            }
            #expect(model.state == (row.sorted.isCancellation ? .idle : .failed(method, row.sorted)))
            #expect(model.errorMessage == failureText(row.sorted, method)?(language))
            #expect(handed.sessions.isEmpty)
            // A failure or a cancellation leaves both buttons usable.
            #expect(model.isEnabled(.passkey) && model.isEnabled(.apple))
            model.dismissError()
            #expect(model.state == .idle && model.errorMessage == nil)
        }
    }

    @Test(arguments: SignInScreenError.allCases, [SignInMethod.passkey, .apple])
    func everyFailureHasBothTexts(_ error: SignInScreenError, _ method: SignInMethod) {
        let english = error.message(for: method, in: .english)
        let korean = error.message(for: method, in: .korean)
        #expect(!english.isEmpty && !korean.isEmpty && english != korean)
        if let expected = failureText(error, method) {
            #expect(english == expected.english && korean == expected.korean)
        }
    }

    @Test(arguments: MessageLanguage.allCases)
    func titles(_ language: MessageLanguage) {
        let model = model(passkey: { TestSession(user: "a") }, apple: { _, _ in TestSession(user: "a") },
                          language: language, handed: Handed())
        #expect(model.title(for: .passkey) == Bilingual("Sign In with a Passkey", "패스키로 로그인")(language))
        #expect(model.title(for: .apple) == Bilingual("Sign in with Apple", "Apple로 로그인")(language))
        #expect(SignInMethod.passkey.systemImageName == "person.badge.key")
        #expect(SignInMethod.apple.systemImageName == "apple.logo")
    }

    @Test func passkeyInFlightDisablesAppleAndSucceeds() async throws {
        let pending = PendingSignIn()
        let handed = Handed()
        let model = model(passkey: { try await pending.signIn() }, apple: { _, _ in TestSession(user: "apple") },
                          language: .english, handed: handed)
        #expect(model.state == .idle && model.isEnabled(.passkey) && model.isEnabled(.apple))
        let running = Task { await model.signInWithPasskey() }
        while pending.callCount == 0 { await Task.yield() }
        #expect(model.state == .signingIn(.passkey) && model.isInFlight(.passkey) && !model.isInFlight(.apple))
        #expect(!model.isEnabled(.passkey) && !model.isEnabled(.apple))
        await model.signInWithPasskey()                     // a second tap
        #expect(model.startAppleSignIn() == nil)            // the other button
        await model.finishAppleSignIn(.success(TestAuthorization(user: "stray")))
        #expect(pending.callCount == 1 && model.state == .signingIn(.passkey))
        pending.finish(.success(TestSession(user: "mina")))
        await running.value
        #expect(model.state == .signedIn(.passkey) && model.errorMessage == nil)
        #expect(handed.sessions.map(\.0) == [TestSession(user: "mina")] && handed.sessions.map(\.1) == [.passkey])
        #expect(!model.isEnabled(.passkey) && !model.isEnabled(.apple), "signed in: no second sign-in")
        model.reset()
        #expect(model.state == .idle && model.isEnabled(.passkey))
    }

    @Test func appleInFlightDisablesThePasskeyAndExchangesWithTheRequestsNonce() async throws {
        let handed = Handed()
        let exchanged = Locked<[String]>([])
        let model = model(passkey: { Issue.record("no passkey sign-in"); return TestSession(user: "x") },
                          apple: { authorization, nonce in
                              exchanged.withLock { $0.append(nonce.raw) }
                              return TestSession(user: authorization.user)
                          }, language: .english, handed: handed)
        await model.finishAppleSignIn(.success(TestAuthorization(user: "early")))   // no request yet: ignored
        #expect(model.state == .idle && exchanged.withLock { $0 }.isEmpty)
        let nonce = try #require(model.startAppleSignIn())
        #expect(nonce.hashed == SHA256.hash(data: Data(nonce.raw.utf8)).hexString)
        #expect(model.state == .signingIn(.apple) && model.isInFlight(.apple))
        #expect(!model.isEnabled(.passkey) && !model.isEnabled(.apple) && model.startAppleSignIn() == nil)
        await model.signInWithPasskey()
        #expect(model.state == .signingIn(.apple))
        await model.finishAppleSignIn(.success(TestAuthorization(user: "apple-user")))
        #expect(exchanged.withLock { $0 } == [nonce.raw], "the server gets the raw nonce whose hash was in the request")
        #expect(model.state == .signedIn(.apple))
        #expect(handed.sessions.map(\.0) == [TestSession(user: "apple-user")] && handed.sessions.map(\.1) == [.apple])
        await model.finishAppleSignIn(.success(TestAuthorization(user: "again")))   // a stray completion
        #expect(handed.sessions.count == 1)
    }

    @Test(arguments: MessageLanguage.allCases)
    func theExchangesErrorsAreSortedToo(_ language: MessageLanguage) async throws {
        let model = model(passkey: nil, apple: { _, _ in throw URLError(.timedOut) }, language: language,
                          handed: Handed())
        _ = model.startAppleSignIn()
        await model.finishAppleSignIn(.success(TestAuthorization(user: "a")))
        #expect(model.state == .failed(.apple, .network))
        #expect(model.errorMessage == failureText(.network, .apple)?(language))
        // A retry after a failure starts a new request.
        #expect(model.startAppleSignIn() != nil && model.state == .signingIn(.apple))
    }

    @Test func onlyTheOfferedButtonsShow() async throws {
        let passkeyOnly = model(passkey: { TestSession(user: "a") }, apple: nil, language: .english, handed: Handed())
        #expect(passkeyOnly.offers(.passkey) && !passkeyOnly.offers(.apple) && !passkeyOnly.isEnabled(.apple))
        #expect(passkeyOnly.startAppleSignIn() == nil && passkeyOnly.state == .idle)
        let appleOnly = model(passkey: nil, apple: { _, _ in TestSession(user: "a") }, language: .english,
                              handed: Handed())
        #expect(!appleOnly.offers(.passkey) && appleOnly.offers(.apple))
        await appleOnly.signInWithPasskey()
        #expect(appleOnly.state == .idle)
    }

    @Test func aCustomClassifierDecides() async throws {
        let model = Model(passkey: { throw SomethingElse() }, exchangeApple: nil,
                          classifyError: { $0 is SomethingElse ? .cancelled : .failed }, language: .english) { _, _ in }
        await model.signInWithPasskey()
        #expect(model.state == .idle)
    }

    // MARK: - Default wiring: PasskeyClient

    @Test(arguments: MessageLanguage.allCases)
    func passkeyClientSignsInWithTheSoftwareAuthenticator(_ language: MessageLanguage) async throws {
        let credentials = InMemorySoftwareCredentialStore()
        let credentialID = SecureRandom.bytes(count: 32)
        let key = P256.Signing.PrivateKey()
        try credentials.save(SoftwareCredential(id: credentialID, relyingPartyID: "127.0.0.1", userHandle: Data([1]),
                                                userName: "mina", privateKey: key.derRepresentation, signCount: 0,
                                                createdAt: Date()))
        let accepts = Locked(true)
        let server = try LoopbackHTTPResponder { request in
            switch request.path {
            case "/v1/passkeys/authenticate/options":
                let options = PublicKeyCredentialRequestOptions(challenge: SecureRandom.bytes(count: 32),
                                                                rpId: "127.0.0.1")
                let body = try? JSONEncoder().encode(["publicKey": options])
                return .init(status: 200, body: body ?? Data())
            case "/v1/passkeys/authenticate/verify":
                let assertion = try? JSONDecoder().decode(AuthenticationResponse.self, from: request.body)
                guard accepts.withLock({ $0 }), assertion?.rawId.data == credentialID else {
                    return .init(status: 401, body: Data(#"{"error":"invalid_grant"}"#.utf8))
                }
                let grant = #"{"access_token":"at","token_type":"Bearer","expires_in":900}"#
                return .init(status: 200, body: Data(grant.utf8))
            default:
                return .init(status: 404, body: Data())
            }
        }
        defer { server.stop() }
        let client = PasskeyClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!,
                                   ceremony: SoftwareAuthenticator(store: credentials))
        var grants: [TokenGrant] = []
        let model = SignInScreenModel<TokenGrant, TestAuthorization>(passkeyClient: client, exchangeApple: nil,
                                                                     language: language) { grant, _ in
            grants.append(grant)
        }
        await model.signInWithPasskey()
        #expect(model.state == .signedIn(.passkey))
        #expect(grants.map(\.accessToken) == ["at"])

        accepts.withLock { $0 = false }
        model.reset()
        await model.signInWithPasskey()
        #expect(model.state == .failed(.passkey, .rejected))
        #expect(model.errorMessage == failureText(.rejected, .passkey)?(language))

        server.stop()
        await model.signInWithPasskey()
        #expect(model.state == .failed(.passkey, .network))
        #expect(model.errorMessage == failureText(.network, .passkey)?(language))
    }
}
