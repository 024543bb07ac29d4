import Foundation
import LatchkeyTestSupport
import Testing
@testable import Latchkey
import LatchkeyCrypto
import LatchkeyKeychain

@Suite(.offCooperativePool) struct PasswordLoginTests {
    let clock = TestClock()

    private func login(_ store: any ItemStore) -> PasswordLogin {
        PasswordLogin(keychain: Keychain(service: "org.latchkey.test.login", store: store),
                      hashStrength: .testing, now: clock.closure)
    }

    #if LATCHKEY_APPLE_FRAMEWORKS
    /// The system keychain (the facade's process-wide store outlives each `AppleKeychainStore`, as a restart would).
    private struct RestartableStore {
        init() { AppleFrameworksFixture.useTestKeychain() }
        func open(_ directory: URL) throws -> any ItemStore { AppleKeychainStore() }
    }
    private static let verifierPrefix = "$pbkdf2-sha256$i=1$"
    #else
    /// A FileVault in a temporary directory, unlocked by an in-memory key provider (shared by "restarts").
    private struct RestartableStore {
        let provider = InMemoryVaultKeyProvider()
        func open(_ directory: URL) throws -> any ItemStore {
            let vault = try FileVault(url: directory.appendingPathComponent("vault.sqlite"), keyProvider: provider,
                                      kdf: .testing)
            try vault.unlock()
            return vault
        }
    }
    private static let verifierPrefix = "$argon2id$v=19$m=8,t=1,p=1$"
    #endif

    @Test func createAndLogIn() throws {
        let flow = login(MemoryStore())
        #expect(!flow.hasAccount)
        let created = try flow.createAccount(username: "  mina ", password: "correct horse")
        #expect(created.username == "mina" && created.method == .password && created.date == clock.now)
        #expect(flow.hasAccount)
        #expect(flow.username == "mina")
        let session = try flow.logIn(username: "mina", password: "correct horse")
        #expect(session.username == "mina")
        #expect(session.method == .password)
        #expect(throws: PasswordLoginError.invalidCredentials) { try flow.logIn(username: "mina", password: "wrong one") }
        #expect(throws: PasswordLoginError.invalidCredentials) { try flow.logIn(username: "mona", password: "correct horse") }
        #expect(throws: PasswordLoginError.accountExists) { try flow.createAccount(username: "x", password: "12345678") }
    }

