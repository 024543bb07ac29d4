#if os(Linux)
import Foundation

/// `ASAuthorizationControllerPresentationContextProviding`: names the window the system's sheet belongs to.
/// Linux shows no sheet; the controller still asks, on the main thread, before it performs its requests. Not main-actor
/// isolated, as in the iOS 17.5 and 18.0 SDKs' headers (see `ASAuthorizationControllerDelegate`).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, *)
@available(watchOS, unavailable)
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}
#endif
