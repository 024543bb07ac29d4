#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices
import Foundation

/// Apple's existing-account flow: `ASAuthorizationAppleIDProvider`, `ASAuthorizationPasswordProvider` and
/// `ASAuthorizationPlatformPublicKeyCredentialProvider` requests in one `ASAuthorizationController`, performed with
/// `preferImmediatelyAvailableCredentials` — the sheet shows only credentials this device already has, and nothing when
/// there are none (`.canceled`). On Linux, the `AuthenticationServices` module's rules pick the credential.
public struct SystemExistingAccountAuthorizer: ExistingAccountAuthorizing {
    /// The window the system's sheet belongs to; nil lets the system choose.
    public let presentationAnchor: (@MainActor @Sendable () -> ASPresentationAnchor)?

    public init(presentationAnchor: (@MainActor @Sendable () -> ASPresentationAnchor)? = nil) {
        self.presentationAnchor = presentationAnchor
    }

    public func authorize(_ request: ExistingAccountRequest) async throws -> ExistingAccountCredential {
        let credential = try await AuthorizationSession.perform(.modal(preferImmediatelyAvailableCredentials: true),
                                                               anchor: presentationAnchor) {
            Self.requests(request)
        }
        switch credential {
        case .appleID(let authorization): return .appleID(authorization)
        case .password(let user, let password): return .password(user: user, password: password)
        case .assertion(let response): return .passkey(response)
        case .registration: throw AuthorizationCeremonyError.invalidResponse(nil)
        }
    }

    /// The controller's requests, in the order of Apple's existing-account sample (Apple ID, password), then the
    /// passkey.
    @MainActor
    static func requests(_ request: ExistingAccountRequest) -> [ASAuthorizationRequest] {
        var requests: [ASAuthorizationRequest] = []
        if let apple = request.appleID {
            let appleRequest = ASAuthorizationAppleIDProvider().createRequest()
            appleRequest.nonce = apple.hashedNonce
            appleRequest.state = apple.state
            appleRequest.requestedScopes = AppleIDScope.allCases.filter(apple.scopes.contains).map {
                $0 == .fullName ? ASAuthorization.Scope.fullName : ASAuthorization.Scope.email
            }
            requests.append(appleRequest)
        }
        if request.offersPasswords { requests.append(ASAuthorizationPasswordProvider().createRequest()) }
        if let options = request.passkey {
            requests += PlatformPasskeyCeremony.assertionRequests(options, rpID: request.relyingPartyID, securityKeys: false)
        }
        return requests
    }
}
#endif
