import AuthenticationServices
import Foundation

/// What SwiftUI's `SignInWithAppleButton` does when tapped: its `onRequest` configures an Apple ID request, it performs
/// the request with `ASAuthorizationController` and hands the result to `onCompletion`.
@MainActor
final class SignInWithAppleButtonStandIn: NSObject, ASAuthorizationControllerDelegate {
    private var result: Result<ASAuthorization, any Error>?
    private var finished: CheckedContinuation<Void, Never>?

    func tap(onRequest: (ASAuthorizationAppleIDRequest) -> Void) async -> Result<ASAuthorization, any Error> {
        let request = ASAuthorizationAppleIDProvider().createRequest()
        onRequest(request)
        return await perform([request])
    }

    /// Performs `requests` as the button does its own, and returns what `onCompletion` would receive.
    func perform(_ requests: [ASAuthorizationRequest]) async -> Result<ASAuthorization, any Error> {
        let controller = ASAuthorizationController(authorizationRequests: requests)
        controller.delegate = self
        await withCheckedContinuation { continuation in
            finished = continuation
            controller.performRequests()
        }
        return result ?? .failure(ASAuthorizationError(.unknown))
    }

    nonisolated func authorizationController(controller: ASAuthorizationController,
                                             didCompleteWithAuthorization authorization: ASAuthorization) {
        MainActor.assumeIsolated {
            result = .success(authorization)
            finished?.resume()
            finished = nil
        }
    }

    nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        MainActor.assumeIsolated {
            result = .failure(error)
            finished?.resume()
            finished = nil
        }
    }
}
