#if os(Linux)
import Foundation

/// `ASAuthorizationPlatformPublicKeyCredentialDescriptor`: a platform passkey in an allow or exclude list.
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject, ASAuthorizationPublicKeyCredentialDescriptor {
    open var credentialID: Data

    public init(credentialID: Data) {
        self.credentialID = credentialID
        super.init()
    }
}
#endif
