import Foundation
import LatchkeyCrypto
import LatchkeyKeychain

/// The create-account / log-in flow of an app's login screen, kept in the keychain.
///
/// - Only a password verifier (`PasswordHash`: an Argon2id PHC string on Linux, PBKDF2-HMAC-SHA256 on Apple platforms)
///   and the user name are stored; the password never is.
/// - `logIn` checks the user name with a constant-time compare and always runs the password verification
///   (libsodium's constant-time `crypto_pwhash_str_verify`), so a wrong name costs as much as a wrong password.
/// - Failed attempts are throttled (`LoginThrottlePolicy`: 5 free, then a doubling delay) and the counter is a
///   keychain item, so restarting the app does not reset it.
/// - Optional biometric shortcut: `enableBiometricShortcut` stores a random secret in an item protected by
///   `.biometryCurrentSet`; `logInWithBiometrics` opens it with `BiometricAuthenticator` (see PasswordLogin+Biometrics).
///
/// Items (generic passwords of the keychain's service): `login.account`, `login.throttle`, `login.biometric`.
public struct PasswordLogin: Sendable {
    /// A successful login.
    public struct Session: Sendable, Hashable {
        /// How the user proved themselves.
        public enum Method: Sendable, Hashable { case password, biometrics }
        /// The account's user name.
        public let username: String
        /// How the login happened.
        public let method: Method
        /// When.
        public let date: Date
    }

    struct AccountRecord: Codable {
        var username: String
        var verifier: String
        var createdAt: Date
        /// SHA-256 of the biometric shortcut secret, when the shortcut is enabled.
        var shortcutDigest: Data?
    }

    static let accountKey = "login.account"
    static let throttleKey = "login.throttle"
    static let shortcutKey = "login.biometric"

    /// The keychain holding the login items.
    public let keychain: Keychain
    /// The throttle policy.
    public let throttlePolicy: LoginThrottlePolicy
    /// The cost of new verifiers (`PasswordHash`: Argon2id on Linux, PBKDF2-HMAC-SHA256 on Apple platforms).
    public let hashStrength: PasswordHash.Strength
    /// Minimum password length for `createAccount` and `changePassword`.
    public let minimumPasswordLength: Int
    let now: @Sendable () -> Date

    /// Creates the flow over `keychain`.
    public init(keychain: Keychain, throttlePolicy: LoginThrottlePolicy = LoginThrottlePolicy(),
                hashStrength: PasswordHash.Strength = .standard, minimumPasswordLength: Int = 8,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.keychain = keychain.accessibility(.whenUnlockedThisDeviceOnly)
        self.throttlePolicy = throttlePolicy
        self.hashStrength = hashStrength
        self.minimumPasswordLength = minimumPasswordLength
        self.now = now
    }

    /// True once an account was created.
    public var hasAccount: Bool { (try? keychain.contains(Self.accountKey)) ?? false }

    /// The account's user name, if there is an account.
    public var username: String? { try? loadAccount()?.username }

    /// The throttle as persisted.
    public var throttleState: LoginThrottleState { (try? loadThrottle()) ?? LoginThrottleState() }

    /// Creates the account: stores the user name and a verifier of `password`. Returns the new user's session
    /// (they just chose the password, so it is not checked again).
    @discardableResult
    public func createAccount(username: String, password: String) throws(PasswordLoginError) -> Session {
        let name = Self.normalize(username)
        guard !name.isEmpty else { throw .invalidUsername }
        try checkStrength(password)
        guard try loadAccount() == nil else { throw .accountExists }
        let record = AccountRecord(username: name, verifier: try hash(password), createdAt: now(), shortcutDigest: nil)
        try save(record)
        try? keychain.remove(Self.throttleKey)
        return Session(username: name, method: .password, date: now())
    }

