#if os(Linux)
import Foundation

/// `ASAuthorizationRequest`: one request for a controller, made by a provider (`createRequest()`,
/// `createCredentialAssertionRequest(challenge:)`...).
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
