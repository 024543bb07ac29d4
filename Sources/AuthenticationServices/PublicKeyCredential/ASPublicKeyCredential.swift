#if os(Linux)
import Foundation

/// `ASPublicKeyCredential`: what every WebAuthn credential result carries.
@available(macOS 12.0, iOS 15.0, tvOS 15.0, *)
@available(watchOS, unavailable)
public protocol ASPublicKeyCredential: ASAuthorizationCredential {
    /// The client data the authenticator signed over (JSON; its `origin` is `https://<relying party id>`).
    var rawClientDataJSON: Data { get }
    /// The credential's id.
    var credentialID: Data { get }
}

/// `ASAuthorizationPublicKeyCredentialRegistration`: a new credential.
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
public protocol ASAuthorizationPublicKeyCredentialRegistration: ASPublicKeyCredential {
    /// The CBOR attestation object (`fmt`, `attStmt`, `authData` with the new public key).
    var rawAttestationObject: Data? { get }
}

/// `ASAuthorizationPublicKeyCredentialAssertion`: a signature by an existing credential.
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
public protocol ASAuthorizationPublicKeyCredentialAssertion: ASPublicKeyCredential {
    /// The authenticator data the signature covers (with the client data's hash).
    var rawAuthenticatorData: Data! { get }
    /// The user handle stored with the credential at registration.
    var userID: Data! { get }
    /// The signature (DER-encoded ECDSA for ES256).
    var signature: Data! { get }
}

/// `ASAuthorizationPublicKeyCredentialDescriptor`: names a credential in an allow or exclude list.
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
public protocol ASAuthorizationPublicKeyCredentialDescriptor: NSObjectProtocol {
    var credentialID: Data { get set }
}

/// `ASAuthorizationPublicKeyCredentialRegistrationRequest`: what registration requests have in common.
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
public protocol ASAuthorizationPublicKeyCredentialRegistrationRequest: NSObjectProtocol {
    var relyingPartyIdentifier: String { get }
    var userID: Data { get set }
    var name: String { get set }
    var displayName: String? { get set }
    var challenge: Data { get set }
    var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }
    @available(tvOS, unavailable)
    var attestationPreference: ASAuthorizationPublicKeyCredentialAttestationKind { get set }
}

/// `ASAuthorizationPublicKeyCredentialAssertionRequest`: what assertion requests have in common. Apple's also
/// declares `allowedCredentials` as `[any ASAuthorizationPublicKeyCredentialDescriptor]`, which each class narrows to
/// its own descriptor type (an Objective-C covariance Swift protocols cannot express): use the classes' property.
@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
public protocol ASAuthorizationPublicKeyCredentialAssertionRequest: NSObjectProtocol {
    var challenge: Data { get set }
    var relyingPartyIdentifier: String { get set }
    var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }
}
#endif
