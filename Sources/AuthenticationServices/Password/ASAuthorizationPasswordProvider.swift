#if os(Linux)
import Foundation

/// `ASAuthorizationPasswordProvider`: requests for a password the user saved for the app's website — the
/// existing-account flow asks for one beside Sign in with Apple (and passkeys) in one controller.
///
/// Linux backing: saved passwords are internet-password items of the `Security` module's keychain whose server is one of
/// the app's `webcredentials:` associated domains (`LatchkeyAuthenticationServicesConfiguration.associatedDomains`, and
/// the relying party of any passkey request of the same controller), as shared web credentials are kept; the newest is
/// offered, after the user is verified through `LAContext`.
@available(iOS 13.0, macOS 10.15, tvOS 15.0, watchOS 6.0, *)
open class ASAuthorizationPasswordProvider: NSObject, ASAuthorizationProvider {
    public override init() { super.init() }

    /// A request for a saved password.
    open func createRequest() -> ASAuthorizationPasswordRequest { ASAuthorizationPasswordRequest(provider: self) }
}
#endif
