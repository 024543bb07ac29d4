#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
import AuthenticationServices
import Foundation

// Apple's documented signatures of every AuthenticationServices symbol the package calls or the Linux
// `AuthenticationServices` module provides (developer.apple.com/documentation/authenticationservices and the SDK's
// ASAuthorizationController.h, ASAuthorizationError.h, ASAuthorizationPublicKeyCredentialConstants.h,
// ASAuthorizationPlatformPublicKeyCredentialProvider.h...), pinned as in SecurityPins.swift. tvOS and watchOS lack most
// of the passkey API: both are left out; the security-key family is macOS and iOS only.
//
// The delegate protocols have optional Objective-C requirements on Apple platforms and are main-actor isolated only
// from SDKs later than iOS 18.0 (`NS_SWIFT_UI_ACTOR`): `PinDelegate` implements them as app code must to compile with
// both (`nonisolated` methods that enter the main actor), and their calls are pinned per platform (Apple's need `?`,
// Linux's do not).

/// Pins of the AuthenticationServices framework; `ApplePinTests` runs the functions that only read constants.
enum AuthenticationServicesPins {
    static func controller() {
        let _: ([ASAuthorizationRequest]) -> ASAuthorizationController = ASAuthorizationController.init(authorizationRequests:)
        let _: KeyPath<ASAuthorizationController, [ASAuthorizationRequest]> = \ASAuthorizationController.authorizationRequests
        let _: ReferenceWritableKeyPath<ASAuthorizationController, (any ASAuthorizationControllerDelegate)?> =
            \ASAuthorizationController.delegate
        let _: ReferenceWritableKeyPath<ASAuthorizationController, (any ASAuthorizationControllerPresentationContextProviding)?> =
            \ASAuthorizationController.presentationContextProvider
        let _: (ASAuthorizationController) -> () -> Void = ASAuthorizationController.performRequests
        let _: (ASAuthorizationController) -> (ASAuthorizationController.RequestOptions) -> Void =
            ASAuthorizationController.performRequests(options:)
        let _: (ASAuthorizationController) -> () -> Void = ASAuthorizationController.cancel
        #if (os(iOS) && !targetEnvironment(macCatalyst)) || os(visionOS) || os(Linux)
        let _: (ASAuthorizationController) -> () -> Void = ASAuthorizationController.performAutoFillAssistedRequests
        #endif
        pinOptionSet(ASAuthorizationController.RequestOptions.self)
        let _: (UInt) -> ASAuthorizationController.RequestOptions = ASAuthorizationController.RequestOptions.init(rawValue:)
        let _: KeyPath<ASAuthorizationController.RequestOptions, UInt> = \ASAuthorizationController.RequestOptions.rawValue
        let _: ASAuthorizationController.RequestOptions =
            ASAuthorizationController.RequestOptions.preferImmediatelyAvailableCredentials
        // The default argument of `performRequests(options:)`, as app code calls it.
        let _ = { (controller: ASAuthorizationController) in
            controller.performRequests()
            controller.performRequests(options: .preferImmediatelyAvailableCredentials)
        }
        let _: KeyPath<ASAuthorization, any ASAuthorizationProvider> = \ASAuthorization.provider
        let _: KeyPath<ASAuthorization, any ASAuthorizationCredential> = \ASAuthorization.credential
        let _: KeyPath<ASAuthorizationRequest, any ASAuthorizationProvider> = \ASAuthorizationRequest.provider
        pinType((any ASAuthorizationProvider).self)
        pinType((any ASAuthorizationCredential).self)
    }

    /// Calls of the delegates' requirements, as the controller makes them.
    @MainActor
    static func delegates<D: ASAuthorizationControllerDelegate & ASAuthorizationControllerPresentationContextProviding>(
        _ object: D, controller: ASAuthorizationController, authorization: ASAuthorization, error: any Error) {
        let delegate: D = object
        #if os(Linux)
        delegate.authorizationController(controller: controller, didCompleteWithAuthorization: authorization)
        delegate.authorizationController(controller: controller, didCompleteWithError: error)
        #else
        delegate.authorizationController?(controller: controller, didCompleteWithAuthorization: authorization)
        delegate.authorizationController?(controller: controller, didCompleteWithError: error)
        #endif
        let _: ASPresentationAnchor = delegate.presentationAnchor(for: controller)
        let _: () -> ASPresentationAnchor = ASPresentationAnchor.init
    }

