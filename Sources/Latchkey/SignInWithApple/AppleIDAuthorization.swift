import Foundation

/// Contact information a Sign in with Apple request asks for.
public enum AppleIDScope: String, Sendable, Hashable, CaseIterable {
    case fullName
    case email
}

/// One Sign in with Apple request: the SHA-256 hex of the nonce (never the raw nonce), a `state` to compare, the scopes.
public struct AppleIDAuthorizationRequest: Sendable, Hashable {
    public var hashedNonce: String
    public var state: String
    public var scopes: Set<AppleIDScope>

    public init(hashedNonce: String, state: String, scopes: Set<AppleIDScope>) {
        self.hashedNonce = hashedNonce
        self.state = state
        self.scopes = scopes
    }
}

/// What Sign in with Apple returned (`ASAuthorizationAppleIDCredential`): send `identityToken` and `authorizationCode`
/// to the server with the raw nonce. `email` and `fullName` come with the app's first authorization only.
public struct AppleIDAuthorization: Sendable, Hashable, CustomStringConvertible {
    /// The stable user identifier (the token's `sub`).
    public var userID: String
    /// The identity token (a JWT). A bearer credential: not in `description`.
    public var identityToken: String
    /// Single use, five minutes. A secret: not in `description`.
    public var authorizationCode: String?
    public var email: String?
    public var fullName: PersonNameComponents?
    /// `ASUserDetectionStatus`: 0 unsupported, 1 unknown, 2 likely real.
    public var realUserStatus: Int
    /// The request's `state`, as returned.
    public var state: String?

    public init(userID: String, identityToken: String, authorizationCode: String?, email: String?,
                fullName: PersonNameComponents?, realUserStatus: Int, state: String?) {
        self.userID = userID
        self.identityToken = identityToken
        self.authorizationCode = authorizationCode
        self.email = email
        self.fullName = fullName
        self.realUserStatus = realUserStatus
        self.state = state
    }

    public var description: String {
        let shared = [email == nil ? nil : "email", fullName == nil ? nil : "name"].compactMap { $0 }
        return "AppleIDAuthorization(user: \(userID), shared: \(shared))"
    }
}

/// Performs Sign in with Apple: `SystemAppleIDAuthorizer` (`ASAuthorizationAppleIDProvider`), or a stand-in in tests.
/// Throws `AuthorizationCeremonyError` (`.canceled` when the user closes the sheet).
public protocol AppleIDAuthorizing: Sendable {
    func authorize(_ request: AppleIDAuthorizationRequest) async throws -> AppleIDAuthorization
}

#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices

extension AppleIDAuthorization {
    /// The authorization `credential` carries.
    @MainActor
    init(_ credential: ASAuthorizationAppleIDCredential) throws(AuthorizationCeremonyError) {
        guard let token = credential.identityToken, let identityToken = String(data: token, encoding: .utf8),
              !identityToken.isEmpty else { throw .invalidResponse("identityToken") }
        self.init(userID: credential.user, identityToken: identityToken,
                  authorizationCode: credential.authorizationCode.flatMap { String(data: $0, encoding: .utf8) },
                  email: credential.email, fullName: credential.fullName,
                  realUserStatus: credential.realUserStatus.rawValue, state: credential.state)
    }

    /// The Sign in with Apple authorization in `authorization`: what SwiftUI's `SignInWithAppleButton` hands to its
    /// `onCompletion` (then `AppleSignIn.finishSignIn(_:nonce:server:)` starts the session). Any other credential is
    /// `.invalidResponse`.
    @MainActor
    public init(_ authorization: ASAuthorization) throws(AuthorizationCeremonyError) {
        guard let credential = authorization.credential as? ASAuthorizationAppleIDCredential else {
            throw .invalidResponse("\(type(of: authorization.credential))")
        }
        try self.init(credential)
    }
}
#endif
