#if os(Linux)
import Foundation

/// `ASAuthorizationPlatformPublicKeyCredentialAssertion`: a passkey's signature over a sign-in challenge.
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationPublicKeyCredentialAssertion {
    open var rawAuthenticatorData: Data! { authenticatorData }
    open var userID: Data! { userHandle }
    open var signature: Data! { assertionSignature }
    open var rawClientDataJSON: Data { clientDataJSON }
    open var credentialID: Data { id }
    /// `.platform`.
    @available(macOS 13.5, iOS 16.6, *)
    @available(tvOS, unavailable)
    open var attachment: ASAuthorizationPublicKeyCredentialAttachment { .platform }

    private let authenticatorData: Data
    private let userHandle: Data
    private let assertionSignature: Data
    private let clientDataJSON: Data
    private let id: Data

    init(credentialID: Data, rawClientDataJSON: Data, rawAuthenticatorData: Data, signature: Data, userID: Data) {
        id = credentialID
        clientDataJSON = rawClientDataJSON
        authenticatorData = rawAuthenticatorData
        assertionSignature = signature
        userHandle = userID
        super.init()
    }
}
#endif
