#if os(Linux)
import Foundation

/// `ASAuthorizationPlatformPublicKeyCredentialRegistration`: the passkey a registration request created.
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject, ASAuthorizationPublicKeyCredentialRegistration {
    open var rawAttestationObject: Data? { attestationObject }
    open var rawClientDataJSON: Data { clientDataJSON }
    open var credentialID: Data { id }
    /// `.platform`.
    @available(macOS 13.5, iOS 16.6, *) @available(tvOS, unavailable) @available(watchOS, unavailable)
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
