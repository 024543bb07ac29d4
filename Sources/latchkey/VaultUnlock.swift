import Foundation
import Latchkey

extension VaultApp {
    /// First run: choose a user name and a password.
    func setup() async -> Int32 {
        guard !login.hasAccount else {
            console.note("an account already exists (\(login.username ?? "?")); use `latchkey vault unlock`")
            return 1
        }
        console.note("Welcome to Latchkey Vault. Create your account.")
        guard let username = console.readLine(prompt: "User name: "),
              let password = console.readSecret(prompt: "Password (at least \(login.minimumPasswordLength) characters): "),
              let repeated = console.readSecret(prompt: "Repeat the password: ") else {
            console.note("setup canceled")
            return 77
        }
        guard password == repeated else {
            console.note("the passwords do not match")
            return 65
        }
        do {
            try login.createAccount(username: username, password: password)
        } catch {
            console.note("error: \(error.localizedDescription)")
            return 65
        }
        appLock.didAuthenticateWithPassword()
        console.note("Account “\(login.username ?? username)” created; the vault is unlocked.")
        if console.isInteractive { await offerBiometrics(password: password) }
        return 0
    }

    /// Makes sure the vault is unlocked: the session (within the timeout), else Touch ID, else the password.
    func ensureUnlocked(preferTerminalForPassword: Bool = false) async -> Bool {
        guard login.hasAccount else {
            console.note("no account yet: run `latchkey vault setup` first")
            return false
        }
        await launchIfNeeded()
        if appLock.state == .unlocked {
            appLock.recordActivity()
            return true
        }
        if appLock.state == .needsLogin {
            console.note("\(biometryName) enrolment changed since the last unlock: \(biometryName) login was turned off. Enter your password.")
        } else if await unlockWithBiometrics() {
            return true
        }
        return await unlockWithPassword(preferTerminal: preferTerminalForPassword)
    }

    private func unlockWithBiometrics() async -> Bool {
        guard login.isBiometricShortcutEnabled, !biometricsRestricted else { return false }
        switch authenticator.availability {
        case .failure(.lockout):
            console.note("\(biometryName) is locked out after too many failed attempts. Enter your password.")
            return false
        case .failure(let error):
            console.note("\(biometryName) unavailable: \(error.localizedDescription)")
            return false
        case .success:
            break
        }
        console.note("\(biometryName): touch the sensor to unlock Latchkey Vault…")
        do {
            _ = try await login.logInWithBiometrics(authenticator: authenticator, reason: "Unlock Latchkey Vault")
            appLock.didAuthenticate()
            console.note("Unlocked with \(biometryName).")
            return true
        } catch .biometric(.failed) {
            console.note("\(biometryName) did not recognise you. Enter your password.")
        } catch .biometric(.lockout) {
            console.note("\(biometryName) is now locked out. Enter your password.")
        } catch .biometric(let error) where error == .userFallback || error.isCancellation {
            console.note("\(biometryName) canceled. Enter your password.")
        } catch {
            console.note("\(error.localizedDescription)")
        }
        return false
    }

    private func unlockWithPassword(preferTerminal: Bool) async -> Bool {
        guard let username = login.username else { return false }
        for _ in 0..<3 {
            guard let password = console.readSecret(prompt: "Password for \(username): ", preferTerminal: preferTerminal)
            else {
                console.note("canceled; the vault stays locked")
                return false
            }
            do {
                try login.logIn(username: username, password: password)
                appLock.didAuthenticateWithPassword()
                console.note("Unlocked with your password.")
                if console.isInteractive, !login.isBiometricShortcutEnabled { await offerBiometrics(password: password) }
                return true
            } catch .throttled(let seconds) {
                console.note(PasswordLoginError.throttled(retryAfter: seconds).localizedDescription)
                return false
            } catch {
                console.note(error.localizedDescription)
            }
        }
        return false
    }

    /// After a password login on a terminal: offer the Touch ID shortcut.
    func offerBiometrics(password: String) async {
        guard authenticator.isAvailable, !biometricsRestricted else { return }
        guard console.confirm("Use \(biometryName) to unlock the vault next time?") else { return }
        await enableBiometrics(password: password)
    }

    /// `biometrics on`: the password, then one biometric match.
    func biometrics(_ arguments: [String]) async -> Int32 {
        switch arguments.first {
        case "off":
            do { try login.disableBiometricShortcut() } catch {
                console.note(error.localizedDescription)
                return 1
            }
            console.note("\(biometryName) login turned off.")
            return 0
        case "on":
            guard let username = login.username else { console.note("no account yet"); return 1 }
            guard let password = console.readSecret(prompt: "Password for \(username): ") else { return 77 }
            return await enableBiometrics(password: password) ? 0 : 77
        default:
            console.note("usage: latchkey vault biometrics on|off")
            return 64
        }
    }

    @discardableResult
    private func enableBiometrics(password: String) async -> Bool {
        guard !biometricsRestricted else {
            console.note("\(biometryName) login is disabled while the integrity check reports problems.")
            return false
        }
        do {
            let session = try login.logIn(username: login.username ?? "", password: password)
            console.note("\(biometryName): touch the sensor to turn on \(biometryName) login…")
            try await login.enableBiometricShortcut(after: session, authenticator: authenticator,
                                                    reason: "Turn on \(biometryName) for Latchkey Vault")
            console.note("\(biometryName) login is on.")
            return true
        } catch {
            console.note("\(biometryName) login not turned on: \(error.localizedDescription)")
            return false
        }
    }

    /// `passwd`: the old password, then the new one twice.
    func changePassword() -> Int32 {
        guard let old = console.readSecret(prompt: "Current password: "),
              let new = console.readSecret(prompt: "New password: "),
              let repeated = console.readSecret(prompt: "Repeat the new password: ") else { return 77 }
        guard new == repeated else { console.note("the passwords do not match"); return 65 }
        do {
            try login.changePassword(old: old, new: new)
            console.note("Password changed.")
            return 0
        } catch {
            console.note(error.localizedDescription)
            return 77
        }
    }
}
