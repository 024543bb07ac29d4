#if os(Linux)
import Foundation

/// `ASAuthorizationSecurityKeyPublicKeyCredentialAssertion`: a security key's signature over a sign-in challenge.
@available(macOS 12.0, iOS 15.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialAssertion: NSObject, ASAuthorizationPublicKeyCredentialAssertion {
    open var rawAuthenticatorData: Data! { authenticatorData }
    open var userID: Data! { userHandle }
    open var signature: Data! { assertionSignature }
    open var rawClientDataJSON: Data { clientDataJSON }
    open var credentialID: Data { id }
    /// Whether the legacy FIDO U2F `appID` extension was used (never, here).
    @available(macOS 14.5, iOS 17.5, *)
    @available(visionOS, unavailable)
    open var appID: Bool { false }

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
