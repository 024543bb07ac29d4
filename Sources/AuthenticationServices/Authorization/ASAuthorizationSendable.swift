#if os(Linux)
import Foundation

// Sendable as Apple's Swift overlay declares them (AuthenticationServices.swiftinterface: `extension … : @unchecked
// Swift.Sendable`); @unchecked, as Apple's, because a request is configured before `performRequests()` and a credential
// or authorization is only read. Each subclass restates it, as Apple's overlay does. The controller, its delegate
// protocols and the presentation anchor are not Sendable (docs/apple-sdk/AuthenticationServices.tsv).
extension ASAuthorization: @unchecked Sendable {}
extension ASAuthorizationRequest: @unchecked Sendable {}
extension ASAuthorizationOpenIDRequest: @unchecked Sendable {}
extension ASAuthorizationAppleIDRequest: @unchecked Sendable {}
extension ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: @unchecked Sendable {}
extension ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: @unchecked Sendable {}
extension ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest: @unchecked Sendable {}
extension ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest: @unchecked Sendable {}
extension ASAuthorizationAppleIDCredential: @unchecked Sendable {}
extension ASAuthorizationAppleIDProvider: @unchecked Sendable {}
extension ASAuthorizationPasswordProvider: @unchecked Sendable {}
extension ASAuthorizationPasswordRequest: @unchecked Sendable {}
extension ASPasswordCredential: @unchecked Sendable {}
extension ASAuthorizationPlatformPublicKeyCredentialAssertion: @unchecked Sendable {}
extension ASAuthorizationPlatformPublicKeyCredentialDescriptor: @unchecked Sendable {}
extension ASAuthorizationPlatformPublicKeyCredentialProvider: @unchecked Sendable {}
extension ASAuthorizationPlatformPublicKeyCredentialRegistration: @unchecked Sendable {}
extension ASAuthorizationPublicKeyCredentialParameters: @unchecked Sendable {}
extension ASAuthorizationSecurityKeyPublicKeyCredentialAssertion: @unchecked Sendable {}
extension ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor: @unchecked Sendable {}
extension ASAuthorizationSecurityKeyPublicKeyCredentialProvider: @unchecked Sendable {}
extension ASAuthorizationSecurityKeyPublicKeyCredentialRegistration: @unchecked Sendable {}
#endif
