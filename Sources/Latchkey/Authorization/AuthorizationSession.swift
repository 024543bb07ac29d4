#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices
import Foundation

/// One run of `ASAuthorizationController` as an async call: the session is the controller's delegate on the main actor,
/// turns the credential into the kit's Sendable terms there, and ends exactly once — with the credential, the delegate's
/// error, or `.canceled` when the calling task is cancelled (`controller.cancel()`).
///
/// Whether the delegate protocols are main-actor depends on the SDK: Apple's headers of the iOS 17.5 / 18.0 SDKs declare
/// `ASAuthorizationControllerDelegate` and `…PresentationContextProviding` without `NS_SWIFT_UI_ACTOR`, later ones with
/// it. Both compile: the delegate methods are `nonisolated` and enter the main actor, on which the controller calls
/// them (documented, and required by the later headers); the presentation context is an object of its own, holding the
/// anchor taken on the main actor when the flow starts.
@MainActor
final class AuthorizationSession: NSObject {
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
    private var presentation: PresentationContext?
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
        if let anchor {
            let presentation = PresentationContext(anchor: anchor())
            controller.presentationContextProvider = presentation
            self.presentation = presentation  // the controller holds its provider weakly
        }
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
        #if os(tvOS)
        finish(.failure(.canceled))  // `cancel()` is unavailable on tvOS in the iOS 18.0 SDK's headers (tvOS 18 later)
        #else
        controller?.cancel()  // the delegate then hears ASAuthorizationError.canceled
        #endif
    }

    private func finish(_ outcome: Outcome) {
        guard let continuation else { return }
        self.continuation = nil
        controller = nil
        presentation = nil
        continuation.resume(returning: outcome)
    }

    private func complete(with authorization: ASAuthorization) {
        do {
            finish(.success(try AuthorizedCredential(authorization)))
        } catch {
            finish(.failure(error))
        }
    }

    private func complete(with error: any Error) {
        finish(.failure(canceled ? .canceled : AuthorizationCeremonyError(error)))
    }
}

extension AuthorizationSession: ASAuthorizationControllerDelegate {
    nonisolated func authorizationController(controller: ASAuthorizationController,
                                             didCompleteWithAuthorization authorization: ASAuthorization) {
        MainActor.assumeIsolated { complete(with: authorization) }
    }

    nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        MainActor.assumeIsolated { complete(with: error) }
    }
}

/// The controller's presentation context: the anchor the caller's closure gave on the main actor when the flow started.
/// Not isolated itself, so it conforms whether the SDK's protocol is main-actor or not (see `AuthorizationSession`).
private final class PresentationContext: NSObject, ASAuthorizationControllerPresentationContextProviding {
    private let anchor: ASPresentationAnchor

    init(anchor: ASPresentationAnchor) {
        self.anchor = anchor
    }

    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor }
}
#endif
