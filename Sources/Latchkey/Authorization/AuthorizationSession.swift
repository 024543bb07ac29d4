#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices
import Foundation

/// One run of `ASAuthorizationController` as an async call: the session is the controller's delegate and presentation
/// context on the main actor, turns the credential into the kit's Sendable terms there, and ends exactly once — with the
/// credential, the delegate's error, or `.canceled` when the calling task is cancelled (`controller.cancel()`).
@MainActor
final class AuthorizationSession: NSObject, ASAuthorizationControllerDelegate,
                                  ASAuthorizationControllerPresentationContextProviding {
    /// How the requests are presented.
    enum Style: Sendable {
        /// The system's sheet; `preferImmediatelyAvailableCredentials` offers only this device's passkeys.
        case modal(preferImmediatelyAvailableCredentials: Bool)
        /// Suggestions of the username field (iOS and visionOS; Linux).
        case autoFill
    }

    typealias Outcome = Result<AuthorizedCredential, AuthorizationCeremonyError>

    private let anchor: (@MainActor @Sendable () -> ASPresentationAnchor)?
    private var controller: ASAuthorizationController?
    private var continuation: CheckedContinuation<Outcome, Never>?
    private var canceled = false

    private init(presentationAnchor anchor: (@MainActor @Sendable () -> ASPresentationAnchor)?) {
        self.anchor = anchor
        super.init()
    }

    /// Performs the requests `makeRequests` builds (on the main actor) and returns what the sheet produced.
    static func perform(_ style: Style, anchor: (@MainActor @Sendable () -> ASPresentationAnchor)?,
                        makeRequests: @MainActor @Sendable () -> [ASAuthorizationRequest])
        async throws(AuthorizationCeremonyError) -> AuthorizedCredential {
        let session = AuthorizationSession(presentationAnchor: anchor)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                session.start(makeRequests(), style: style, continuation: continuation)
            }
        } onCancel: {
            Task { @MainActor in session.cancel() }
        }
        return try outcome.get()
    }

    private func start(_ requests: [ASAuthorizationRequest], style: Style, continuation: CheckedContinuation<Outcome, Never>) {
        self.continuation = continuation
        guard !Task.isCancelled else { return finish(.failure(.canceled)) }
        let controller = ASAuthorizationController(authorizationRequests: requests)
        controller.delegate = self
        if anchor != nil { controller.presentationContextProvider = self }
        self.controller = controller
        switch style {
        case .modal(let preferImmediatelyAvailable):
            #if os(tvOS)
            controller.performRequests()
            #else
            controller.performRequests(options: preferImmediatelyAvailable ? .preferImmediatelyAvailableCredentials : [])
            #endif
        case .autoFill:
            #if (os(iOS) && !targetEnvironment(macCatalyst)) || os(visionOS) || os(Linux)
            controller.performAutoFillAssistedRequests()
            #else
            finish(.failure(.notHandled))
            #endif
        }
    }

    private func cancel() {
        guard continuation != nil, !canceled else { return }
        canceled = true
        if #available(tvOS 18.0, *) {
            controller?.cancel()  // the delegate then hears ASAuthorizationError.canceled
        } else {
            finish(.failure(.canceled))
        }
    }

    private func finish(_ outcome: Outcome) {
        guard let continuation else { return }
        self.continuation = nil
        controller = nil
        continuation.resume(returning: outcome)
    }

    func authorizationController(controller: ASAuthorizationController,
                                 didCompleteWithAuthorization authorization: ASAuthorization) {
        do {
            finish(.success(try AuthorizedCredential(authorization)))
        } catch {
            finish(.failure(error))
        }
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        finish(.failure(canceled ? .canceled : AuthorizationCeremonyError(error)))
    }

    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        anchor?() ?? ASPresentationAnchor()
    }
}
#endif
