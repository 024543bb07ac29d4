#if os(Linux)
import Foundation
import LatchkeyWebAuthn

/// One request of a controller, copied out of its object when the controller starts (the objects are not Sendable;
/// the flow runs off the main actor).
enum AuthorizationWork: Sendable {
    case appleID(LatchkeyAppleIDAuthorizationRequest)
    case registration(PasskeyAuthenticatorKind, PublicKeyCredentialCreationOptions)
    case assertion(PasskeyAuthenticatorKind, PublicKeyCredentialRequestOptions)
    /// A saved password of one of these domains (the app's `webcredentials:` associated domains).
    case password(domains: [String])
}

/// Which authenticator a passkey request is for.
enum PasskeyAuthenticatorKind: Sendable {
    case platform
    case securityKey
}

/// What a flow produced, for the request at `index` of the controller.
struct AuthorizationOutcome: Sendable {
    enum Result: Sendable {
        case appleID(LatchkeyAppleIDAuthorization)
        case password(SavedPassword)
        case registration(PasskeyAuthenticatorKind, RegistrationResponse)
        case assertion(PasskeyAuthenticatorKind, AuthenticationResponse)
    }
    var index: Int
    var result: Result
}

extension AuthorizationWork {
    /// The work `request` stands for; nil for a request Linux cannot perform. A password request looks in the saved
    /// passwords of `webCredentials`.
    init?(_ request: ASAuthorizationRequest, webCredentials: [String]) {
        switch request {
        case is ASAuthorizationPasswordRequest:
            self = .password(domains: webCredentials)
        case let apple as ASAuthorizationAppleIDRequest:
            self = .appleID(LatchkeyAppleIDAuthorizationRequest(scopes: apple.requestedScopes ?? [], nonce: apple.nonce,
                                                                state: apple.state, user: apple.user))
        case let platform as ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest:
            self = .registration(.platform, Self.options(
                platform, excluded: platform.excludedCredentialIDs.map { PublicKeyCredentialDescriptor(id: $0) },
                parameters: [PublicKeyCredentialParameters(alg: .es256)], attachment: "platform", residentKey: .required))
        case let platform as ASAuthorizationPlatformPublicKeyCredentialAssertionRequest:
            self = .assertion(.platform, Self.options(platform, allowed: platform.allowedCredentials.map(\.credentialID)))
        case let key as ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest:
            let algorithms = key.credentialParameters.map(\.algorithm.rawValue)
            let excluded = key.excludedCredentials.map {
                PublicKeyCredentialDescriptor(id: $0.credentialID, transports: $0.transports.map(\.rawValue))
            }
            self = .registration(.securityKey, Self.options(
                key, excluded: excluded,
                parameters: (algorithms.isEmpty ? [COSEAlgorithmIdentifier.es256.rawValue] : algorithms).map {
                    var parameters = PublicKeyCredentialParameters(alg: .es256)
                    parameters.alg = $0
                    return parameters
                },
                attachment: "cross-platform", residentKey: ResidentKeyRequirement(rawValue: key.residentKeyPreference.rawValue)))
        case let key as ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest:
            self = .assertion(.securityKey, Self.options(key, allowed: key.allowedCredentials.map(\.credentialID)))
        default:
            return nil
        }
    }

    /// The domains whose saved passwords a controller's password requests offer: the configured `webcredentials:`
    /// associated domains, then the relying party of each passkey request among `requests` (an app with passkeys for a
    /// relying party has that domain in its associated domains).
    static func webCredentials(of requests: [ASAuthorizationRequest]) -> [String] {
        var domains = LatchkeyAuthenticationServicesConfiguration.webCredentialsDomains
        for request in requests {
            guard let passkey = request as? any ASAuthorizationPublicKeyCredentialAssertionRequest else { continue }
            if !domains.contains(passkey.relyingPartyIdentifier) { domains.append(passkey.relyingPartyIdentifier) }
        }
        return domains
    }

    static func options(_ request: any ASAuthorizationPublicKeyCredentialRegistrationRequest,
                        excluded: [PublicKeyCredentialDescriptor], parameters: [PublicKeyCredentialParameters],
                        attachment: String, residentKey: ResidentKeyRequirement?) -> PublicKeyCredentialCreationOptions {
        let rpID = request.relyingPartyIdentifier
        return PublicKeyCredentialCreationOptions(
            rp: RelyingPartyEntity(id: rpID, name: rpID),
            user: UserEntity(id: request.userID, name: request.name, displayName: request.displayName ?? request.name),
            challenge: request.challenge, pubKeyCredParams: parameters,
            excludeCredentials: excluded.isEmpty ? nil : excluded,
            authenticatorSelection: AuthenticatorSelectionCriteria(
                authenticatorAttachment: attachment, residentKey: residentKey,
                userVerification: UserVerificationRequirement(rawValue: request.userVerificationPreference.rawValue)),
            attestation: AttestationConveyancePreference(rawValue: request.attestationPreference.rawValue))
    }

    static func options(_ request: any ASAuthorizationPublicKeyCredentialAssertionRequest, allowed: [Data])
        -> PublicKeyCredentialRequestOptions {
        PublicKeyCredentialRequestOptions(
            challenge: request.challenge, rpId: request.relyingPartyIdentifier,
            allowCredentials: allowed.isEmpty ? nil : allowed.map { PublicKeyCredentialDescriptor(id: $0) },
            userVerification: UserVerificationRequirement(rawValue: request.userVerificationPreference.rawValue))
    }
}
#endif
