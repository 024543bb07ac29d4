import AuthenticationServices
import Foundation
import Latchkey
import LatchkeyCrypto
import Observation

/// The secure-notes app, every decision of it: the views (`App/`) lay this out and call it.
///
/// - Signing in: the app's own password account (`passwordForm`, kept on this device), or an account of the server
///   with a passkey or Sign in with Apple (`signIn`); `createPasskeyAccount(username:)` makes a server account with a
///   passkey. At launch, signed out, Apple's existing-account sheet offers what the device already has — Sign in with
///   Apple, a password saved for the server's website, a passkey — and signs in with the one picked. The server's tokens are kept in the keychain (`TokenManager`); a Sign in with Apple user is checked with
///   Apple at every launch and while the app runs, and signed out when revoked.
/// - The lock: Face ID with the passcode as fallback (`lockScreen` over `AppLock`), asked at launch and whenever the app
///   comes back from the background (`lockOnBackground`); the privacy cover hides it in the app switcher.
/// - The notes: in the keychain, per account (`NotesStore`), in memory only while unlocked (`refresh()`).
/// - The account's life (Settings): "Devices" lists a server account's sessions and signs them out; "Delete Account"
///   deletes the account — on the server after re-authenticating with its passkey or Sign in with Apple when the server
///   asks, or the password account on this device — with its notes and all the app kept of it, and returns to sign-in.
@MainActor
@Observable
public final class SecureNotesModel {
    /// The lock screen (and which screen the app shows: `lockScreen.presentation`).
    public let lockScreen: LockScreenModel
    /// The password account's form.
    public let passwordForm: PasswordLoginFormModel
    /// The passkey and Sign in with Apple buttons.
    public let signIn: SignInScreenModel<ServerSession, ASAuthorization>
    /// The language of every text.
    public let language: MessageLanguage
    /// Who is signed in.
    public private(set) var account: SignedInAccount?
    /// The account's notes while the app is unlocked (newest first); empty otherwise.
    public private(set) var notes: [Note] = []
    /// The last failure to show, if any.
    public private(set) var errorMessage: String?
    /// The server's address as typed in the settings.
    public var serverAddress: String

    @ObservationIgnored private let environment: SecureNotesEnvironment
    @ObservationIgnored private let settings: ServerSettings
    @ObservationIgnored private let appKeychain: Keychain
    @ObservationIgnored private let passwordLogin: PasswordLogin
    @ObservationIgnored private let apple: AppleSignIn
    @ObservationIgnored private var tokens: TokenManager
    @ObservationIgnored private var revocations: AppleCredentialRevocationObservation?

    nonisolated static let accountKey = "signed-in-account"

    /// The app over `environment`; the server's address is kept in `defaults`.
    public init(environment: SecureNotesEnvironment, defaults: UserDefaults = .standard) {
        let handle = ModelHandle()
        let keychain = Keychain(service: environment.service, store: environment.store)
            .accessibility(.afterFirstUnlockThisDeviceOnly)
        let language = environment.language
        self.environment = environment
        self.language = language
        settings = ServerSettings(defaults: defaults, fallback: environment.defaultServer)
        serverAddress = settings.url.absoluteString
        appKeychain = keychain
        tokens = Self.tokenManager(keychain: keychain, server: settings.url)
        apple = AppleSignIn(keychain: keychain, stateProvider: environment.appleCredentialStates) { @MainActor in
            await handle.model?.endSession()
        }
        let appLock = AppLock(
            configuration: .init(sessionTimeout: environment.sessionTimeout, lockOnBackground: true,
                                 reason: language.pick(english: "Unlock your notes", korean: "메모 잠금 해제")),
            authenticator: environment.authenticator,
            hasValidTokens: { (try? keychain.contains(Self.accountKey)) ?? false },
            sessions: KeychainAppSessionStore(keychain: keychain))
        let lockScreen = LockScreenModel(appLock: appLock, allowsPasswordLogin: true, language: language)
        self.lockScreen = lockScreen
        let passwordLogin = PasswordLogin(keychain: keychain, hashStrength: environment.passwordHashStrength)
        self.passwordLogin = passwordLogin
        passwordForm = PasswordLoginFormModel(
            login: passwordLogin,
            authenticator: environment.authenticator, language: language) { session in
            handle.model?.didSignIn(SignedInAccount(method: .password, username: session.username, server: nil))
            lockScreen.didLogInWithPassword()
            handle.model?.refresh()
        }
        signIn = SignInScreenModel(
            passkey: { try await handle.require().passkeySession() },
            exchangeApple: { authorization, nonce in try await handle.require().appleSession(authorization, nonce: nonce) },
            language: language) { session, method in
                handle.model?.didSignIn(session, method: method)
            }
        handle.model = self
    }

