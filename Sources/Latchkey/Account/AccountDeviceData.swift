import Foundation

/// What an account leaves on the device besides its tokens, for `AccountManager` to remove once the account is
/// deleted (App Store Review Guideline 5.1.1(v): the account and its data go; nothing of it stays behind on the phone).
/// Give every part the app uses; each is cleared even when another fails.
///
/// ```swift
/// AccountDeviceData(keychains: [notesKeychain], appleSignIn: apple, domainState: domainStateStore,
///                   appSessions: sessionStore, passwordLogin: login, appLock: appLock)
/// ```
public struct AccountDeviceData: Sendable {
    /// Keychains (services) holding only this account's items: every item of each is removed.
    public var keychains: [Keychain]
    /// The remembered Apple user identifier and pending name and email, and the credential-revocation observations
    /// (`AppleSignIn.forgetUser()`).
    public var appleSignIn: AppleSignIn?
    /// The biometric enrolment the app trusted (`BiometricChangeDetector`'s store).
    public var domainState: (any DomainStateStore)?
    /// The app lock's last-active time (a relaunch must not find the session unlocked).
    public var appSessions: (any AppSessionStore)?
    /// The on-device login (its verifier, throttle counter and biometric shortcut).
    public var passwordLogin: PasswordLogin?
    /// The app lock, told the user is logged out (`AppLock.didLogOut()`: the login screen, the session ended).
    public var appLock: AppLock?
    /// The app's own data of the account (a cache, files, user defaults): run last.
    public var additional: [@Sendable () async throws -> Void]

    public init(keychains: [Keychain] = [], appleSignIn: AppleSignIn? = nil, domainState: (any DomainStateStore)? = nil,
                appSessions: (any AppSessionStore)? = nil, passwordLogin: PasswordLogin? = nil, appLock: AppLock? = nil,
                additional: [@Sendable () async throws -> Void] = []) {
        self.keychains = keychains
        self.appleSignIn = appleSignIn
        self.domainState = domainState
        self.appSessions = appSessions
        self.passwordLogin = passwordLogin
        self.appLock = appLock
        self.additional = additional
    }

    /// Removes every part, each even when another fails (for an account that lives only on this device; a server
    /// account's `AccountManager.deleteAccount()` does it). `.deviceDataNotCleared` names what is still there.
    public func clear() async throws(AccountManagerError) {
        let failures = await clearAll()
        if !failures.isEmpty { throw .deviceDataNotCleared(failures) }
    }

    /// Removes every part; returns what could not be removed (a name and the reason), empty when all went.
    func clearAll() async -> [String] {
        var failures: [String] = []
        func attempt(_ name: String, _ body: () async throws -> Void) async {
            do { try await body() } catch { failures.append("\(name): \(error.localizedDescription)") }
        }
        for keychain in keychains {
            await attempt("keychain \(keychain.service)") { try await keychain.removeAll() }
        }
        if let appleSignIn { await attempt("Sign in with Apple") { try await appleSignIn.forgetUser() } }
        if let domainState { await attempt("biometric state") { try domainState.removeTrustedState() } }
        appSessions?.setLastActive(nil)
        if let passwordLogin { await attempt("password login") { try passwordLogin.deleteAccount() } }
        if let appLock { await appLock.didLogOut() }
        for (index, clear) in additional.enumerated() {
            await attempt("app data \(index + 1)") { try await clear() }
        }
        return failures
    }
}
