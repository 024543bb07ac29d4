import AuthenticationServices
import Foundation
import LatchkeyTestSupport
import LatchkeyAuth
import LatchkeyKeychain
import LatchkeySupport
import Testing
@testable import Latchkey

/// After `deleteAccount()`, nothing the account left on the device is there: its tokens, the keychain items the kit
/// wrote for it (the Apple user and pending name, the app lock's session, the on-device login), the Apple
/// credential-state observation, the trusted biometric state, the app lock's session and the app's own data. The
/// keychain is the platform's: a vault file here, the system keychain (`AppleKeychainStore` over `Security`) in the
/// apple-frameworks mode.
@Suite("AccountManager clears the device", .enabled(if: LatchkeyBinary.testsRun, LatchkeyBinary.skipReason), .offCooperativePool)
struct AccountDeviceDataTests {
    /// Sign-outs the Apple observation would cause.
    final class SignOuts: Sendable {
        private let count = Locked(0)
        func record() { count.withLock { $0 += 1 } }
        var total: Int { count.withLock { $0 } }
    }

    static func keychainStore(in phone: SimulatedPhone) throws -> any ItemStore {
        #if LATCHKEY_APPLE_FRAMEWORKS
        AppleFrameworksFixture.useTestKeychain()
        return AppleKeychainStore()
        #else
        let vault = try FileVault(url: phone.directory.appendingPathComponent("keychain.vault"), kdf: .testing)
        try vault.unlock(passphrase: "device passphrase")
        return vault
        #endif
    }

    @MainActor @Test func deletingTheAccountLeavesNothingOfItOnTheDevice() async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let phone = try SimulatedPhone(biometry: .faceID)
        defer { phone.cleanUp() }
        let store = try Self.keychainStore(in: phone)
        let service = "com.example.app.\(UUID().uuidString)"
        let keychain = Keychain(service: service, store: store)
        let notes = Keychain(service: service + ".notes", store: store)
        let otherApp = Keychain(service: "com.example.other.\(UUID().uuidString)", store: store)

