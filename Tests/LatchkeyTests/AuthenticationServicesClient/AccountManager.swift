import AuthenticationServices
import Foundation

// Client code as Apple's passkey sample ("Shiny", Supporting passkeys) and the Sign in with Apple tutorials write it:
// a delegate-style account manager that imports only Foundation and AuthenticationServices. Its delegate methods are
// `nonisolated` and enter the main actor, as Swift 6 needs with the iOS 18.0 SDK (whose delegate protocols are not
// main-actor; later SDKs' are, and this compiles with both). Here it runs on the Linux module against a real
// `latchkey serve`.

/// What the account manager reports, as the sample's notifications do.
enum AccountEvent: Sendable {
    /// A new passkey: its id, client data and attestation object.
    case registered(credentialID: Data, clientDataJSON: Data, attestationObject: Data)
    /// A passkey signed in: its id, client data, authenticator data, signature and user handle.
    case signedIn(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userID: Data)
    /// Sign in with Apple: the user, the identity token, the code, and what the first authorization shares.
    case signedInWithApple(user: String, identityToken: String, authorizationCode: String?, email: String?,
                           givenName: String?)
    case canceled
    case failed(code: Int)
}

@MainActor
final class AccountManager: NSObject, ASAuthorizationControllerPresentationContextProviding,
                            ASAuthorizationControllerDelegate {
    let domain: String
    var authenticationAnchor: ASPresentationAnchor?
    var onEvent: ((AccountEvent) -> Void)?

    init(domain: String) {
        self.domain = domain
        super.init()
    }

    func signUpWith(userName: String, challenge: Data, userID: Data, anchor: ASPresentationAnchor) {
        self.authenticationAnchor = anchor
        let publicKeyCredentialProvider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: domain)
        let registrationRequest = publicKeyCredentialProvider.createCredentialRegistrationRequest(challenge: challenge,
                                                                                                 name: userName, userID: userID)
        let authController = ASAuthorizationController(authorizationRequests: [registrationRequest])
        authController.delegate = self
        authController.presentationContextProvider = self
        authController.performRequests()
    }

    func signInWith(challenge: Data, anchor: ASPresentationAnchor, preferImmediatelyAvailableCredentials: Bool) {
        self.authenticationAnchor = anchor
        let publicKeyCredentialProvider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: domain)
        let assertionRequest = publicKeyCredentialProvider.createCredentialAssertionRequest(challenge: challenge)
        let authController = ASAuthorizationController(authorizationRequests: [assertionRequest])
        authController.delegate = self
        authController.presentationContextProvider = self
        if preferImmediatelyAvailableCredentials {
            // If credentials are available, presents a modal sign-in sheet; if not, the delegate hears `.canceled`.
            authController.performRequests(options: .preferImmediatelyAvailableCredentials)
        } else {
            authController.performRequests()
        }
    }

    func signInWithApple(nonce: String, anchor: ASPresentationAnchor) {
        self.authenticationAnchor = anchor
        let appleIDProvider = ASAuthorizationAppleIDProvider()
        let request = appleIDProvider.createRequest()
        request.requestedScopes = [.fullName, .email]
        request.nonce = nonce
        let authorizationController = ASAuthorizationController(authorizationRequests: [request])
        authorizationController.delegate = self
        authorizationController.presentationContextProvider = self
        authorizationController.performRequests()
    }

    nonisolated func authorizationController(controller: ASAuthorizationController,
                                             didCompleteWithAuthorization authorization: ASAuthorization) {
        MainActor.assumeIsolated {
            switch authorization.credential {
            case let credentialRegistration as ASAuthorizationPlatformPublicKeyCredentialRegistration:
                // After the server verifies the registration and creates the user account, sign in the user.
                guard let attestationObject = credentialRegistration.rawAttestationObject else {
                    onEvent?(.failed(code: ASAuthorizationError.Code.invalidResponse.rawValue))
                    return
                }
                onEvent?(.registered(credentialID: credentialRegistration.credentialID,
                                     clientDataJSON: credentialRegistration.rawClientDataJSON,
                                     attestationObject: attestationObject))
            case let credentialAssertion as ASAuthorizationPlatformPublicKeyCredentialAssertion:
                // After the server verifies the assertion, sign in the user.
                onEvent?(.signedIn(credentialID: credentialAssertion.credentialID,
                                   clientDataJSON: credentialAssertion.rawClientDataJSON,
                                   authenticatorData: credentialAssertion.rawAuthenticatorData,
                                   signature: credentialAssertion.signature, userID: credentialAssertion.userID))
            case let appleIDCredential as ASAuthorizationAppleIDCredential:
                guard let appleIDToken = appleIDCredential.identityToken,
                      let idTokenString = String(data: appleIDToken, encoding: .utf8) else {
                    onEvent?(.failed(code: ASAuthorizationError.Code.invalidResponse.rawValue))
                    return
                }
                let code = appleIDCredential.authorizationCode.flatMap { String(data: $0, encoding: .utf8) }
                onEvent?(.signedInWithApple(user: appleIDCredential.user, identityToken: idTokenString, authorizationCode: code,
                                            email: appleIDCredential.email, givenName: appleIDCredential.fullName?.givenName))
            default:
                onEvent?(.failed(code: ASAuthorizationError.Code.unknown.rawValue))
            }
        }
    }

    nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        MainActor.assumeIsolated {
            guard let authorizationError = error as? ASAuthorizationError else {
                onEvent?(.failed(code: (error as NSError).code))
                return
            }
            if authorizationError.code == .canceled {
                // Either the system doesn't find any credentials and the request ends silently, or the user cancels.
                onEvent?(.canceled)
            } else {
                onEvent?(.failed(code: authorizationError.code.rawValue))
            }
        }
    }

    nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated {
            authenticationAnchor ?? ASPresentationAnchor()
        }
    }
}