    // MARK: - Launch and the lock

    /// At launch (`.task`): the signed-in account; a Sign in with Apple user is checked with Apple (revoked: signed
    /// out) and watched while the app runs; then the lock decides the screen.
    public func launch() async {
        account = try? await appKeychain.value(SignedInAccount.self, forKey: Self.accountKey)
        if account?.method == .apple { await apple.checkCredentialState() }
        if revocations == nil { revocations = apple.observeCredentialRevocation() }
        await lockScreen.launch()
        refresh()
        if account == nil { await signInWithExistingAccount() }
    }

    /// Apple's existing-account flow (at launch, signed out): the sheet offers Sign in with Apple, a saved password and
    /// a passkey the device already has, and the server's session starts with the one the user picks. Nothing offered,
    /// or the sheet closed: the sign-in screen stays, without a word.
    public func signInWithExistingAccount() async {
        guard account == nil, let authorizer = environment.existingAccounts else { return }
        let flow = ExistingAccountSignIn(baseURL: settings.url, appleSignIn: apple, authorizer: authorizer)
        do {
            guard let signedIn = try await flow.signIn() else { return }
            let session = try await session(signedIn.tokens)
            let method: SignedInAccount.Method = switch signedIn.method {
            case .apple: .apple
            case .passkey: .passkey
            case .password: .serverPassword
            }
            didSignIn(SignedInAccount(method: method, username: session.username, server: settings.url.host))
            lockScreen.appLock.didAuthenticate()
            refresh()
        } catch let error as ExistingAccountSignInError {
            errorMessage = error.message(in: language)
        } catch {
            errorMessage = SignInScreenError(classifying: error).message(for: .passkey, in: language)
        }
    }

    /// Reads the notes when the app shows its content and forgets them otherwise: call whenever
    /// `lockScreen.presentation` changes.
    public func refresh() {
        guard lockScreen.presentation == .content, let store = notesStore else {
            notes = []
            return
        }
        do { notes = try store.notes() } catch { show(error) }
    }

    /// Locks the app now (the lock button).
    public func lock() {
        lockScreen.appLock.lock()
        refresh()
    }

    // MARK: - Notes

    /// A new note; false (with `errorMessage`) when it was not saved.
    @discardableResult
    public func addNote(title: String, body: String) -> Bool {
        perform { store throws(NotesError) in try store.add(title: title, body: body) }
    }

    /// Saves new words for a note (a locked one asks for Face ID or the passcode).
    @discardableResult
    public func save(_ id: UUID, title: String, body: String) async -> Bool {
        await perform { store async throws(NotesError) in
            try await store.update(id, title: title, body: body, reason: self.lockedNoteReason)
        }
    }

    /// The note with its text (a locked one asks for Face ID or the passcode); nil when it did not open.
    public func open(_ id: UUID) async -> Note? {
        guard let store = notesStore else { return nil }
        lockScreen.appLock.recordActivity()
        do { return try await store.open(id, reason: lockedNoteReason) } catch {
            show(error)
            return nil
        }
    }

    /// Locks or unlocks a note (either asks for Face ID or the passcode).
    @discardableResult
    public func setLocked(_ locked: Bool, _ id: UUID) async -> Bool {
        await perform { store async throws(NotesError) in try await store.setLocked(locked, id, reason: self.lockedNoteReason) }
    }

    /// Deletes a note.
    @discardableResult
    public func delete(_ id: UUID) -> Bool {
        perform { store throws(NotesError) in try store.delete(id) }
    }

