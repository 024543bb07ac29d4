#if os(Linux)
import Foundation

/// `ASAuthorizationPlatformPublicKeyCredentialDescriptor`: a platform passkey in an allow or exclude list.
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject, ASAuthorizationPublicKeyCredentialDescriptor {
    open var credentialID: Data

    public init(credentialID: Data) {
        self.credentialID = credentialID
        super.init()
    }
}
#endif
