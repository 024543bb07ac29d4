#if os(Linux)
import Foundation

/// `ASAuthorizationControllerDelegate`: told how a controller's requests ended (on the main thread, as Apple's).
///
/// Apple's requirements are optional Objective-C methods; here they are requirements with empty default
/// implementations, so a delegate implements the ones it needs exactly as on Apple platforms. Not main-actor isolated,
/// as in the iOS 17.5 and 18.0 SDKs' headers (later ones add `NS_SWIFT_UI_ACTOR`): a main-actor delegate implements the
/// methods `nonisolated` and enters the main actor (`MainActor.assumeIsolated`), which compiles with both.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    /// The user authorized: `authorization.credential` holds the result.
    func authorizationController(controller: ASAuthorizationController,
                                 didCompleteWithAuthorization authorization: ASAuthorization)
    /// The requests failed or were canceled: `error` is an `ASAuthorizationError`.
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

extension ASAuthorizationControllerDelegate {
    public func authorizationController(controller: ASAuthorizationController,
                                        didCompleteWithAuthorization authorization: ASAuthorization) {}
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
}
#endif
