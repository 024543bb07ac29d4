#if os(Linux)
import Foundation

/// `ASAuthorizationPasswordRequest`: a request for a saved password (`ASAuthorizationPasswordProvider.createRequest()`);
/// a successful one yields an `ASPasswordCredential`.
@available(iOS 13.0, macOS 10.15, tvOS 15.0, watchOS 6.0, *)
open class ASAuthorizationPasswordRequest: ASAuthorizationRequest {
    init(provider: ASAuthorizationPasswordProvider) {
        super.init(provider: provider)
    }
}
#endif
