#if os(Linux)
import Foundation

/// `ASAuthorizationSecurityKeyPublicKeyCredentialProvider`: makes requests for a roaming authenticator (a USB, NFC or
/// Bluetooth security key).
///
/// Linux backing: the security key set in `LatchkeyAuthenticationServicesConfiguration.securityKey` (a software
/// CTAP-style authenticator, like a browser's virtual authenticator). Without one, no key is attached: an assertion
/// finds no credential and a registration fails.
@available(macOS 12.0, iOS 15.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialProvider: NSObject, ASAuthorizationProvider {
    /// The relying party of every request this provider makes.
    open var relyingPartyIdentifier: String { rpID }

    private let rpID: String

    public init(relyingPartyIdentifier: String) {
        rpID = relyingPartyIdentifier
        super.init()
    }

    /// A request to create a credential on a security key.
    open func createCredentialRegistrationRequest(challenge: Data, displayName: String, name: String, userID: Data)
        -> ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest {
        ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest(
            provider: self, relyingPartyIdentifier: rpID, challenge: challenge, displayName: displayName, name: name,
            userID: userID)
    }

    /// A request to sign in with a credential on a security key.
    open func createCredentialAssertionRequest(challenge: Data) -> ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest {
        ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest(provider: self, relyingPartyIdentifier: rpID,
                                                                      challenge: challenge)
    }
}
#endif
