#if os(Linux)
import Foundation

/// `ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`: sign in with a passkey.
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest,
                                                                      ASAuthorizationPublicKeyCredentialAssertionRequest {
    open var challenge: Data
    open var relyingPartyIdentifier: String
    /// The passkeys that may answer; empty (the default) lets the user pick any of the relying party's.
    open var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] = []
    open var userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference.preferred

    init(provider: ASAuthorizationPlatformPublicKeyCredentialProvider, relyingPartyIdentifier: String, challenge: Data) {
        self.challenge = challenge
        self.relyingPartyIdentifier = relyingPartyIdentifier
        super.init(provider: provider)
    }
}
#endif