    @Test func validation() throws {
        let flow = login(MemoryStore())
        #expect(throws: PasswordLoginError.noAccount) { try flow.logIn(username: "a", password: "b") }
        #expect(throws: PasswordLoginError.invalidUsername) { try flow.createAccount(username: "  ", password: "12345678") }
        #expect(throws: PasswordLoginError.weakPassword(minimumLength: 8)) {
            try flow.createAccount(username: "mina", password: "short")
        }
    }

    @Test func onlyTheVerifierIsStoredNeverThePassword() throws {
        let store = MemoryStore()
        let flow = login(store)
        let password = "s3cret-Pa55word"
        try flow.createAccount(username: "mina", password: password)
        let keychain = Keychain(service: "org.latchkey.test.login", store: store)
        #expect(try keychain.allKeys() == ["login.account"])
        let stored = try #require(try keychain.data(forKey: "login.account"))
        let text = String(decoding: stored, as: UTF8.self)
        #expect(!text.contains(password))
        #expect(stored.range(of: Data(password.utf8)) == nil)
        let record = try JSONDecoder().decode(PasswordLogin.AccountRecord.self, from: stored)
        #expect(record.verifier.hasPrefix(Self.verifierPrefix))
        #expect(try PasswordHash.verify(password: password, against: record.verifier))
        #expect(record.username == "mina")
    }

    @Test func fiveFailuresThrottleWithGrowingDelay() throws {
        let flow = login(MemoryStore())
        try flow.createAccount(username: "mina", password: "correct horse")
        for attempt in 1...4 {
            #expect(throws: PasswordLoginError.invalidCredentials) { try flow.logIn(username: "mina", password: "nope\(attempt)") }
            #expect(flow.throttleState.lockedUntil == nil)
        }
        #expect(throws: PasswordLoginError.invalidCredentials) { try flow.logIn(username: "mina", password: "nope5") }
        #expect(flow.throttleState.failures == 5)
        // Locked for 30 s: even the right password is refused without being checked.
        #expect(throws: PasswordLoginError.throttled(retryAfter: 30)) {
            try flow.logIn(username: "mina", password: "correct horse")
        }
        clock.advance(30)
        #expect(throws: PasswordLoginError.invalidCredentials) { try flow.logIn(username: "mina", password: "nope6") }
        #expect(throws: PasswordLoginError.throttled(retryAfter: 60)) { try flow.logIn(username: "mina", password: "x") }
        clock.advance(60)
        #expect(throws: PasswordLoginError.invalidCredentials) { try flow.logIn(username: "mina", password: "nope7") }
        #expect(throws: PasswordLoginError.throttled(retryAfter: 120)) { try flow.logIn(username: "mina", password: "x") }
        clock.advance(120)
        try flow.logIn(username: "mina", password: "correct horse")
        #expect(flow.throttleState == LoginThrottleState())
    }

    @Test func throttleSurvivesARestart() throws {
        let directory = try ChildProcess.temporaryDirectory("login-restart")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stores = RestartableStore()
        do {
            let flow = login(try stores.open(directory))
            try flow.createAccount(username: "mina", password: "correct horse")
            for attempt in 1...5 {
                #expect(throws: PasswordLoginError.invalidCredentials) {
                    try flow.logIn(username: "mina", password: "wrong\(attempt)")
                }
            }
        }
        // A new process: a new FileVault instance on the same file, a new PasswordLogin.
        let restarted = login(try stores.open(directory))
        #expect(restarted.throttleState.failures == 5)
        #expect(throws: PasswordLoginError.throttled(retryAfter: 30)) {
            try restarted.logIn(username: "mina", password: "correct horse")
        }
    }

    @Test func changePassword() throws {
        let flow = login(MemoryStore())
        try flow.createAccount(username: "mina", password: "correct horse")
        #expect(throws: PasswordLoginError.invalidCredentials) { try flow.changePassword(old: "wrong", new: "battery staple") }
        #expect(throws: PasswordLoginError.weakPassword(minimumLength: 8)) { try flow.changePassword(old: "correct horse", new: "short") }
        try flow.changePassword(old: "correct horse", new: "battery staple")
        #expect(throws: PasswordLoginError.invalidCredentials) { try flow.logIn(username: "mina", password: "correct horse") }
        try flow.logIn(username: "mina", password: "battery staple")
        try flow.deleteAccount()
        #expect(!flow.hasAccount)
    }

    @Test func upgradesAWeakVerifierAfterLogin() throws {
        let store = MemoryStore()
        let weak = login(store)
        try weak.createAccount(username: "mina", password: "correct horse")
        let weakVerifier = try #require(try weak.loadAccount()).verifier
        #expect(PasswordHash.needsRehash(weakVerifier))
        let stronger = PasswordLogin(keychain: Keychain(service: "org.latchkey.test.login", store: store),
                                     hashStrength: .standard, now: clock.closure)
        try stronger.logIn(username: "mina", password: "correct horse")
        let record = try #require(try stronger.loadAccount())
        #expect(record.verifier != weakVerifier)
        #expect(!PasswordHash.needsRehash(record.verifier))
        #expect(try PasswordHash.verify(password: "correct horse", against: record.verifier))
    }

    @Test func biometricShortcut() async throws {
        let phone = try SimulatedPhone()
        defer { phone.cleanUp() }
        let flow = login(MemoryStore())
        try flow.createAccount(username: "mina", password: "correct horse")
        let authenticator = phone.authenticator()
        await #expect(throws: PasswordLoginError.biometricShortcutUnavailable) {
            try await flow.logInWithBiometrics(authenticator: authenticator, reason: "Log in")
        }
        let session = try flow.logIn(username: "mina", password: "correct horse")
        try phone.next(.match)
        try await flow.enableBiometricShortcut(after: session, authenticator: authenticator, reason: "Enable Touch ID")
        #expect(flow.isBiometricShortcutEnabled)

        try phone.next(.match)
        let bio = try await flow.logInWithBiometrics(authenticator: authenticator, reason: "Log in")
        #expect(bio.method == .biometrics)
        #expect(bio.username == "mina")

        try phone.next(.noMatch)
        await #expect(throws: PasswordLoginError.biometric(.failed)) {
            try await flow.logInWithBiometrics(authenticator: authenticator, reason: "Log in")
        }
        try phone.next(.cancel)
        await #expect(throws: PasswordLoginError.biometric(.userCancel)) {
            try await flow.logInWithBiometrics(authenticator: authenticator, reason: "Log in")
        }

        // A new finger is enrolled: the biometryCurrentSet item no longer opens, the shortcut turns itself off.
        try phone.simulator.enroll()
        try phone.next(.match)
        await #expect(throws: PasswordLoginError.biometricShortcutUnavailable) {
            try await flow.logInWithBiometrics(authenticator: authenticator, reason: "Log in")
        }
        #expect(!flow.isBiometricShortcutEnabled)
        try flow.logIn(username: "mina", password: "correct horse")
    }

    @Test func errorsHaveEnglishAndKoreanText() {
        let errors: [PasswordLoginError] = [.noAccount, .accountExists, .invalidUsername, .weakPassword(minimumLength: 8),
                                            .invalidCredentials, .throttled(retryAfter: 30), .biometricShortcutUnavailable,
                                            .biometric(.lockout), .keychain(-25300), .hashing]
        for error in errors {
            #expect(!(error.errorDescription ?? "").isEmpty)
        }
        #expect(PasswordLoginError.throttled(retryAfter: 30).errorDescription?.contains("30") == true)
    }
}
