import Foundation
import LatchkeyCrypto
import Observation

/// Everything a sign-in screen with a passkey button and a Sign in with Apple button shows and does: one sign-in at a
/// time (the running one shows progress, the other is disabled), a cancellation back to the buttons without a word, a
/// failure as text in `language`, and the session handed to the app. LatchkeyUI's `SignInScreen` only lays it out.
///
/// The model knows no framework: a passkey sign-in is a closure returning the app's `Session` (e.g.
/// `PasskeyClient.signIn()`, which `init(passkeyClient:...)` wires); Sign in with Apple comes in two halves because
/// SwiftUI's `SignInWithAppleButton` runs the authorization itself — `startAppleSignIn()` from its `onRequest` (a nonce
/// for the request), `finishAppleSignIn(_:)` from its `onCompletion` — and the app's `exchangeApple` closure turns the
/// authorization (`ASAuthorization` there) and the nonce into a session (e.g. by posting the identity token and
/// `nonce.raw` to `POST /v1/session/apple`). Errors are sorted by `classifyError` (`SignInScreenError(classifying:)`).
///
/// ```swift
/// @State var signIn = SignInScreenModel<TokenGrant, ASAuthorization>(
///     passkey: { try await passkeys.signIn() },
///     exchangeApple: { authorization, nonce in try await server.appleSession(authorization, rawNonce: nonce.raw) },
///     onSignIn: { tokens, _ in store(tokens) })
/// ```
@MainActor
@Observable
public final class SignInScreenModel<Session, AppleAuthorization> {
    /// A passkey sign-in.
    public typealias PasskeySignIn = @MainActor () async throws -> Session
    /// Turns what Sign in with Apple returned, with the request's nonce, into a session.
    public typealias AppleExchange = @MainActor (AppleAuthorization, AppleSignInNonce) async throws -> Session

    /// Where the screen stands.
    public private(set) var state: SignInScreenState = .idle
    /// The language of every text.
    public let language: MessageLanguage

    @ObservationIgnored private let passkey: PasskeySignIn?
    @ObservationIgnored private let exchangeApple: AppleExchange?
    @ObservationIgnored private let classifyError: @Sendable (any Error) -> SignInScreenError
    @ObservationIgnored private let onSignIn: @MainActor (Session, SignInMethod) -> Void
    @ObservationIgnored private var appleNonce: AppleSignInNonce?

    /// A screen offering the methods given (`nil`: no such button).
    /// - Parameters:
    ///   - passkey: signs in with a passkey.
    ///   - exchangeApple: exchanges a Sign in with Apple authorization and its nonce for a session.
    ///   - classifyError: sorts a sign-in's error into a cancellation or a failure to show.
    ///   - onSignIn: receives the session and how it was obtained.
    public init(passkey: PasskeySignIn?, exchangeApple: AppleExchange?,
                classifyError: @escaping @Sendable (any Error) -> SignInScreenError
                    = SignInScreenError.init(classifying:),
                language: MessageLanguage = .current,
                onSignIn: @escaping @MainActor (Session, SignInMethod) -> Void) {
        self.passkey = passkey
        self.exchangeApple = exchangeApple
        self.classifyError = classifyError
        self.language = language
        self.onSignIn = onSignIn
    }

    // MARK: - What the screen shows

    /// Whether `method`'s button shows.
    public func offers(_ method: SignInMethod) -> Bool {
        switch method {
        case .passkey: passkey != nil
        case .apple: exchangeApple != nil
        }
    }

    /// Whether `method`'s button can be pressed: offered, and no sign-in running or done.
    public func isEnabled(_ method: SignInMethod) -> Bool {
        switch state {
        case .idle, .failed: offers(method)
        case .signingIn, .signedIn: false
        }
    }

    /// Whether `method`'s sign-in is running (its button shows progress).
    public func isInFlight(_ method: SignInMethod) -> Bool { state == .signingIn(method) }

    /// `method`'s button title.
    public func title(for method: SignInMethod) -> String { method.title(in: language) }

    /// The failure's text, while the screen shows one.
    public var errorMessage: String? {
        guard case .failed(let method, let error) = state else { return nil }
        return error.message(for: method, in: language)
    }

    // MARK: - Actions

    /// The passkey button.
    public func signInWithPasskey() async {
        guard let passkey, begin(.passkey) else { return }
        await complete(.passkey) { try await passkey() }
    }

    /// `SignInWithAppleButton`'s `onRequest`: Apple's sign-in is running from here on. Returns the nonce whose `hashed`
    /// value goes into the request, or `nil` when Apple is not offered or another sign-in runs (the button is disabled
    /// then; a completion that follows is ignored).
    public func startAppleSignIn() -> AppleSignInNonce? {
        guard exchangeApple != nil, begin(.apple) else { return nil }
        let nonce = AppleSignIn.makeNonce()
        appleNonce = nonce
        return nonce
    }

    /// `SignInWithAppleButton`'s `onCompletion`: exchanges the authorization for a session, or sorts the error
    /// (`ASAuthorizationError.canceled`: back to the buttons). Ignored without a `startAppleSignIn()` before it.
    public func finishAppleSignIn(_ result: Result<AppleAuthorization, any Error>) async {
        guard let exchangeApple, let nonce = appleNonce, state == .signingIn(.apple) else { return }
        appleNonce = nil
        await complete(.apple) { try await exchangeApple(try result.get(), nonce) }
    }

    /// Hides the error (back to the buttons).
    public func dismissError() {
        if case .failed = state { state = .idle }
    }

    /// Back to the buttons after the app signed out.
    public func reset() {
        guard !isInFlight(.passkey), !isInFlight(.apple) else { return }
        appleNonce = nil
        state = .idle
    }

    // MARK: - Attempts

    private func begin(_ method: SignInMethod) -> Bool {
        guard isEnabled(method) else { return false }
        state = .signingIn(method)
        return true
    }

    private func complete(_ method: SignInMethod, _ work: () async throws -> Session) async {
        do {
            let session = try await work()
            state = .signedIn(method)
            onSignIn(session, method)
        } catch {
            let failure = classifyError(error)
            state = failure.isCancellation ? .idle : .failed(method, failure)
        }
    }
}

extension SignInScreenModel where Session == TokenGrant {
    /// A screen whose passkey button signs in through `passkeyClient` (the server's tokens are the session).
    public convenience init(passkeyClient: PasskeyClient, exchangeApple: AppleExchange?,
                            language: MessageLanguage = .current,
                            onSignIn: @escaping @MainActor (TokenGrant, SignInMethod) -> Void) {
        self.init(passkey: { try await passkeyClient.signIn() }, exchangeApple: exchangeApple, language: language,
                  onSignIn: onSignIn)
    }
}
