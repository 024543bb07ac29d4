#if os(Linux)
import Foundation

/// `ASAuthorizationPlatformPublicKeyCredentialRegistration`: the passkey a registration request created.
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject, ASAuthorizationPublicKeyCredentialRegistration {
    open var rawAttestationObject: Data? { attestationObject }
    open var rawClientDataJSON: Data { clientDataJSON }
    open var credentialID: Data { id }
    /// `.platform`.
    @available(macOS 13.5, iOS 16.6, *)
    @available(tvOS, unavailable)
    open var attachment: ASAuthorizationPublicKeyCredentialAttachment { .platform }

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
