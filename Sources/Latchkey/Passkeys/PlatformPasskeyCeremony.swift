#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices
import Foundation
import LatchkeyWebAuthn

/// Passkeys the way an app has them: `ASAuthorizationController` with `ASAuthorizationPlatformPublicKeyCredentialProvider`
/// (iCloud Keychain or another credential manager; on Linux the `AuthenticationServices` module's keychain-backed
/// authenticator) and, optionally, `ASAuthorizationSecurityKeyPublicKeyCredentialProvider`. The WebAuthn options a
/// server sends become requests; Apple's credential objects become the JSON the server verifies.
///
/// The client data's origin is `https://<relying party id>` (what the system writes for an app whose associated domains
/// list `webcredentials:<relying party id>`), so the server must accept that origin (`latchkey serve --origin`).
/// Every call is async and cancellable (cancelling the task cancels the controller); failures are
/// `AuthorizationCeremonyError`, `.canceled` when the user closes the sheet.
public struct PlatformPasskeyCeremony: PasskeyCeremony {
    /// The window the system's sheet belongs to; nil lets the system choose.
    public let presentationAnchor: (@MainActor @Sendable () -> ASPresentationAnchor)?
    /// Also offer security keys (not on tvOS or visionOS).
    public let includesSecurityKeys: Bool
    /// Sign-in offers only this device's passkeys (no QR code for a phone's); with none, it ends as `.canceled`.
    public let prefersImmediatelyAvailableCredentials: Bool

    public init(presentationAnchor: (@MainActor @Sendable () -> ASPresentationAnchor)? = nil,
                includesSecurityKeys: Bool = false, prefersImmediatelyAvailableCredentials: Bool = false) {
        self.presentationAnchor = presentationAnchor
        self.includesSecurityKeys = includesSecurityKeys
        self.prefersImmediatelyAvailableCredentials = prefersImmediatelyAvailableCredentials
    }

    /// `https://<relying party id>`.
    public func origin(relyingPartyID: String, serverURL: URL) -> String { "https://" + relyingPartyID }

    /// Creates a passkey for `options` (the server's `PublicKeyCredentialCreationOptions`).
    public func register(_ options: PublicKeyCredentialCreationOptions, origin: String) async throws -> RegistrationResponse {
        let rpID = Self.relyingParty(options.rp.id, origin: origin)
        let keys = includesSecurityKeys
        let credential = try await AuthorizationSession.perform(.modal(preferImmediatelyAvailableCredentials: false),
                                                               anchor: presentationAnchor) {
            Self.registrationRequests(options, rpID: rpID, securityKeys: keys)
        }
        guard case .registration(let response) = credential else { throw AuthorizationCeremonyError.invalidResponse(nil) }
        return response
    }

    /// Signs in with a passkey for `options` (the server's `PublicKeyCredentialRequestOptions`).
    public func authenticate(_ options: PublicKeyCredentialRequestOptions, origin: String) async throws
        -> AuthenticationResponse {
        try await assert(options, origin: origin,
                         style: .modal(preferImmediatelyAvailableCredentials: prefersImmediatelyAvailableCredentials),
                         securityKeys: includesSecurityKeys)
    }

    /// Offers the relying party's passkeys in the username field's suggestions (`performAutoFillAssistedRequests`):
    /// returns when the user picks one. iOS, visionOS and Linux; elsewhere it throws `.notHandled`. Cancel the task when
    /// the field goes away (the request waits until then).
    public func authenticateWithAutoFill(_ options: PublicKeyCredentialRequestOptions, origin: String) async throws
        -> AuthenticationResponse {
        try await assert(options, origin: origin, style: .autoFill, securityKeys: false)
    }

    func assert(_ options: PublicKeyCredentialRequestOptions, origin: String, style: AuthorizationSession.Style,
                securityKeys: Bool) async throws(AuthorizationCeremonyError) -> AuthenticationResponse {
        let rpID = Self.relyingParty(options.rpId, origin: origin)
        let credential = try await AuthorizationSession.perform(style, anchor: presentationAnchor) {
            Self.assertionRequests(options, rpID: rpID, securityKeys: securityKeys)
        }
        guard case .assertion(let response) = credential else { throw .invalidResponse(nil) }
        return response
    }

