#if os(Linux)
import Foundation

/// `ASAuthorizationAppleIDRequest`: Sign in with Apple.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorizationAppleIDRequest: ASAuthorizationOpenIDRequest {
    /// The user identifier of an earlier sign-in, to ask about that user.
    open var user: String?

    init(provider: ASAuthorizationAppleIDProvider) {
        super.init(provider: provider)
    }
}
#endif
