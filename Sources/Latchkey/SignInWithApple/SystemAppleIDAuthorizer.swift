#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices
import Foundation

/// Sign in with Apple through `ASAuthorizationAppleIDProvider` and `ASAuthorizationController` (on Linux, the
/// `AuthenticationServices` module's Apple ID authority). Throws `AuthorizationCeremonyError`.
public struct SystemAppleIDAuthorizer: AppleIDAuthorizing {
    /// The window the system's sheet belongs to; nil lets the system choose.
    public let presentationAnchor: (@MainActor @Sendable () -> ASPresentationAnchor)?

    public init(presentationAnchor: (@MainActor @Sendable () -> ASPresentationAnchor)? = nil) {
        self.presentationAnchor = presentationAnchor
    }

    public func authorize(_ request: AppleIDAuthorizationRequest) async throws -> AppleIDAuthorization {
        let credential = try await AuthorizationSession.perform(.modal(preferImmediatelyAvailableCredentials: false),
                                                               anchor: presentationAnchor) {
            let apple = ASAuthorizationAppleIDProvider().createRequest()
            apple.nonce = request.hashedNonce
            apple.state = request.state
            apple.requestedScopes = AppleIDScope.allCases.filter(request.scopes.contains).map {
                $0 == .fullName ? ASAuthorization.Scope.fullName : ASAuthorization.Scope.email
            }
            return [apple]
        }
        guard case .appleID(let authorization) = credential else { throw AuthorizationCeremonyError.invalidResponse(nil) }
        return authorization
    }
}
#endif