    static func errors() {
        pinHashable(ASAuthorizationError.self)
        pinError(ASAuthorizationError.self)
        let _: (ASAuthorizationError.Code, [String: Any]) -> ASAuthorizationError = ASAuthorizationError.init(_:userInfo:)
        let _: KeyPath<ASAuthorizationError, ASAuthorizationError.Code> = \ASAuthorizationError.code
        let _: KeyPath<ASAuthorizationError, Int> = \ASAuthorizationError.errorCode
        let _: KeyPath<ASAuthorizationError, [String: Any]> = \ASAuthorizationError.errorUserInfo
        let _: KeyPath<ASAuthorizationError, [String: Any]> = \ASAuthorizationError.userInfo
        let _: String = ASAuthorizationError.errorDomain
        let _: String = ASAuthorizationErrorDomain
        let _: (Int) -> ASAuthorizationError.Code? = ASAuthorizationError.Code.init(rawValue:)
        let _: ASAuthorizationError.Code = ASAuthorizationError.Code.unknown
        let _: ASAuthorizationError.Code = ASAuthorizationError.Code.canceled
        let _: ASAuthorizationError.Code = ASAuthorizationError.Code.invalidResponse
        let _: ASAuthorizationError.Code = ASAuthorizationError.Code.notHandled
        let _: ASAuthorizationError.Code = ASAuthorizationError.Code.failed
        let _: ASAuthorizationError.Code = ASAuthorizationError.Code.notInteractive
        let _: ASAuthorizationError.Code = ASAuthorizationError.unknown
        let _: ASAuthorizationError.Code = ASAuthorizationError.canceled
        let _: ASAuthorizationError.Code = ASAuthorizationError.invalidResponse
        let _: ASAuthorizationError.Code = ASAuthorizationError.notHandled
        let _: ASAuthorizationError.Code = ASAuthorizationError.failed
        let _: ASAuthorizationError.Code = ASAuthorizationError.notInteractive
        if #available(macOS 15, iOS 18, visionOS 2, *) {
            let _: ASAuthorizationError.Code = ASAuthorizationError.Code.matchedExcludedCredential
            let _: ASAuthorizationError.Code = ASAuthorizationError.matchedExcludedCredential
        }
        if #available(macOS 15.2, iOS 18.2, visionOS 2.2, *) {
            let _: ASAuthorizationError.Code = ASAuthorizationError.Code.credentialImport
            let _: ASAuthorizationError.Code = ASAuthorizationError.Code.credentialExport
            let _: ASAuthorizationError.Code = ASAuthorizationError.credentialImport
            let _: ASAuthorizationError.Code = ASAuthorizationError.credentialExport
        }
        if #available(macOS 26, iOS 26, visionOS 26, *) {
            let _: ASAuthorizationError.Code = ASAuthorizationError.Code.preferSignInWithApple
            let _: ASAuthorizationError.Code = ASAuthorizationError.Code.deviceNotConfiguredForPasskeyCreation
            let _: ASAuthorizationError.Code = ASAuthorizationError.preferSignInWithApple
            let _: ASAuthorizationError.Code = ASAuthorizationError.deviceNotConfiguredForPasskeyCreation
        }
        // How app code matches them: `catch let error as ASAuthorizationError`, `case ASAuthorizationError.canceled`
        // over any error, and as an NSError.
        let _ = { (error: any Error) in
            if let failure = error as? ASAuthorizationError { _ = (failure.code, failure.errorCode, failure.localizedDescription) }
            if case ASAuthorizationError.canceled = error { return }
            switch error {
            case ASAuthorizationError.failed: break
            default: break
            }
            let bridged = ASAuthorizationError(.canceled) as NSError
            _ = (bridged.domain == ASAuthorizationErrorDomain, bridged.code)
        }
    }

    /// What the platform and security-key families share.
    static func publicKeyCredentials() {
        pinExtensible(ASAuthorizationPublicKeyCredentialUserVerificationPreference.self)
        let _: (String) -> ASAuthorizationPublicKeyCredentialUserVerificationPreference =
            ASAuthorizationPublicKeyCredentialUserVerificationPreference.init(rawValue:)
        let _: (String) -> ASAuthorizationPublicKeyCredentialUserVerificationPreference =
            ASAuthorizationPublicKeyCredentialUserVerificationPreference.init(_:)
        let _: KeyPath<ASAuthorizationPublicKeyCredentialUserVerificationPreference, String> =
            \ASAuthorizationPublicKeyCredentialUserVerificationPreference.rawValue
        let _: ASAuthorizationPublicKeyCredentialUserVerificationPreference =
            ASAuthorizationPublicKeyCredentialUserVerificationPreference.preferred
        let _: ASAuthorizationPublicKeyCredentialUserVerificationPreference =
            ASAuthorizationPublicKeyCredentialUserVerificationPreference.required
        let _: ASAuthorizationPublicKeyCredentialUserVerificationPreference =
            ASAuthorizationPublicKeyCredentialUserVerificationPreference.discouraged
        pinExtensible(ASAuthorizationPublicKeyCredentialAttestationKind.self)
        let _: (String) -> ASAuthorizationPublicKeyCredentialAttestationKind =
            ASAuthorizationPublicKeyCredentialAttestationKind.init(rawValue:)
        let _: (String) -> ASAuthorizationPublicKeyCredentialAttestationKind =
            ASAuthorizationPublicKeyCredentialAttestationKind.init(_:)
        let _: KeyPath<ASAuthorizationPublicKeyCredentialAttestationKind, String> =
            \ASAuthorizationPublicKeyCredentialAttestationKind.rawValue
        let _: ASAuthorizationPublicKeyCredentialAttestationKind = ASAuthorizationPublicKeyCredentialAttestationKind.none
        let _: ASAuthorizationPublicKeyCredentialAttestationKind = ASAuthorizationPublicKeyCredentialAttestationKind.direct
        let _: ASAuthorizationPublicKeyCredentialAttestationKind = ASAuthorizationPublicKeyCredentialAttestationKind.indirect
        let _: ASAuthorizationPublicKeyCredentialAttestationKind = ASAuthorizationPublicKeyCredentialAttestationKind.enterprise
        pinExtensible(ASAuthorizationPublicKeyCredentialResidentKeyPreference.self)
        let _: (String) -> ASAuthorizationPublicKeyCredentialResidentKeyPreference =
            ASAuthorizationPublicKeyCredentialResidentKeyPreference.init(rawValue:)
        let _: (String) -> ASAuthorizationPublicKeyCredentialResidentKeyPreference =
            ASAuthorizationPublicKeyCredentialResidentKeyPreference.init(_:)
        let _: KeyPath<ASAuthorizationPublicKeyCredentialResidentKeyPreference, String> =
            \ASAuthorizationPublicKeyCredentialResidentKeyPreference.rawValue
        let _: ASAuthorizationPublicKeyCredentialResidentKeyPreference =
            ASAuthorizationPublicKeyCredentialResidentKeyPreference.discouraged
        let _: ASAuthorizationPublicKeyCredentialResidentKeyPreference =
            ASAuthorizationPublicKeyCredentialResidentKeyPreference.preferred
        let _: ASAuthorizationPublicKeyCredentialResidentKeyPreference =
            ASAuthorizationPublicKeyCredentialResidentKeyPreference.required
        pinRawRepresentable(ASAuthorizationPublicKeyCredentialAttachment.self)
        let _: (Int) -> ASAuthorizationPublicKeyCredentialAttachment? = ASAuthorizationPublicKeyCredentialAttachment.init(rawValue:)
        let _: ASAuthorizationPublicKeyCredentialAttachment = ASAuthorizationPublicKeyCredentialAttachment.platform
        let _: ASAuthorizationPublicKeyCredentialAttachment = ASAuthorizationPublicKeyCredentialAttachment.crossPlatform
        pinExtensible(ASCOSEAlgorithmIdentifier.self)
        let _: (Int) -> ASCOSEAlgorithmIdentifier = ASCOSEAlgorithmIdentifier.init(rawValue:)
        let _: (Int) -> ASCOSEAlgorithmIdentifier = ASCOSEAlgorithmIdentifier.init(_:)
        let _: KeyPath<ASCOSEAlgorithmIdentifier, Int> = \ASCOSEAlgorithmIdentifier.rawValue
        let _: ASCOSEAlgorithmIdentifier = ASCOSEAlgorithmIdentifier.ES256
    }

    /// The protocols' requirements, through a type that conforms to each.
    static func credentialProtocols<C: ASAuthorizationPublicKeyCredentialRegistration, A: ASAuthorizationPublicKeyCredentialAssertion,
                                    D: ASAuthorizationPublicKeyCredentialDescriptor,
                                    R: ASAuthorizationPublicKeyCredentialRegistrationRequest,
                                    Q: ASAuthorizationPublicKeyCredentialAssertionRequest, K: ASPublicKeyCredential>(
        _: C.Type, _: A.Type, _: D.Type, _: R.Type, _: Q.Type, _: K.Type) {
        let _: KeyPath<K, Data> = \K.rawClientDataJSON
        let _: KeyPath<K, Data> = \K.credentialID
        let _: KeyPath<C, Data?> = \C.rawAttestationObject
        let _: KeyPath<A, Data?> = \A.rawAuthenticatorData
        let _: KeyPath<A, Data?> = \A.userID
        let _: KeyPath<A, Data?> = \A.signature
        let _: ReferenceWritableKeyPath<D, Data> = \D.credentialID
        let _: KeyPath<R, String> = \R.relyingPartyIdentifier
        let _: ReferenceWritableKeyPath<R, Data> = \R.userID
        let _: ReferenceWritableKeyPath<R, String> = \R.name
        let _: ReferenceWritableKeyPath<R, String?> = \R.displayName
        let _: ReferenceWritableKeyPath<R, Data> = \R.challenge
        let _: ReferenceWritableKeyPath<R, ASAuthorizationPublicKeyCredentialUserVerificationPreference> =
            \R.userVerificationPreference
        let _: ReferenceWritableKeyPath<R, ASAuthorizationPublicKeyCredentialAttestationKind> = \R.attestationPreference
        let _: ReferenceWritableKeyPath<Q, Data> = \Q.challenge
        let _: ReferenceWritableKeyPath<Q, String> = \Q.relyingPartyIdentifier
        let _: ReferenceWritableKeyPath<Q, ASAuthorizationPublicKeyCredentialUserVerificationPreference> =
            \Q.userVerificationPreference
    }

    static func platform() {
        credentialProtocols(ASAuthorizationPlatformPublicKeyCredentialRegistration.self,
                            ASAuthorizationPlatformPublicKeyCredentialAssertion.self,
                            ASAuthorizationPlatformPublicKeyCredentialDescriptor.self,
                            ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.self,
                            ASAuthorizationPlatformPublicKeyCredentialAssertionRequest.self,
                            ASAuthorizationPlatformPublicKeyCredentialAssertion.self)
        let _: (String) -> ASAuthorizationPlatformPublicKeyCredentialProvider =
            ASAuthorizationPlatformPublicKeyCredentialProvider.init(relyingPartyIdentifier:)
        let _: KeyPath<ASAuthorizationPlatformPublicKeyCredentialProvider, String> =
            \ASAuthorizationPlatformPublicKeyCredentialProvider.relyingPartyIdentifier
        let _: (ASAuthorizationPlatformPublicKeyCredentialProvider) -> (Data, String, Data)
            -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest =
            ASAuthorizationPlatformPublicKeyCredentialProvider.createCredentialRegistrationRequest(challenge:name:userID:)
        let _: (ASAuthorizationPlatformPublicKeyCredentialProvider) -> (Data)
            -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest =
            ASAuthorizationPlatformPublicKeyCredentialProvider.createCredentialAssertionRequest(challenge:)
        typealias Registration = ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
        let _: KeyPath<Registration, String> = \ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.relyingPartyIdentifier
        let _: ReferenceWritableKeyPath<Registration, Data> = \ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.userID
        let _: ReferenceWritableKeyPath<Registration, String> = \ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.name
        let _: ReferenceWritableKeyPath<Registration, String?> =
            \ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.displayName
        let _: ReferenceWritableKeyPath<Registration, Data> = \ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.challenge
        let _: ReferenceWritableKeyPath<Registration, ASAuthorizationPublicKeyCredentialUserVerificationPreference> =
            \ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.userVerificationPreference
        let _: ReferenceWritableKeyPath<Registration, ASAuthorizationPublicKeyCredentialAttestationKind> =
            \ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.attestationPreference
        #if !os(visionOS)
        if #available(iOS 17.4, macOS 13.5, *) {
            let _: ReferenceWritableKeyPath<Registration, [ASAuthorizationPlatformPublicKeyCredentialDescriptor]?> =
                \ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.excludedCredentials
        }
        #endif
        typealias Assertion = ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
        let _: ReferenceWritableKeyPath<Assertion, Data> = \ASAuthorizationPlatformPublicKeyCredentialAssertionRequest.challenge
        let _: ReferenceWritableKeyPath<Assertion, String> =
            \ASAuthorizationPlatformPublicKeyCredentialAssertionRequest.relyingPartyIdentifier
        let _: ReferenceWritableKeyPath<Assertion, [ASAuthorizationPlatformPublicKeyCredentialDescriptor]> =
            \ASAuthorizationPlatformPublicKeyCredentialAssertionRequest.allowedCredentials
        let _: ReferenceWritableKeyPath<Assertion, ASAuthorizationPublicKeyCredentialUserVerificationPreference> =
            \ASAuthorizationPlatformPublicKeyCredentialAssertionRequest.userVerificationPreference
        let _: (Data) -> ASAuthorizationPlatformPublicKeyCredentialDescriptor =
            ASAuthorizationPlatformPublicKeyCredentialDescriptor.init(credentialID:)
        let _: ReferenceWritableKeyPath<ASAuthorizationPlatformPublicKeyCredentialDescriptor, Data> =
            \ASAuthorizationPlatformPublicKeyCredentialDescriptor.credentialID
        typealias NewCredential = ASAuthorizationPlatformPublicKeyCredentialRegistration
        let _: KeyPath<NewCredential, Data?> = \ASAuthorizationPlatformPublicKeyCredentialRegistration.rawAttestationObject
        let _: KeyPath<NewCredential, Data> = \ASAuthorizationPlatformPublicKeyCredentialRegistration.rawClientDataJSON
        let _: KeyPath<NewCredential, Data> = \ASAuthorizationPlatformPublicKeyCredentialRegistration.credentialID
        let _: KeyPath<NewCredential, ASAuthorizationPublicKeyCredentialAttachment> =
            \ASAuthorizationPlatformPublicKeyCredentialRegistration.attachment
        typealias Signed = ASAuthorizationPlatformPublicKeyCredentialAssertion
        let _: KeyPath<Signed, Data?> = \ASAuthorizationPlatformPublicKeyCredentialAssertion.rawAuthenticatorData
        let _: KeyPath<Signed, Data?> = \ASAuthorizationPlatformPublicKeyCredentialAssertion.userID
        let _: KeyPath<Signed, Data?> = \ASAuthorizationPlatformPublicKeyCredentialAssertion.signature
        let _: KeyPath<Signed, Data> = \ASAuthorizationPlatformPublicKeyCredentialAssertion.rawClientDataJSON
        let _: KeyPath<Signed, Data> = \ASAuthorizationPlatformPublicKeyCredentialAssertion.credentialID
        let _: KeyPath<Signed, ASAuthorizationPublicKeyCredentialAttachment> =
            \ASAuthorizationPlatformPublicKeyCredentialAssertion.attachment
        // `Data!` properties: read as app code reads them.
        let _ = { (assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion) in
            let signature: Data = assertion.signature
            let user: Data = assertion.userID
            let authenticatorData: Data = assertion.rawAuthenticatorData
            _ = (signature, user, authenticatorData)
        }
    }

    #if !os(visionOS)
    static func securityKeys() {
        credentialProtocols(ASAuthorizationSecurityKeyPublicKeyCredentialRegistration.self,
                            ASAuthorizationSecurityKeyPublicKeyCredentialAssertion.self,
                            ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.self,
                            ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest.self,
                            ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest.self,
                            ASAuthorizationSecurityKeyPublicKeyCredentialRegistration.self)
        let _: (String) -> ASAuthorizationSecurityKeyPublicKeyCredentialProvider =
            ASAuthorizationSecurityKeyPublicKeyCredentialProvider.init(relyingPartyIdentifier:)
        let _: KeyPath<ASAuthorizationSecurityKeyPublicKeyCredentialProvider, String> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialProvider.relyingPartyIdentifier
        let _: (ASAuthorizationSecurityKeyPublicKeyCredentialProvider) -> (Data, String, String, Data)
            -> ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest =
            ASAuthorizationSecurityKeyPublicKeyCredentialProvider.createCredentialRegistrationRequest(challenge:displayName:name:userID:)
        let _: (ASAuthorizationSecurityKeyPublicKeyCredentialProvider) -> (Data)
            -> ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest =
            ASAuthorizationSecurityKeyPublicKeyCredentialProvider.createCredentialAssertionRequest(challenge:)
        typealias Registration = ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest
        let _: KeyPath<Registration, String> = \ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest.relyingPartyIdentifier
        let _: ReferenceWritableKeyPath<Registration, Data> = \ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest.userID
        let _: ReferenceWritableKeyPath<Registration, String> = \ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest.name
        let _: ReferenceWritableKeyPath<Registration, String?> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest.displayName
        let _: ReferenceWritableKeyPath<Registration, Data> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest.challenge
        let _: ReferenceWritableKeyPath<Registration, ASAuthorizationPublicKeyCredentialUserVerificationPreference> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest.userVerificationPreference
        let _: ReferenceWritableKeyPath<Registration, ASAuthorizationPublicKeyCredentialAttestationKind> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest.attestationPreference
        let _: ReferenceWritableKeyPath<Registration, [ASAuthorizationPublicKeyCredentialParameters]> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest.credentialParameters
        let _: ReferenceWritableKeyPath<Registration, [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor]> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest.excludedCredentials
        let _: ReferenceWritableKeyPath<Registration, ASAuthorizationPublicKeyCredentialResidentKeyPreference> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest.residentKeyPreference
        typealias Assertion = ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest
        let _: ReferenceWritableKeyPath<Assertion, Data> = \ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest.challenge
        let _: ReferenceWritableKeyPath<Assertion, String> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest.relyingPartyIdentifier
        let _: ReferenceWritableKeyPath<Assertion, [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor]> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest.allowedCredentials
        let _: ReferenceWritableKeyPath<Assertion, ASAuthorizationPublicKeyCredentialUserVerificationPreference> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest.userVerificationPreference
        typealias Transport = ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport
        let _: (Data, [Transport]) -> ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor =
            ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.init(credentialID:transports:)
        let _: ReferenceWritableKeyPath<ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor, Data> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.credentialID
        let _: ReferenceWritableKeyPath<ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor, [Transport]> =
            \ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.transports
        pinExtensible(ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.self)
        let _: (String) -> Transport = ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.init(rawValue:)
        let _: (String) -> Transport = ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.init(_:)
        let _: KeyPath<Transport, String> = \ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.rawValue
        let _: Transport = ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.usb
        let _: Transport = ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.nfc
        let _: Transport = ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.bluetooth
        let _: [Transport] = ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.allSupported
        let _: (ASCOSEAlgorithmIdentifier) -> ASAuthorizationPublicKeyCredentialParameters =
            ASAuthorizationPublicKeyCredentialParameters.init(algorithm:)
        let _: KeyPath<ASAuthorizationPublicKeyCredentialParameters, ASCOSEAlgorithmIdentifier> =
            \ASAuthorizationPublicKeyCredentialParameters.algorithm
        typealias NewCredential = ASAuthorizationSecurityKeyPublicKeyCredentialRegistration
        let _: KeyPath<NewCredential, Data?> = \ASAuthorizationSecurityKeyPublicKeyCredentialRegistration.rawAttestationObject
        let _: KeyPath<NewCredential, Data> = \ASAuthorizationSecurityKeyPublicKeyCredentialRegistration.rawClientDataJSON
        let _: KeyPath<NewCredential, Data> = \ASAuthorizationSecurityKeyPublicKeyCredentialRegistration.credentialID
        typealias Signed = ASAuthorizationSecurityKeyPublicKeyCredentialAssertion
        let _: KeyPath<Signed, Data?> = \ASAuthorizationSecurityKeyPublicKeyCredentialAssertion.rawAuthenticatorData
        let _: KeyPath<Signed, Data?> = \ASAuthorizationSecurityKeyPublicKeyCredentialAssertion.userID
        let _: KeyPath<Signed, Data?> = \ASAuthorizationSecurityKeyPublicKeyCredentialAssertion.signature
        let _: KeyPath<Signed, Data> = \ASAuthorizationSecurityKeyPublicKeyCredentialAssertion.rawClientDataJSON
        let _: KeyPath<Signed, Data> = \ASAuthorizationSecurityKeyPublicKeyCredentialAssertion.credentialID
        let _: KeyPath<Signed, Bool> = \ASAuthorizationSecurityKeyPublicKeyCredentialAssertion.appID
    }
    #endif

    static func appleID() {
        let _: () -> ASAuthorizationAppleIDProvider = ASAuthorizationAppleIDProvider.init
        let _: (ASAuthorizationAppleIDProvider) -> () -> ASAuthorizationAppleIDRequest =
            ASAuthorizationAppleIDProvider.createRequest
        let _: NSNotification.Name = ASAuthorizationAppleIDProvider.credentialRevokedNotification
        let _ = { (provider: ASAuthorizationAppleIDProvider) in
            provider.getCredentialState(forUserID: "001234.abcdef") {
                (state: ASAuthorizationAppleIDProvider.CredentialState, error: (any Error)?) in
                _ = (state, error)
            }
        }
        _ = ASAuthorizationAppleIDProvider.getCredentialState(forUserID:completion:)
        _ = ASAuthorizationAppleIDProvider.credentialState(forUserID:)
        let _ = { (provider: ASAuthorizationAppleIDProvider) async throws in
            let state: ASAuthorizationAppleIDProvider.CredentialState = try await provider.credentialState(forUserID: "001234")
            _ = state
        }
        pinRawRepresentable(ASAuthorizationAppleIDProvider.CredentialState.self)
        let _: (Int) -> ASAuthorizationAppleIDProvider.CredentialState? =
            ASAuthorizationAppleIDProvider.CredentialState.init(rawValue:)
        let _: ASAuthorizationAppleIDProvider.CredentialState = ASAuthorizationAppleIDProvider.CredentialState.revoked
        let _: ASAuthorizationAppleIDProvider.CredentialState = ASAuthorizationAppleIDProvider.CredentialState.authorized
        let _: ASAuthorizationAppleIDProvider.CredentialState = ASAuthorizationAppleIDProvider.CredentialState.notFound
        let _: ASAuthorizationAppleIDProvider.CredentialState = ASAuthorizationAppleIDProvider.CredentialState.transferred
        let _: ReferenceWritableKeyPath<ASAuthorizationOpenIDRequest, [ASAuthorization.Scope]?> =
            \ASAuthorizationOpenIDRequest.requestedScopes
        let _: ReferenceWritableKeyPath<ASAuthorizationOpenIDRequest, String?> = \ASAuthorizationOpenIDRequest.state
        let _: ReferenceWritableKeyPath<ASAuthorizationOpenIDRequest, String?> = \ASAuthorizationOpenIDRequest.nonce
        let _: ReferenceWritableKeyPath<ASAuthorizationOpenIDRequest, ASAuthorization.OpenIDOperation> =
            \ASAuthorizationOpenIDRequest.requestedOperation
        let _: ReferenceWritableKeyPath<ASAuthorizationAppleIDRequest, String?> = \ASAuthorizationAppleIDRequest.user
        pinExtensible(ASAuthorization.Scope.self)
        let _: (String) -> ASAuthorization.Scope = ASAuthorization.Scope.init(rawValue:)
        let _: (String) -> ASAuthorization.Scope = ASAuthorization.Scope.init(_:)
        let _: KeyPath<ASAuthorization.Scope, String> = \ASAuthorization.Scope.rawValue
        let _: ASAuthorization.Scope = ASAuthorization.Scope.fullName
        let _: ASAuthorization.Scope = ASAuthorization.Scope.email
        pinExtensible(ASAuthorization.OpenIDOperation.self)
        let _: (String) -> ASAuthorization.OpenIDOperation = ASAuthorization.OpenIDOperation.init(rawValue:)
        let _: (String) -> ASAuthorization.OpenIDOperation = ASAuthorization.OpenIDOperation.init(_:)
        let _: KeyPath<ASAuthorization.OpenIDOperation, String> = \ASAuthorization.OpenIDOperation.rawValue
        let _: ASAuthorization.OpenIDOperation = ASAuthorization.OpenIDOperation.operationImplicit
        let _: ASAuthorization.OpenIDOperation = ASAuthorization.OpenIDOperation.operationLogin
        let _: ASAuthorization.OpenIDOperation = ASAuthorization.OpenIDOperation.operationRefresh
        let _: ASAuthorization.OpenIDOperation = ASAuthorization.OpenIDOperation.operationLogout
        let _: KeyPath<ASAuthorizationAppleIDCredential, String> = \ASAuthorizationAppleIDCredential.user
        let _: KeyPath<ASAuthorizationAppleIDCredential, String?> = \ASAuthorizationAppleIDCredential.state
        let _: KeyPath<ASAuthorizationAppleIDCredential, [ASAuthorization.Scope]> = \ASAuthorizationAppleIDCredential.authorizedScopes
        let _: KeyPath<ASAuthorizationAppleIDCredential, Data?> = \ASAuthorizationAppleIDCredential.authorizationCode
        let _: KeyPath<ASAuthorizationAppleIDCredential, Data?> = \ASAuthorizationAppleIDCredential.identityToken
        let _: KeyPath<ASAuthorizationAppleIDCredential, String?> = \ASAuthorizationAppleIDCredential.email
        let _: KeyPath<ASAuthorizationAppleIDCredential, PersonNameComponents?> = \ASAuthorizationAppleIDCredential.fullName
        let _: KeyPath<ASAuthorizationAppleIDCredential, ASUserDetectionStatus> = \ASAuthorizationAppleIDCredential.realUserStatus
        pinRawRepresentable(ASUserDetectionStatus.self)
        let _: (Int) -> ASUserDetectionStatus? = ASUserDetectionStatus.init(rawValue:)
        let _: ASUserDetectionStatus = ASUserDetectionStatus.unsupported
        let _: ASUserDetectionStatus = ASUserDetectionStatus.unknown
        let _: ASUserDetectionStatus = ASUserDetectionStatus.likelyReal
    }
}

func pinExtensible<T: RawRepresentable & Hashable>(_: T.Type) {}

/// A delegate and presentation context on a main-actor class (a view controller in an app), written to compile whether
/// the SDK's protocols are main-actor or not.
@MainActor
final class PinDelegate: NSObject, ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
    nonisolated func authorizationController(controller: ASAuthorizationController,
                                             didCompleteWithAuthorization authorization: ASAuthorization) {}
    nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
    nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated { ASPresentationAnchor() }
    }
}
#endif
