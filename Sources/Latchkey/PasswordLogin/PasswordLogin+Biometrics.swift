import Foundation
import LatchkeyAuth
import LatchkeyCrypto
import LatchkeyKeychain

extension PasswordLogin {
    /// True when the biometric shortcut has been enabled (it may still be unusable after an enrolment change).
    public var isBiometricShortcutEnabled: Bool {
        ((try? loadAccount())?.shortcutDigest) != nil
    }

    /// After a password login, lets later logins use biometrics: asks for a biometric match once, then stores
    /// a random secret in a keychain item protected by `.biometryCurrentSet` (opening it needs a new match, and
    /// an enrolment change makes it unreadable). Only its SHA-256 digest goes into the account record.
    public func enableBiometricShortcut(after session: Session, authenticator: BiometricAuthenticator,
                                        reason: String) async throws(PasswordLoginError) {
        guard session.method == .password, var record = try loadAccount(), record.username == session.username else {
            throw .noAccount
        }
        let context: any AuthenticationContext
        switch await authenticator.authenticatedContext(policy: .deviceOwnerAuthenticationWithBiometrics, reason: reason) {
        case .success(let evaluated): context = evaluated
        case .failure(let error): throw .biometric(error)
        }
        defer { context.invalidate() }
        let secret = SecureRandom.bytes(count: 32)
        let protected = keychain.authenticationContext(context)
            .accessibility(.whenUnlockedThisDeviceOnly, accessControl: .biometryCurrentSet)
            .label("Biometric login")
        try keychainCall { () throws(KeychainError) in try keychain.remove(Self.shortcutKey) }
        try keychainCall { () throws(KeychainError) in try protected.set(secret, forKey: Self.shortcutKey) }
        record.shortcutDigest = Data(SHA256.hash(data: secret))
        try save(record)
    }

    /// Turns the shortcut off (e.g. from settings, or after a biometric change).
    public func disableBiometricShortcut() throws(PasswordLoginError) {
        try keychainCall { () throws(KeychainError) in try keychain.remove(Self.shortcutKey) }
        guard var record = try loadAccount(), record.shortcutDigest != nil else { return }
        record.shortcutDigest = nil
        try save(record)
    }

    /// Logs in with a biometric match instead of the password. Throws `.biometricShortcutUnavailable` when the
    /// shortcut is off or its item no longer opens (enrolment changed: it is then disabled), `.biometric(...)`
    /// when the prompt fails (`.userFallback`: show the password field).
    public func logInWithBiometrics(authenticator: BiometricAuthenticator, reason: String)
        async throws(PasswordLoginError) -> Session {
        guard let record = try loadAccount() else { throw .noAccount }
        guard let digest = record.shortcutDigest else { throw .biometricShortcutUnavailable }
        let context: any AuthenticationContext
        switch await authenticator.authenticatedContext(policy: .deviceOwnerAuthenticationWithBiometrics, reason: reason) {
        case .success(let evaluated): context = evaluated
        case .failure(let error): throw .biometric(error)
        }
        defer { context.invalidate() }
        let secret: Data?
        do {
            secret = try await keychain.authenticationContext(context).authenticationUI(.fail).data(forKey: Self.shortcutKey)
        } catch .authenticationFailed, .itemNotFound, .invalidData {
            try? disableBiometricShortcut()
            throw .biometricShortcutUnavailable
        } catch {
            throw .keychain(error.status)
        }
        guard let secret, ConstantTime.equals(SHA256.hash(data: secret), digest) else {
            try? disableBiometricShortcut()
            throw .biometricShortcutUnavailable
        }
        return Session(username: record.username, method: .biometrics, date: now())
    }
}
