#if os(Linux)
import Foundation

/// `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`: create a passkey.
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest,
                                                                         ASAuthorizationPublicKeyCredentialRegistrationRequest {
    open var relyingPartyIdentifier: String { rpID }
    open var userID: Data
    open var name: String
    open var displayName: String?
    open var challenge: Data
    open var userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference.preferred
    @available(tvOS, unavailable)
    open var attestationPreference = ASAuthorizationPublicKeyCredentialAttestationKind.none
    /// Passkeys the relying party already has for this user: when one of them is on this device, the request fails
    /// with `ASAuthorizationError.matchedExcludedCredential`.
    @available(macOS 13.5, iOS 17.4, macCatalyst 16.6, *)
    @available(tvOS, unavailable)
    @available(visionOS, unavailable)
    open var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]? {
        get { excluded }
        set { excluded = newValue }
    }

    private let rpID: String
    private var excluded: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]?

    init(provider: ASAuthorizationPlatformPublicKeyCredentialProvider, relyingPartyIdentifier: String, challenge: Data,
         name: String, userID: Data) {
        rpID = relyingPartyIdentifier
        self.challenge = challenge
        self.name = name
        self.userID = userID
        super.init(provider: provider)
    }

    var excludedCredentialIDs: [Data] { (excluded ?? []).map(\.credentialID) }
}
#endif