    /// The options' relying party, else the origin's host.
    static func relyingParty(_ id: String?, origin: String) -> String {
        id ?? URL(string: origin)?.host ?? origin
    }

    @MainActor
    static func registrationRequests(_ options: PublicKeyCredentialCreationOptions, rpID: String, securityKeys: Bool)
        -> [ASAuthorizationRequest] {
        let verification = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
            rawValue: options.authenticatorSelection?.userVerification?.rawValue ?? "preferred")
        #if !os(tvOS)  // attestation kinds and preferences are unavailable on tvOS
        let attestation = ASAuthorizationPublicKeyCredentialAttestationKind(rawValue: options.attestation?.rawValue ?? "none")
        #endif
        let excluded = (options.excludeCredentials ?? []).map(\.id.data)
        let platform = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rpID)
            .createCredentialRegistrationRequest(challenge: options.challenge.data, name: options.user.name,
                                                 userID: options.user.id.data)
        platform.displayName = options.user.displayName
        platform.userVerificationPreference = verification
        #if !os(tvOS)
        platform.attestationPreference = attestation
        #endif
        #if !os(tvOS) && !os(visionOS)
        if #available(iOS 17.4, macOS 13.5, *), !excluded.isEmpty {
            platform.excludedCredentials = excluded.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
        }
        #endif
        var requests: [ASAuthorizationRequest] = [platform]
        #if !os(tvOS) && !os(visionOS)
        if securityKeys {
            let key = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: rpID)
                .createCredentialRegistrationRequest(challenge: options.challenge.data, displayName: options.user.displayName,
                                                     name: options.user.name, userID: options.user.id.data)
            key.userVerificationPreference = verification
            key.attestationPreference = attestation
            key.credentialParameters = options.pubKeyCredParams.map {
                ASAuthorizationPublicKeyCredentialParameters(algorithm: ASCOSEAlgorithmIdentifier(rawValue: $0.alg))
            }
            key.excludedCredentials = (options.excludeCredentials ?? []).map(securityKeyDescriptor)
            key.residentKeyPreference = ASAuthorizationPublicKeyCredentialResidentKeyPreference(
                rawValue: options.authenticatorSelection?.residentKey?.rawValue ?? "preferred")
            requests.append(key)
        }
        #endif
        return requests
    }

    @MainActor
    static func assertionRequests(_ options: PublicKeyCredentialRequestOptions, rpID: String, securityKeys: Bool)
        -> [ASAuthorizationRequest] {
        let verification = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
            rawValue: options.userVerification?.rawValue ?? "preferred")
        let allowed = options.allowCredentials ?? []
        let platform = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rpID)
            .createCredentialAssertionRequest(challenge: options.challenge.data)
        platform.userVerificationPreference = verification
        platform.allowedCredentials = allowed.map {
            ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0.id.data)
        }
        var requests: [ASAuthorizationRequest] = [platform]
        #if !os(tvOS) && !os(visionOS)
        if securityKeys {
            let key = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: rpID)
                .createCredentialAssertionRequest(challenge: options.challenge.data)
            key.userVerificationPreference = verification
            key.allowedCredentials = allowed.map(securityKeyDescriptor)
            requests.append(key)
        }
        #endif
        return requests
    }

    #if !os(tvOS) && !os(visionOS)
    static func securityKeyDescriptor(_ descriptor: PublicKeyCredentialDescriptor)
        -> ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor {
        typealias Transport = ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport
        let transports = (descriptor.transports ?? []).compactMap { name -> Transport? in
            switch name {
            case "usb": .usb
            case "nfc": .nfc
            case "ble": .bluetooth
            default: nil
            }
        }
        return ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor(
            credentialID: descriptor.id.data,
            transports: transports.isEmpty ? Transport.allSupported : transports)
    }
    #endif
}
#endif