    /// Deletes every note of the account.
    @discardableResult
    public func deleteAllNotes() -> Bool {
        perform { store throws(NotesError) in try store.deleteAll() }
    }

    /// Hides the error.
    public func dismissError() { errorMessage = nil }

    // MARK: - Accounts

    /// A new account on the server with a passkey for `username`, signed in at once.
    public func createPasskeyAccount(username: String) async {
        do {
            guard let grant = try await passkeyClient.register(username: username).tokens else { throw SignInScreenError.failed }
            didSignIn(try await session(grant), method: .passkey)
        } catch {
            let failure = SignInScreenError(classifying: error)
            if !failure.isCancellation { errorMessage = failure.message(for: .passkey, in: language) }
        }
    }

    /// Signs out: the server's tokens and the Apple user are forgotten; the notes stay, for the next sign-in.
    public func signOut() async {
        if account?.method == .apple {
            try? await apple.signOut()   // calls endSession()
        } else {
            await endSession()
        }
    }

    /// The server's address from `serverAddress`; a server account is signed out first (its tokens are another
    /// server's). False, with `errorMessage`, when the address is refused.
    @discardableResult
    public func saveServerAddress() async -> Bool {
        let url: URL
        do { url = try ServerSettings.validated(serverAddress) } catch {
            errorMessage = error.message(in: language)
            return false
        }
        if let account, account.method != .password { await signOut() }
        do { try settings.save(url.absoluteString) } catch { errorMessage = error.message(in: language) }
        serverAddress = settings.url.absoluteString
        tokens = Self.tokenManager(keychain: appKeychain, server: settings.url)
        return true
    }

    /// The server the app uses.
    public var server: URL { settings.url }

    /// A valid access token of the server account (refreshed when near expiry), for the app's own requests.
    public func accessToken() async throws(TokenManagerError) -> String {
        try await tokens.validTokens().accessToken
    }

    // MARK: - The account's life

    /// The "Delete Account" screen of who is signed in (`nil` when nobody is). A server account is deleted on the server
    /// (`AccountManager`: the passkey or Sign in with Apple again when the server asks for a recent sign-in), the
    /// password account on this device; either way its notes, its sign-in and the lock's session leave the device, and
    /// the app is back at sign-in.
    public func deleteAccountScreen() -> DeleteAccountScreenModel? {
        guard let account, let notes = notesStore else { return nil }
        let consequences = [language.pick(english: "Your notes on this device are deleted.",
                                          korean: "이 기기의 메모가 삭제됩니다.")]
        let deviceData = AccountDeviceData(
            keychains: notes.keychains, appleSignIn: account.method == .apple ? apple : nil,
            appSessions: KeychainAppSessionStore(keychain: appKeychain),
            passwordLogin: account.method == .password ? passwordLogin : nil, appLock: lockScreen.appLock,
            additional: [{ [appKeychain] in try await appKeychain.remove(Self.accountKey) }])
        let onDeleted: @MainActor () -> Void = { [weak self] in self?.didDeleteAccount() }
        guard account.method != .password else {
            return DeleteAccountScreenModel(appConsequences: consequences, language: language,
                                            delete: { () throws(AccountManagerError) in try await deviceData.clear() },
                                            onDeleted: onDeleted)
        }
        return DeleteAccountScreenModel(account: accountManager(for: account, deviceData: deviceData),
                                        appConsequences: consequences, language: language, onDeleted: onDeleted)
    }

    /// The "Devices" screen of a server account (`nil` for the password account, which has no server): its sessions,
    /// this device's marked; signing this device's out signs the app out.
    public func devicesScreen() -> DevicesScreenModel? {
        guard let account, account.method != .password else { return nil }
        return DevicesScreenModel(account: accountManager(for: account, deviceData: AccountDeviceData()),
                                  language: language) { [weak self] in await self?.endSession() }
    }