        // The account, signed in on this device; its tokens in the keychain.
        let name = AccountServer.username("mina")
        try await server.createAccount(name, password: AccountManagerTests.password)
        let grant = try await server.signIn(name, password: AccountManagerTests.password, deviceName: "Phone")
        let tokens = TokenManager(storage: KeychainTokenStorage(keychain: keychain),
                                  refresher: OAuthTokenRefresher(tokenEndpoint: server.baseURL.appendingPathComponent("v1/token")))
        try await tokens.store(grant)
        // Sign in with Apple's user, a name not yet sent, and the revocation observation.
        let signOuts = SignOuts()
        let apple = AppleSignIn(keychain: keychain, stateProvider: SystemAppleCredentialStateProvider()) { signOuts.record() }
        try apple.didSignIn(userID: "001234.abcdef.0987")
        try await apple.keychain.set(AppleProfile(userID: "001234.abcdef.0987", email: "mina@privaterelay.appleid.com",
                                            givenName: "Mina", familyName: nil), forKey: AppleSignIn.profileKey)
        let center = NotificationCenter()
        let observation = apple.observeCredentialRevocation(center: center)
        #expect(apple.activeRevocationObservations == 1)
        // The trusted biometric enrolment (BiometricChangeDetector's first check writes it).
        let domainState = FileDomainStateStore(url: phone.directory.appendingPathComponent("trusted-domain-state.json"))
        let simulator = phone.simulator
        // Face ID as the platform presents it (an `LAContext` in the apple-frameworks mode).
        let authenticator = BiometricAuthenticator(fallbackTitle: "Enter Password") {
            AppleFrameworksFixture.platformContext(
                simulator.makeContext(passcodeProvider: ClosurePasscodeProvider { _ in Passcode("2468") }))
        }
        #expect(try await BiometricChangeDetector(store: domainState, makeContext: { simulator.makeContext() }).check()
                == .firstCheck)
        #expect(try domainState.loadTrustedState() != nil)
        // The app lock, unlocked, its session in the keychain.
        let sessions = KeychainAppSessionStore(keychain: keychain)
        let lock = AppLock(authenticator: authenticator, hasValidTokens: { await tokens.hasTokens },
                           sessions: sessions)
        lock.didAuthenticate()
        #expect(lock.state == .unlocked && sessions.lastActive() != nil)
        // The on-device login with its biometric shortcut.
        let login = PasswordLogin(keychain: keychain, hashStrength: .testing)
        let local = try login.createAccount(username: name, password: "a local password")
        try phone.next(.match)
        try await login.enableBiometricShortcut(after: local, authenticator: authenticator, reason: "Enable")
        #expect(login.hasAccount && login.isBiometricShortcutEnabled)
        // The app's notes, and a file of the account's.
        try await notes.set("4711", forKey: "door code")
        let cache = phone.directory.appendingPathComponent("account-cache.json")
        try Data("{}".utf8).write(to: cache)
        // Another app's item in the same store: not the account's.
        try await otherApp.set("keep me", forKey: "unrelated")
        #expect(try await keychain.allKeys().count >= 5)

        let account = KitAccountManager(
            baseURL: server.baseURL, tokens: tokens,
            reauthentication: AccountReauthentication { _ in throw CancellationError() },
            deviceData: AccountDeviceData(keychains: [notes], appleSignIn: apple, domainState: domainState,
                                          appSessions: sessions, passwordLogin: login, appLock: lock,
                                          additional: [{ try FileManager.default.removeItem(at: cache) }]))
        try await account.deleteAccount()

        #expect(try await tokens.storedTokens() == nil)
        #expect(try apple.userID() == nil && apple.pendingProfile() == nil)
        #expect(apple.activeRevocationObservations == 0)
        center.post(name: ASAuthorizationAppleIDProvider.credentialRevokedNotification, object: nil)
        await Task.yield()
        #expect(signOuts.total == 0, "the observation no longer signs anyone out")
        observation.cancel()   // harmless after forgetUser()
        #expect(try domainState.loadTrustedState() == nil)
        #expect(!FileManager.default.fileExists(atPath: domainState.url.path))
        #expect(sessions.lastActive() == nil && lock.state == .needsLogin)
        #expect(!login.hasAccount && !login.isBiometricShortcutEnabled)
        #expect(try await notes.allKeys().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cache.path))
        let left = try await keychain.allKeys()
        #expect(left.isEmpty, "no item of the kit's service is left: \(left)")
        #expect(try await otherApp.string(forKey: "unrelated") == "keep me")
        #expect(try await server.server.request("GET", "v1/me", bearer: grant.accessToken).status == 401)
        try await otherApp.removeAll()
    }

    @MainActor @Test func whatCouldNotBeClearedIsSaidAndClearingAgainFinishes() async throws {
        let server = try await AccountServer()
        defer { server.stop() }
        let (_, _, tokens) = try await server.signedInAccount("ren")
        let failing = Locked(true)
        let cleared = Locked(false)
        let account = KitAccountManager(
            baseURL: server.baseURL, tokens: tokens,
            reauthentication: AccountReauthentication { _ in throw CancellationError() },
            deviceData: AccountDeviceData(additional: [{
                if failing.withLock({ $0 }) { throw CocoaError(.fileWriteNoPermission) }
                cleared.withLock { $0 = true }
            }]))
        do {
            try await account.deleteAccount()
            Issue.record("a failed clearing was not reported")
        } catch {
            guard case .deviceDataNotCleared(let items) = error else { throw error }
            #expect(items.count == 1 && items[0].hasPrefix("app data 1: "))
            #expect(error.message(in: .korean).hasPrefix("계정은 삭제되었지만"))
        }
        #expect(try await tokens.storedTokens() == nil, "the rest was cleared")
        failing.withLock { $0 = false }
        try await account.clearDeviceData()
        #expect(cleared.withLock { $0 })
    }
}
