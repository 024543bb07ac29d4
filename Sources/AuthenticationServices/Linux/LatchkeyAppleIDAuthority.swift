#if os(Linux)
import Foundation

/// Linux only: what stands for the device's Apple ID and appleid.apple.com behind `ASAuthorizationAppleIDProvider`.
/// Set one in `LatchkeyAuthenticationServicesConfiguration.appleIDAuthority`.
public protocol LatchkeyAppleIDAuthority: Sendable {
    /// Authorizes the app for the signed-in Apple ID: an identity token, a code and, the first time, name and email.
    func authorize(_ request: LatchkeyAppleIDAuthorizationRequest) async throws -> LatchkeyAppleIDAuthorization
    /// The state of a user identifier this authority issued.
    func credentialState(forUserID userID: String) async throws -> ASAuthorizationAppleIDProvider.CredentialState
}

/// Linux only: one Sign in with Apple request as the authority receives it.
public struct LatchkeyAppleIDAuthorizationRequest: Sendable, Hashable {
    public var scopes: [ASAuthorization.Scope]
    /// Copied into the identity token's `nonce` claim.
    public var nonce: String?
    public var state: String?
    /// The user identifier of an earlier sign-in the app asks about.
    public var user: String?

    public init(scopes: [ASAuthorization.Scope], nonce: String?, state: String?, user: String?) {
        self.scopes = scopes
        self.nonce = nonce
        self.state = state
        self.user = user
    }
}

/// Linux only: what an authority answers, the fields of `ASAuthorizationAppleIDCredential`.
public struct LatchkeyAppleIDAuthorization: Sendable, CustomStringConvertible {
    public var user: String
    public var state: String?
    public var authorizedScopes: [ASAuthorization.Scope]
    /// A secret: never printed.
    public var authorizationCode: Data?
    /// A bearer credential: never printed.
    public var identityToken: Data?
    public var email: String?
    public var fullName: PersonNameComponents?
    public var realUserStatus: ASUserDetectionStatus

    public init(user: String, state: String?, authorizedScopes: [ASAuthorization.Scope], authorizationCode: Data?,
                identityToken: Data?, email: String?, fullName: PersonNameComponents?,
                realUserStatus: ASUserDetectionStatus) {
        self.user = user
        self.state = state
        self.authorizedScopes = authorizedScopes
        self.authorizationCode = authorizationCode
        self.identityToken = identityToken
        self.email = email
        self.fullName = fullName
        self.realUserStatus = realUserStatus
    }

    public var description: String {
        "LatchkeyAppleIDAuthorization(user: \(user), scopes: \(authorizedScopes.map(\.rawValue)))"
    }
}
#endif