    /// The server account's manager: this app's tokens, re-authenticating as the account signs in.
    private func accountManager(for account: SignedInAccount, deviceData: AccountDeviceData) -> AccountManager {
        let reauthentication: AccountReauthentication = account.method == .apple
            ? .signInWithApple(apple, authorizer: SystemAppleIDAuthorizer(),
                               server: AppleSessionClient(baseURL: settings.url, deviceName: environment.deviceName))
            : .passkey(passkeyClient)
        return AccountManager(baseURL: settings.url, tokens: tokens, reauthentication: reauthentication,
                              deviceData: deviceData)
    }

    /// The account is gone: nobody signed in, the sign-in screen and the password form as on a new install.
    private func didDeleteAccount() {
        account = nil
        errorMessage = nil
        signIn.reset()
        passwordForm.reset()
        refresh()
    }

    // MARK: - Internals

    var notesStore: NotesStore? {
        account.map { NotesStore(service: environment.service, owner: $0.notesOwner, store: environment.store,
                                 authenticator: environment.authenticator) }
    }

    private var accounts: ServerAccounts { ServerAccounts(baseURL: settings.url) }

    private var lockedNoteReason: String {
        language.pick(english: "Open the locked note", korean: "잠긴 메모 열기")
    }

    private var passkeyClient: PasskeyClient {
        PasskeyClient(baseURL: settings.url, ceremony: environment.passkeyCeremony, deviceName: environment.deviceName)
    }

    func passkeySession() async throws -> ServerSession {
        try await session(passkeyClient.signIn())
    }

    func appleSession(_ authorization: ASAuthorization, nonce: AppleSignInNonce) async throws -> ServerSession {
        try await session(apple.finishSignIn(AppleIDAuthorization(authorization), nonce: nonce,
                                             server: AppleSessionClient(baseURL: settings.url,
                                                                        deviceName: environment.deviceName)).tokens)
    }

    /// The session `grant` starts: whose it is (`GET /v1/me`), its tokens kept in the keychain.
    private func session(_ grant: TokenGrant) async throws -> ServerSession {
        let username = try await accounts.username(accessToken: grant.accessToken)
        try await tokens.store(grant)
        return ServerSession(tokens: grant, username: username)
    }

    func didSignIn(_ session: ServerSession, method: SignInMethod) {
        didSignIn(SignedInAccount(method: method == .apple ? .apple : .passkey, username: session.username,
                                  server: settings.url.host))
        lockScreen.appLock.didAuthenticate()
        refresh()
    }

    func didSignIn(_ signedIn: SignedInAccount) {
        do { try appKeychain.set(signedIn, forKey: Self.accountKey) } catch { show(error) }
        account = signedIn
        errorMessage = nil
    }

    /// The session ends (sign-out, or Apple revoked the user): tokens and account forgotten, the login screen.
    func endSession() async {
        try? await tokens.logout()
        try? await appKeychain.remove(Self.accountKey)
        account = nil
        lockScreen.appLock.didLogOut()
        signIn.reset()
        refresh()
    }

    private func perform(_ work: (NotesStore) throws(NotesError) -> Void) -> Bool {
        guard let store = notesStore else { return false }
        lockScreen.appLock.recordActivity()
        do { try work(store) } catch {
            show(error)
            return false
        }
        refresh()
        return true
    }

    private func perform(_ work: (NotesStore) async throws(NotesError) -> Void) async -> Bool {
        guard let store = notesStore else { return false }
        lockScreen.appLock.recordActivity()
        do { try await work(store) } catch {
            show(error)
            return false
        }
        refresh()
        return true
    }

    private func show(_ error: NotesError) {
        if error.shouldShowToUser { errorMessage = error.message(in: language) }
    }

    private func show(_ error: KeychainError) {
        errorMessage = NotesError.keychain(error).message(in: language)
    }

    private static func tokenManager(keychain: Keychain, server: URL) -> TokenManager {
        TokenManager(storage: KeychainTokenStorage(keychain: keychain),
                     refresher: OAuthTokenRefresher(tokenEndpoint: server.appendingPathComponent("v1/token")))
    }
}

/// The model, for the closures its parts are made with before it exists.
@MainActor
final class ModelHandle {
    weak var model: SecureNotesModel?

    func require() throws -> SecureNotesModel {
        guard let model else { throw CancellationError() }
        return model
    }
}
