import Foundation

/// The client half of Sign in with Apple: nonces, the user identifier in the keychain, and the
/// credential-state checks an app must make (at launch and on the revocation notification).
///
/// ```swift
/// let apple = AppleSignIn(keychain: Keychain(service: "com.example.app", store: store),
///                         stateProvider: SystemAppleCredentialStateProvider()) { await session.signOut() }
/// let nonce = AppleSignIn.makeNonce()          // request.nonce = nonce.hashed
/// try apple.didSignIn(userID: credential.user) // after the server verified the token with nonce.raw
/// await apple.checkCredentialState()           // at every launch
/// ```
public final class AppleSignIn: Sendable {
    let keychain: Keychain
    let stateProvider: any AppleCredentialStateProvider
    let onSignOut: @Sendable () async -> Void
    static let userIDKey = "apple-user-id"

    /// `onSignOut` runs when Apple reports the credential revoked or gone: delete tokens, show login.
    public init(keychain: Keychain, stateProvider: any AppleCredentialStateProvider,
                onSignOut: @escaping @Sendable () async -> Void) {
        self.keychain = keychain.accessibility(.afterFirstUnlockThisDeviceOnly)
        self.stateProvider = stateProvider
        self.onSignOut = onSignOut
    }

    /// A fresh nonce for one authorization request.
    public static func makeNonce() -> AppleSignInNonce { AppleSignInNonce() }

    /// The stored Apple user identifier (`credential.user`), if signed in.
    public func userID() throws(KeychainError) -> String? { try keychain.string(forKey: Self.userIDKey) }

    /// Remembers the user identifier once the server accepted the sign-in.
    public func didSignIn(userID: String) throws(KeychainError) { try keychain.set(userID, forKey: Self.userIDKey) }

    /// Forgets the user identifier (sign-out).
    public func signOut() async throws(KeychainError) {
        try await keychain.remove(Self.userIDKey)
        await onSignOut()
    }

    /// Asks Apple about the stored user. Revoked or not found → the stored id is removed and
    /// `onSignOut` runs. Returns the state (`.notFound` when nobody is signed in). Errors reaching Apple
    /// keep the user signed in (offline is not a revocation).
    @discardableResult
    public func checkCredentialState() async -> AppleCredentialState {
        guard let id = try? userID() else { return .notFound }
        let state: AppleCredentialState
        do { state = try await stateProvider.credentialState(forUserID: id) } catch { return .authorized }
        switch state {
        case .revoked, .notFound: try? await signOut()
        case .authorized, .transferred: break
        }
        return state
    }

    /// Call from `ASAuthorizationAppleIDProvider.credentialRevokedNotification`: signs out at once.
    public func handleCredentialRevoked() async {
        try? await signOut()
    }
}
