#if os(Linux)
import Foundation

/// `ASAuthorizationOpenIDRequest`: an OpenID Connect request (the base of `ASAuthorizationAppleIDRequest`).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorizationOpenIDRequest: ASAuthorizationRequest {
    /// The contact information to ask for; only the first authorization of an app returns it.
    open var requestedScopes: [ASAuthorization.Scope]?
    /// Returned unchanged in the credential (`ASAuthorizationAppleIDCredential.state`).
    open var state: String?
    /// Put into the identity token's `nonce` claim as given (apps send the SHA-256 hex of a random value).
    open var nonce: String?
    open var requestedOperation = ASAuthorization.OpenIDOperation.operationImplicit

    override init(provider: any ASAuthorizationProvider) {
        super.init(provider: provider)
    }
}
#endif
