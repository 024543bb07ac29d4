#if os(Linux)
import Foundation

/// `ASAuthorizationSecurityKeyPublicKeyCredentialRegistration`: the credential a security key created.
@available(macOS 12.0, iOS 15.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialRegistration: NSObject,
                                                                     ASAuthorizationPublicKeyCredentialRegistration {
    open var rawAttestationObject: Data? { attestationObject }
    open var rawClientDataJSON: Data { clientDataJSON }
    open var credentialID: Data { id }

    private let attestationObject: Data?
    private let clientDataJSON: Data
    private let id: Data

    init(credentialID: Data, rawClientDataJSON: Data, rawAttestationObject: Data?) {
        id = credentialID
        clientDataJSON = rawClientDataJSON
        attestationObject = rawAttestationObject
        super.init()
    }
}
#endif
