import Foundation
import LatchkeySupport

/// The client half of Sign in with Apple: the sign-in itself (`signIn(with:server:)`: nonce, the system's sheet, the
/// server's session), the user identifier in the keychain, and the credential-state checks an app must make (at launch,
/// and on the revocation notification: `observeCredentialRevocation()`).
///
/// ```swift
/// let apple = AppleSignIn(keychain: Keychain(service: "com.example.app", store: store),
///                         stateProvider: SystemAppleCredentialStateProvider()) { await session.signOut() }
/// let result = try await apple.signIn(with: SystemAppleIDAuthorizer(), server: AppleSessionClient(baseURL: api))
/// await apple.checkCredentialState()                // at every launch
/// let revocations = apple.observeCredentialRevocation()  // keep while the app runs
/// ```
public final class AppleSignIn: Sendable {
    let keychain: Keychain
    let stateProvider: any AppleCredentialStateProvider
    let onSignOut: @Sendable () async -> Void
    /// Cancels the revocation observations this instance handed out (`forgetUser()`), each registered by its maker.
    let observationCancellers = Locked<[ObjectIdentifier: @Sendable () -> Void]>([:])
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

    /// Forgets the user identifier and any name and email not yet sent (sign-out).
    public func signOut() async throws(KeychainError) {
        try await keychain.remove(Self.userIDKey)
        try await keychain.remove(Self.profileKey)
        await onSignOut()
    }

    /// Forgets the user for good (the account was deleted): the identifier, any name and email not yet sent, and every
    /// revocation observation this instance made (`observeCredentialRevocation()`), which stop observing. Unlike
    /// `signOut()`, `onSignOut` does not run: the caller is the one ending the session.
    public func forgetUser() async throws(KeychainError) {
        let cancellers = observationCancellers.withLock { all in
            defer { all.removeAll() }
            return Array(all.values)
        }
        for cancel in cancellers { cancel() }
        try await keychain.remove(Self.userIDKey)
        try await keychain.remove(Self.profileKey)
    }

    /// How many revocation observations are active (made by `observeCredentialRevocation()`, not cancelled).
    public var activeRevocationObservations: Int { observationCancellers.withLock { $0.count } }

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
