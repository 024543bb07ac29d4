import Foundation
import Latchkey
import LatchkeyCrypto

/// The vault app: one FileVault (the "device keychain") holding the login items and the notes, an AppLock
/// for the session, PasswordLogin for the password and the Touch ID shortcut.
@MainActor
final class VaultApp {
    let options: VaultOptions
    let console = VaultConsole()
    let store: FileVault
    let login: PasswordLogin
    let notes: VaultNoteStore
    let authenticator: BiometricAuthenticator
    let appLock: AppLock
    let sessions: KeychainAppSessionStore
    let integrity: IntegrityReport
    /// Touch ID is not offered when the integrity policy says restrict (a debugger or an injected library).
    let biometricsRestricted: Bool
    private var launched = false
    /// True once the shell has been unlocked once (so later locks are announced).
    var launchedBefore = false

    init(options: VaultOptions, environment: [String: String]) throws(VaultAppError) {
        self.options = options
        try? IntegrityCheck.disableCoreDumps()
        integrity = IntegrityCheck().run()
        biometricsRestricted = integrity.response(under: .standard) >= .restrict

        let directory = options.vaultURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .vault("cannot create \(directory.path)")
        }
        let provider: any VaultKeyProvider
        switch environment["LATCHKEY_VAULT_DEVICE_KEY"] ?? "file" {
        case "secret-service": provider = SecretServiceKeyProvider()
        case "kernel-keyring": provider = KernelKeyringProvider()
        // The app's stand-in for the key an iPhone keeps for its data-protection classes: a device key file
        // next to the vault (`<vault>.device-key`, 0600). The app lock sits on top of it, as an iOS app's
        // lock screen sits on top of the keychain.
        default: provider = DeviceKeyFileProvider(url: options.vaultURL.appendingPathExtension("device-key"))
        }
        do {
            store = try FileVault(url: options.vaultURL, keyProvider: provider)
            try store.unlock()
        } catch {
            throw .vault(error.localizedDescription)
        }
        let appKeychain = Keychain(service: "org.latchkey.vault", store: store)
        login = PasswordLogin(keychain: appKeychain)
        notes = VaultNoteStore(store: store)
        sessions = KeychainAppSessionStore(keychain: appKeychain)

        let backend = AuthenticationBackend.fromEnvironment(environment)
        authenticator = BiometricAuthenticator(fallbackTitle: "Enter Password") {
            backend?.makeContext(passcodeProvider: TerminalPasscodeProvider(), environment: environment)
                ?? UnavailableAuthenticationContext(reason: .biometryNotAvailable)
        }
        let login = login
        let detector = BiometricChangeDetector(
            store: FileDomainStateStore(url: options.vaultURL.appendingPathExtension("biometry.json")),
            makeContext: { backend?.makeContext(passcodeProvider: nil, environment: environment)
                ?? UnavailableAuthenticationContext(reason: .biometryNotAvailable) },
            onChange: { try? login.disableBiometricShortcut() })
        appLock = AppLock(configuration: .init(sessionTimeout: options.timeout, reason: "Unlock Latchkey Vault",
                                               authenticateOnLaunch: false),
                          authenticator: authenticator,
                          hasValidTokens: { login.hasAccount },
                          changeDetector: detector, sessions: sessions)
    }

    /// The sensor's name ("Touch ID", "Face ID") or "biometrics".
    var biometryName: String {
        let type = authenticator.biometryType
        return type == .none ? "biometrics" : type.displayName
    }

    /// Prints integrity findings worth a warning.
    func warnAboutIntegrity() {
        for finding in integrity.findings where finding.severity >= .warning {
            console.note("warning: integrity check: \(finding.signal.rawValue) (\(finding.detail))")
        }
        if biometricsRestricted {
            console.note("warning: \(biometryName) is disabled for this session because of the findings above.")
        }
    }

    /// Runs AppLock's launch once per process (session within timeout → unlocked).
    func launchIfNeeded() async {
        guard !launched else { return }
        launched = true
        await appLock.launch()
    }

    // MARK: - Note commands

    func list() -> Int32 {
        do {
            let titles = try notes.titles()
            if titles.isEmpty { console.note("(no notes)") }
            for title in titles { console.say(title) }
            return 0
        } catch { return fail(error) }
    }

    func show(_ title: String) -> Int32 {
        do {
            guard let note = try notes.note(title) else {
                console.note("no note titled “\(title)”")
                return 44
            }
            console.say(note.body)
            return 0
        } catch { return fail(error) }
    }

    func add(title: String, body: String) -> Int32 {
        guard !title.isEmpty else { console.note("a note needs a title"); return 64 }
        do {
            try notes.add(title: title, body: body, now: Date())
            console.note("added “\(title)”")
            return 0
        } catch { return fail(error) }
    }

    func edit(title: String, body: String) -> Int32 {
        do {
            try notes.edit(title: title, body: body, now: Date())
            console.note("saved “\(title)”")
            return 0
        } catch { return fail(error) }
    }

    func delete(_ title: String) -> Int32 {
        do {
            try notes.delete(title)
            console.note("deleted “\(title)”")
            return 0
        } catch { return fail(error) }
    }

    func status() -> Int32 {
        console.say("vault: \(options.vaultURL.path)")
        console.say("account: \(login.username ?? "(none — run `latchkey vault setup`)")")
        console.say("biometry: \(authenticator.biometryType == .none ? "none" : authenticator.biometryType.displayName)")
        switch authenticator.availability {
        case .success: console.say("biometry state: available")
        case .failure(.lockout): console.say("biometry state: locked out (too many failed attempts; use the password)")
        case .failure(let error): console.say("biometry state: unavailable (\(error.localizedDescription))")
        }
        console.say("\(biometryName) login: \(login.isBiometricShortcutEnabled ? "on" : "off")")
        let throttle = login.throttleState
        let wait = throttle.secondsRemaining(at: Date())
        console.say("password attempts: \(throttle.failures) failed" + (wait > 0 ? ", locked for \(wait) s" : ""))
        let session = sessions.lastActive().map { Date().timeIntervalSince($0) < options.timeout } ?? false
        console.say("session: \(session ? "unlocked" : "locked") (timeout \(Int(options.timeout)) s)")
        if integrity.isClean {
            console.say("integrity: no findings")
        } else {
            for finding in integrity.findings {
                console.say("integrity: \(finding.severity) \(finding.signal.rawValue) (\(finding.detail))")
            }
        }
        return 0
    }

    func fail(_ error: KeychainError) -> Int32 {
        console.note("error: \(error.localizedDescription)")
        switch error {
        case .itemNotFound: return 44
        case .duplicateEntry: return 45
        case .interactionNotAllowed, .authenticationFailed, .userCanceled: return 77
        default: return 1
        }
    }
}

/// Why the vault app could not start.
enum VaultAppError: Error {
    case vault(String)
}
