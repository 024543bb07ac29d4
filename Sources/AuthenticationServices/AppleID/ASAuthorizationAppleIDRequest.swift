#if os(Linux)
import Foundation

/// `ASAuthorizationAppleIDRequest`: Sign in with Apple.
open class ASAuthorizationAppleIDRequest: ASAuthorizationOpenIDRequest {
    /// The user identifier of an earlier sign-in, to ask about that user.
    open var user: String?

    init(provider: ASAuthorizationAppleIDProvider) {
        super.init(provider: provider)
    }
}
#endif
