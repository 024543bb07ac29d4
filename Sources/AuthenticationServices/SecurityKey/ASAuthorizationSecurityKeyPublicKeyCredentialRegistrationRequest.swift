#if os(Linux)
import Foundation

/// `ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest`: create a credential on a security key.
@available(macOS 12.0, iOS 15.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest,
                                                                            ASAuthorizationPublicKeyCredentialRegistrationRequest {
    open var relyingPartyIdentifier: String { rpID }
    open var userID: Data
    open var name: String
    open var displayName: String?
    open var challenge: Data
    open var userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference.preferred
    open var attestationPreference = ASAuthorizationPublicKeyCredentialAttestationKind.none
    /// The algorithms the relying party accepts, most preferred first (empty: ES256).
    open var credentialParameters: [ASAuthorizationPublicKeyCredentialParameters] = []
    /// Credentials that must not already be on the key.
    open var excludedCredentials: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor] = []
    open var residentKeyPreference = ASAuthorizationPublicKeyCredentialResidentKeyPreference.preferred

    private let rpID: String

    init(provider: ASAuthorizationSecurityKeyPublicKeyCredentialProvider, relyingPartyIdentifier: String, challenge: Data,
         displayName: String, name: String, userID: Data) {
        rpID = relyingPartyIdentifier
        self.challenge = challenge
        self.displayName = displayName
        self.name = name
        self.userID = userID
        super.init(provider: provider)
    }
}
#endif
