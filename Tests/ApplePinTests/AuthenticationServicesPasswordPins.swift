#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation

// Apple's saved-password API of AuthenticationServices (ASAuthorizationPasswordProvider.h,
// ASAuthorizationPasswordRequest.h: iOS 13, macOS 10.15, tvOS 15, watchOS 6; ASPasswordCredential.h: iOS 12), pinned as
// AuthenticationServicesPins.swift pins the rest: what the existing-account flow puts beside Sign in with Apple in one
// controller, and the credential its delegate reads.

/// Pins of the password provider (compiled, not run).
enum AuthenticationServicesPasswordPins {
    static func passwords() {
        let _: () -> ASAuthorizationPasswordProvider = ASAuthorizationPasswordProvider.init
        let _: (ASAuthorizationPasswordProvider) -> () -> ASAuthorizationPasswordRequest =
            ASAuthorizationPasswordProvider.createRequest
        let _: any ASAuthorizationProvider = ASAuthorizationPasswordProvider()
        let _: ASAuthorizationRequest = ASAuthorizationPasswordProvider().createRequest()
        let _: (String, String) -> ASPasswordCredential = ASPasswordCredential.init(user:password:)
        let _: KeyPath<ASPasswordCredential, String> = \ASPasswordCredential.user
        let _: KeyPath<ASPasswordCredential, String> = \ASPasswordCredential.password
        let _: any ASAuthorizationCredential = ASPasswordCredential(user: "appleseed", password: "secret")
        // The existing-account flow: Apple ID and password requests in one controller.
        let _: [ASAuthorizationRequest] = [ASAuthorizationAppleIDProvider().createRequest(),
                                           ASAuthorizationPasswordProvider().createRequest()]
    }
}
#endif
