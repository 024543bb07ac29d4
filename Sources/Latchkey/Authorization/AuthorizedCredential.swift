import Foundation
import LatchkeyWebAuthn

/// What the system's authorization sheet produced, in the kit's Sendable terms: the WebAuthn JSON a server verifies,
/// a Sign in with Apple authorization, or a saved password.
enum AuthorizedCredential: Sendable {
    case registration(RegistrationResponse)
    case assertion(AuthenticationResponse)
    case appleID(AppleIDAuthorization)
    case password(user: String, password: String)
}

#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices

extension AuthorizedCredential {
    /// Converts Apple's credential objects (on the main actor, where the delegate receives them).
    @MainActor
    init(_ authorization: ASAuthorization) throws(AuthorizationCeremonyError) {
        switch authorization.credential {
        case let registration as ASAuthorizationPlatformPublicKeyCredentialRegistration:
            self = .registration(try Self.response(registration, transports: ["internal", "hybrid"],
                                                   attachment: Self.attachment(of: registration)))
        case let assertion as ASAuthorizationPlatformPublicKeyCredentialAssertion:
            self = .assertion(try Self.response(assertion, attachment: Self.attachment(of: assertion)))
        case let apple as ASAuthorizationAppleIDCredential:
            self = .appleID(try AppleIDAuthorization(apple))
        case let password as ASPasswordCredential:
            self = .password(user: password.user, password: password.password)
        default:
            #if !os(tvOS) && !os(visionOS)
            if let registration = authorization.credential as? ASAuthorizationSecurityKeyPublicKeyCredentialRegistration {
                self = .registration(try Self.response(registration, transports: nil, attachment: "cross-platform"))
                return
            }
            if let assertion = authorization.credential as? ASAuthorizationSecurityKeyPublicKeyCredentialAssertion {
                self = .assertion(try Self.response(assertion, attachment: "cross-platform"))
                return
            }
            #endif
            throw .invalidResponse("\(type(of: authorization.credential))")
        }
    }

    @MainActor
    static func response(_ credential: some ASAuthorizationPublicKeyCredentialRegistration, transports: [String]?,
                         attachment: String) throws(AuthorizationCeremonyError)
        -> RegistrationResponse {
        guard let attestationObject = credential.rawAttestationObject else { throw .invalidResponse("rawAttestationObject") }
        return RegistrationResponse(
            rawId: credential.credentialID,
            response: AuthenticatorAttestationResponse(clientDataJSON: credential.rawClientDataJSON,
                                                       attestationObject: attestationObject, transports: transports),
            authenticatorAttachment: attachment)
    }

    @MainActor
    static func response(_ credential: some ASAuthorizationPublicKeyCredentialAssertion,
                         attachment: String) throws(AuthorizationCeremonyError)
        -> AuthenticationResponse {
        guard let authenticatorData = credential.rawAuthenticatorData else { throw .invalidResponse("rawAuthenticatorData") }
        guard let signature = credential.signature else { throw .invalidResponse("signature") }
        let userID: Data? = credential.userID
        return AuthenticationResponse(
            rawId: credential.credentialID,
            response: AuthenticatorAssertionResponse(clientDataJSON: credential.rawClientDataJSON,
                                                     authenticatorData: authenticatorData, signature: signature,
                                                     userHandle: userID.flatMap { $0.isEmpty ? nil : $0 }),
            authenticatorAttachment: attachment)
    }

    /// WebAuthn's `authenticatorAttachment` of a platform credential (one that a phone's passkey answered through
    /// the QR code is cross-platform; tvOS does not say).
    @MainActor
    static func attachment(of credential: any ASPublicKeyCredential) -> String {
        #if !os(tvOS)
        if let attached = credential as? any PlatformCredentialAttachment, attached.attachment == .crossPlatform {
            return "cross-platform"
        }
        #endif
        return "platform"
    }
}

#if !os(tvOS)
/// The platform credentials' `attachment`, shared.
protocol PlatformCredentialAttachment {
    var attachment: ASAuthorizationPublicKeyCredentialAttachment { get }
}

extension ASAuthorizationPlatformPublicKeyCredentialRegistration: PlatformCredentialAttachment {}
extension ASAuthorizationPlatformPublicKeyCredentialAssertion: PlatformCredentialAttachment {}
#endif

extension AuthorizationCeremonyError {
    /// The kit's error for what `authorizationController(controller:didCompleteWithError:)` received.
    init(_ error: any Error) {
        if error is CancellationError {
            self = .canceled
            return
        }
        let ns = error as NSError
        guard ns.domain == ASAuthorizationErrorDomain else {
            self = .failed(error.localizedDescription)
            return
        }
        self.init(authorizationErrorCode: ns.code, reason: ns.userInfo[NSLocalizedFailureReasonErrorKey] as? String)
    }
}
#endif
