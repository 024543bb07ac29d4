#if os(Linux)
import Foundation

/// `ASAuthorizationPlatformPublicKeyCredentialProvider`: makes passkey requests for one relying party.
///
/// Linux backing: a software authenticator (P-256, `none` attestation) whose passkeys are generic-password items in
/// the keychain of the `Security` module (service `org.latchkey.passkeys`, one item per passkey, readable only while
/// the keychain is unlocked, never synced), the user verified through `LAContext` with
/// `.deviceOwnerAuthentication`. The client data's origin is `https://<relying party id>`, as an app with an
/// associated domain reports it.
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject, ASAuthorizationProvider {
    /// The relying party of every request this provider makes.
    open var relyingPartyIdentifier: String { rpID }

    private let rpID: String

    public init(relyingPartyIdentifier: String) {
        rpID = relyingPartyIdentifier
        super.init()
    }

    /// A request to create a passkey for `name` with user handle `userID`.
    open func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
        ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest(provider: self, relyingPartyIdentifier: rpID,
                                                                      challenge: challenge, name: name, userID: userID)
    }

    /// A request to sign in with an existing passkey (any of the relying party's unless `allowedCredentials` narrows).
    open func createCredentialAssertionRequest(challenge: Data) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
        ASAuthorizationPlatformPublicKeyCredentialAssertionRequest(provider: self, relyingPartyIdentifier: rpID,
                                                                   challenge: challenge)
    }
}
#endif