    /// Checks the credentials. Throws `.throttled` while locked (without checking), `.invalidCredentials`
    /// on a mismatch (counting it), `.noAccount` without an account.
    @discardableResult
    public func logIn(username: String, password: String) throws(PasswordLoginError) -> Session {
        var throttle = try loadThrottle()
        let wait = throttle.secondsRemaining(at: now())
        guard wait == 0 else { throw .throttled(retryAfter: wait) }
        guard var record = try loadAccount() else { throw .noAccount }

        let nameMatches = ConstantTime.equals(Data(Self.normalize(username).utf8), Data(record.username.utf8))
        let passwordMatches: Bool
        do { passwordMatches = try PasswordHash.verify(password: password, against: record.verifier) } catch {
            throw .hashing
        }
        guard nameMatches && passwordMatches else {
            throttle.failures += 1
            let delay = throttlePolicy.delay(afterFailures: throttle.failures)
            throttle.lockedUntil = delay > 0 ? now().addingTimeInterval(delay) : nil
            try saveThrottle(throttle)
            throw .invalidCredentials
        }
        if throttle.failures > 0 || throttle.lockedUntil != nil { try keychainCall { () throws(KeychainError) in try keychain.remove(Self.throttleKey) } }
        if PasswordHash.needsRehash(record.verifier, strength: hashStrength) {
            record.verifier = try hash(password)
            try save(record)
        }
        return Session(username: record.username, method: .password, date: now())
    }

    /// Replaces the password after checking the old one (throttled like `logIn`).
    public func changePassword(old: String, new: String) throws(PasswordLoginError) {
        guard let name = try loadAccount()?.username else { throw .noAccount }
        try checkStrength(new)
        try logIn(username: name, password: old)
        guard var record = try loadAccount() else { throw .noAccount }
        record.verifier = try hash(new)
        try save(record)
    }

    /// Deletes the account, the throttle and the biometric shortcut.
    public func deleteAccount() throws(PasswordLoginError) {
        for key in [Self.accountKey, Self.throttleKey, Self.shortcutKey] {
            try keychainCall { () throws(KeychainError) in try keychain.remove(key) }
        }
    }

    // MARK: - Storage

    func loadAccount() throws(PasswordLoginError) -> AccountRecord? {
        try keychainCall { () throws(KeychainError) in try keychain.value(AccountRecord.self, forKey: Self.accountKey) }
    }

    func save(_ record: AccountRecord) throws(PasswordLoginError) {
        try keychainCall { () throws(KeychainError) in try keychain.label("Login verifier").set(record, forKey: Self.accountKey) }
    }

    private func loadThrottle() throws(PasswordLoginError) -> LoginThrottleState {
        do {
            return try keychain.value(LoginThrottleState.self, forKey: Self.throttleKey) ?? LoginThrottleState()
        } catch .invalidData {
            // A damaged counter must not unlock anything: treat it as a lock of the longest delay.
            return LoginThrottleState(failures: throttlePolicy.freeAttempts,
                                      lockedUntil: now().addingTimeInterval(throttlePolicy.maximumDelay))
        } catch {
            throw .keychain(error.status)
        }
    }

    private func saveThrottle(_ state: LoginThrottleState) throws(PasswordLoginError) {
        try keychainCall { () throws(KeychainError) in try keychain.label("Login throttle").set(state, forKey: Self.throttleKey) }
    }

    func keychainCall<T>(_ body: () throws(KeychainError) -> T) throws(PasswordLoginError) -> T {
        do { return try body() } catch { throw .keychain(error.status) }
    }

    private func hash(_ password: String) throws(PasswordLoginError) -> String {
        do { return try PasswordHash.make(password: password, strength: hashStrength) } catch {
            throw .hashing
        }
    }

    private func checkStrength(_ password: String) throws(PasswordLoginError) {
        guard password.count >= minimumPasswordLength else { throw .weakPassword(minimumLength: minimumPasswordLength) }
    }

    static func normalize(_ username: String) -> String {
        username.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
    }
}
