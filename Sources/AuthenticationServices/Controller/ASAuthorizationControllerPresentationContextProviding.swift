#if os(Linux)
import Foundation

/// `ASAuthorizationControllerPresentationContextProviding`: names the window the system's sheet belongs to.
/// Linux shows no sheet; the controller still asks, on the main actor, before it performs its requests.
@MainActor
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}
#endif
