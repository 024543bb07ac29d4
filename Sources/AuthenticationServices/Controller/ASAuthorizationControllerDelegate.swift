#if os(Linux)
import Foundation

/// `ASAuthorizationControllerDelegate`: told, on the main actor, how a controller's requests ended.
///
/// Apple's requirements are optional Objective-C methods; here they are requirements with empty default
/// implementations, so a delegate implements the ones it needs exactly as on Apple platforms.
@MainActor
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
