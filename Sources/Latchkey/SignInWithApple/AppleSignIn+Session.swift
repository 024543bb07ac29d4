import Foundation
import LatchkeyCrypto

/// What `AppleSignIn.signIn` produced: the server's tokens and what Apple returned.
public struct AppleSignInResult: Sendable {
    public var tokens: TokenGrant
    public var authorization: AppleIDAuthorization
}

extension AppleSignIn {
    static let profileKey = "apple-pending-profile"

    /// Signs in with Apple and starts a session on the server: a fresh nonce (its SHA-256 hex in the request, the raw
    /// value to the server), the system's sheet through `authorizer`, the `state` compared, then
    /// `POST /v1/session/apple` with the identity token and the authorization code. Name and email — given by Apple
    /// only the first time — are kept in the keychain until the server has accepted them, so a failed first attempt
    /// does not lose them. On success the user identifier is remembered for `checkCredentialState()`.
    ///
    /// ```swift
    /// let result = try await apple.signIn(with: SystemAppleIDAuthorizer(), server: AppleSessionClient(baseURL: api))
    /// // result.tokens: the session's access and refresh tokens (hand them to a TokenManager)
    /// ```
    public func signIn(with authorizer: any AppleIDAuthorizing, server: AppleSessionClient,
                       scopes: Set<AppleIDScope> = [.fullName, .email], linkingWith bearer: String? = nil)
        async throws(SignInWithAppleError) -> AppleSignInResult {
        let nonce = Self.makeNonce()
        let state = SecureRandom.bytes(count: 16).base64URLEncodedString()
        let authorization: AppleIDAuthorization
        do {
            authorization = try await authorizer.authorize(AppleIDAuthorizationRequest(hashedNonce: nonce.hashed,
                                                                                        state: state, scopes: scopes))
        } catch {
            throw SignInWithAppleError(authorization: error)
        }
        return try await finishSignIn(authorization, nonce: nonce, state: state, server: server, linkingWith: bearer)
    }

    /// Starts the session for an authorization the app obtained itself — SwiftUI's `SignInWithAppleButton` performs
    /// the request and hands over an `ASAuthorization` (read it with `AppleIDAuthorization(_:)`): the second half of
    /// `signIn(with:server:)`. `nonce` is the one whose `hashed` value went into the request
    /// (`SignInScreenModel.startAppleSignIn()` makes it), `state` the request's when it set one. The raw nonce goes to
    /// `POST /v1/session/apple`; name and email are kept until the server has them; the user is remembered for
    /// `checkCredentialState()`.
    ///
    /// ```swift
    /// exchangeApple: { authorization, nonce in
    ///     try await apple.finishSignIn(AppleIDAuthorization(authorization), nonce: nonce, server: sessions).tokens
    /// }
    /// ```
    public func finishSignIn(_ authorization: AppleIDAuthorization, nonce: AppleSignInNonce, state: String? = nil,
                             server: AppleSessionClient, linkingWith bearer: String? = nil)
        async throws(SignInWithAppleError) -> AppleSignInResult {
        if let state, authorization.state != state { throw .stateMismatch }
        let profile: AppleProfile?
        do { profile = try keepProfile(of: authorization) } catch { throw .keychain(error) }
        let tokens = try await server.startSession(identityToken: authorization.identityToken, rawNonce: nonce.raw,
                                                   authorizationCode: authorization.authorizationCode, profile: profile,
                                                   bearer: bearer)
        do {
            try await keychain.remove(Self.profileKey)
            try didSignIn(userID: authorization.userID)
        } catch {
            throw .keychain(error)
        }
        return AppleSignInResult(tokens: tokens, authorization: authorization)
    }

    /// The name and email to send: those of this authorization (stored until the server has them), else those stored
    /// by an earlier attempt for the same user.
    func keepProfile(of authorization: AppleIDAuthorization) throws(KeychainError) -> AppleProfile? {
        if authorization.email != nil || authorization.fullName != nil {
            let profile = AppleProfile(userID: authorization.userID, email: authorization.email,
                                       givenName: authorization.fullName?.givenName,
                                       familyName: authorization.fullName?.familyName)
            try keychain.set(profile, forKey: Self.profileKey)
            return profile
        }
        guard let stored = try keychain.value(AppleProfile.self, forKey: Self.profileKey),
              stored.userID == authorization.userID else { return nil }
        return stored
    }

    /// Name and email waiting for the server (the first sign-in did not reach it yet), if any.
    public func pendingProfile() throws(KeychainError) -> AppleProfile? {
        try keychain.value(AppleProfile.self, forKey: Self.profileKey)
    }
}
