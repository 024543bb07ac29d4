#if os(Linux)
import Foundation

/// `ASAuthorizationRequest`: one request for a controller, made by a provider (`createRequest()`,
/// `createCredentialAssertionRequest(challenge:)`...).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorizationRequest: NSObject {
    /// The provider that made the request.
    open var provider: any ASAuthorizationProvider { requestProvider }

    private let requestProvider: any ASAuthorizationProvider

    init(provider: any ASAuthorizationProvider) {
        requestProvider = provider
        super.init()
    }
}
#endif
