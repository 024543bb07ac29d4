#if os(Linux)
import Foundation

/// `ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest`: sign in with a credential on a security key.
@available(macOS 12.0, iOS 15.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest: ASAuthorizationRequest,
                                                                         ASAuthorizationPublicKeyCredentialAssertionRequest {
    open var challenge: Data
    open var relyingPartyIdentifier: String
    /// The credentials that may answer; empty lets a discoverable credential answer.
    open var allowedCredentials: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor] = []
    open var userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference.preferred

    init(provider: ASAuthorizationSecurityKeyPublicKeyCredentialProvider, relyingPartyIdentifier: String, challenge: Data) {
        self.challenge = challenge
        self.relyingPartyIdentifier = relyingPartyIdentifier
        super.init(provider: provider)
    }
}
#endif
