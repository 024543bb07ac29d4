import AuthenticationServices
import Foundation

// The async style tutorials use on top of the same API: `ASAuthorizationController` wrapped in a checked continuation
// (Apple has no async `performRequests` outside SwiftUI's `AuthorizationController`). The delegate turns the credential
// into Sendable data before resuming, as Swift 6 requires. Foundation and AuthenticationServices only.

/// A passkey credential, as the server's JSON needs it.
struct PasskeyCredential: Sendable {
    var credentialID: Data
    var clientDataJSON: Data
    /// Registration only.
    var attestationObject: Data?
    /// Assertion only.
    var authenticatorData: Data?
    var signature: Data?
    var userID: Data?
}

@MainActor
final class AsyncAuthorization: NSObject, ASAuthorizationControllerDelegate {
    private var continuation: CheckedContinuation<PasskeyCredential, any Error>?

    /// Performs `requests` and returns the passkey credential, or throws the `ASAuthorizationError`.
    func perform(_ requests: [ASAuthorizationRequest]) async throws -> PasskeyCredential {
        try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            let controller = ASAuthorizationController(authorizationRequests: requests)
            controller.delegate = self
            controller.performRequests()
        }
    }

    nonisolated func authorizationController(controller: ASAuthorizationController,
                                             didCompleteWithAuthorization authorization: ASAuthorization) {
        MainActor.assumeIsolated {
            // Platform passkeys and security keys alike.
            if let registration = authorization.credential as? any ASAuthorizationPublicKeyCredentialRegistration {
                continuation?.resume(returning: PasskeyCredential(credentialID: registration.credentialID,
                                                                  clientDataJSON: registration.rawClientDataJSON,
                                                                  attestationObject: registration.rawAttestationObject))
            } else if let assertion = authorization.credential as? any ASAuthorizationPublicKeyCredentialAssertion {
                continuation?.resume(returning: PasskeyCredential(credentialID: assertion.credentialID,
                                                                  clientDataJSON: assertion.rawClientDataJSON,
                                                                  authenticatorData: assertion.rawAuthenticatorData,
                                                                  signature: assertion.signature, userID: assertion.userID))
            } else {
                continuation?.resume(throwing: ASAuthorizationError(.invalidResponse))
            }
            continuation = nil
        }
    }

    nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        MainActor.assumeIsolated {
            continuation?.resume(throwing: error)
            continuation = nil
        }
    }
}
