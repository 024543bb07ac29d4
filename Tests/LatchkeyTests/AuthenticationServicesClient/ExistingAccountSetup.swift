import AuthenticationServices
import Foundation

// Apple's existing-account code as its Sign in with Apple sample ("Implementing User Authentication with Sign in with
// Apple", LoginViewController) writes it: at launch, Apple ID and password requests in one `ASAuthorizationController`,
// and a delegate that reads an `ASAuthorizationAppleIDCredential` or an `ASPasswordCredential`. The ASAuthorization
// lines are the sample's; what the sample does with the result on screen (a result view, an alert) is reported through
// `onEvent` instead. Foundation and AuthenticationServices only: it compiles unchanged against Apple's SDK and, here,
// runs on the Linux module. Its delegate methods are `nonisolated` and enter the main actor, as Swift 6 needs with the
// iOS 18.0 SDK (whose delegate protocols are not main-actor; later SDKs' are, and this compiles with both).

/// What the login controller hands on, as the sample's screens would show it.
enum ExistingAccountEvent: Sendable {
    /// Sign in with Apple: the user identifier and what the first authorization shares.
    case appleID(user: String, identityToken: String?, email: String?, givenName: String?)
    /// An existing iCloud Keychain credential.
    case password(username: String, password: String)
    case canceled
    case failed(code: Int)
}

@MainActor
final class LoginController: NSObject, ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
    var onEvent: ((ExistingAccountEvent) -> Void)?
    var window: ASPresentationAnchor?

    /// Prompts the user if an existing iCloud Keychain credential or Apple ID credential is found.
    func performExistingAccountSetupFlows() {
        // Prepare requests for both Apple ID and password providers.
        let requests = [ASAuthorizationAppleIDProvider().createRequest(),
                        ASAuthorizationPasswordProvider().createRequest()]

        // Create an authorization controller with the given requests.
        let authorizationController = ASAuthorizationController(authorizationRequests: requests)
        authorizationController.delegate = self
        authorizationController.presentationContextProvider = self
        authorizationController.performRequests()
    }

    nonisolated func authorizationController(controller: ASAuthorizationController,
                                             didCompleteWithAuthorization authorization: ASAuthorization) {
        MainActor.assumeIsolated { didComplete(with: authorization) }
    }

    private func didComplete(with authorization: ASAuthorization) {
        switch authorization.credential {
        case let appleIDCredential as ASAuthorizationAppleIDCredential:
            // Create an account in your system.
            let userIdentifier = appleIDCredential.user
            let fullName = appleIDCredential.fullName
            let email = appleIDCredential.email
            let identityToken = appleIDCredential.identityToken.flatMap { String(data: $0, encoding: .utf8) }
            onEvent?(.appleID(user: userIdentifier, identityToken: identityToken, email: email,
                              givenName: fullName?.givenName))
        case let passwordCredential as ASPasswordCredential:
            // Sign in using an existing iCloud Keychain credential.
            let username = passwordCredential.user
            let password = passwordCredential.password

            // For the purpose of this demo app, show the password credential as an alert.
            DispatchQueue.main.async {
                self.onEvent?(.password(username: username, password: password))
            }
        default:
            break
        }
    }

    nonisolated func authorizationController(controller: ASAuthorizationController,
                                             didCompleteWithError error: any Error) {
        // Handle error.
        let code = (error as NSError).code
        MainActor.assumeIsolated {
            onEvent?(code == ASAuthorizationError.Code.canceled.rawValue ? .canceled : .failed(code: code))
        }
    }

    nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated { window ?? ASPresentationAnchor() }
    }
}
