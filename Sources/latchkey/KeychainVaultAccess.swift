import Foundation
import Latchkey
import LatchkeyCrypto
import LatchkeySupport

/// How `latchkey keychain` finds and opens its store.
///
/// The vault's key is never taken from the environment or the command line. In order:
/// 1. `--passphrase-fd N`: the passphrase is one line read from file descriptor N (for scripts);
/// 2. otherwise the store `DefaultKeychain` chooses (`LATCHKEY_KEYCHAIN`, shared with the library): an
///    existing vault keeps its protection; a new vault is wrapped by the login keyring (Secret Service,
///    cached in the kernel keyring) when a keyring daemon runs, and otherwise by the per-user device key
///    file — so the commands work with no setup on a server or in CI;
/// 3. a passphrase vault asks at a hidden prompt (or reads one line on a non-terminal stdin). `unlock`
///    caches the opened vault for a while in the kernel's user keyring (like `security unlock-keychain`);
///    `lock` forgets it.
struct KeychainVaultAccess {
    enum Backend: String {
        case vault
        case secretService = "secret-service"
    }

    let backend: Backend
    let vaultURL: URL
    let passphraseFD: Int32?

    /// Seconds an `unlock` lasts in passphrase mode.
    static let sessionTimeout: UInt32 = 900

    init(arguments: KeychainArguments) throws {
        let environment = ProcessInfo.processInfo.environment
        switch arguments.value("backend") ?? environment["LATCHKEY_BACKEND"] ?? "vault" {
        case "vault": backend = .vault
        case "secret-service": backend = .secretService
        case let other: throw KeychainArguments.UsageError(message: "unknown backend '\(other)' (vault, secret-service)")
        }
        if let path = arguments.value("vault")
            ?? environment["LATCHKEY_VAULT"].flatMap({ $0.isEmpty ? nil : $0 })
            ?? environment["LATCHKEY_KEYCHAIN_PATH"].flatMap({ $0.isEmpty ? nil : $0 }) {
            vaultURL = URL(fileURLWithPath: path)
        } else {
            vaultURL = VaultFile.defaultURL()
        }
        if arguments.has("passphrase-fd") {
            guard let fd = try arguments.integer("passphrase-fd"), fd >= 0, fd <= Int(Int32.max) else {
                throw KeychainArguments.UsageError(message: "--passphrase-fd needs a file descriptor number")
            }
            passphraseFD = Int32(fd)
        } else {
            passphraseFD = nil
        }
    }

    /// What `dump`/`find` print as `keychain: "..."`.
    var displayName: String {
        switch backend {
        case .vault: vaultURL.path
        case .secretService: "secret-service:default"
        }
    }

    /// The store, unlocked.
    func openStore() throws -> any ItemStore {
        switch backend {
        case .secretService: return try SecretServiceStore()
        case .vault: return try openVault()
        }
    }

    /// The login keyring provider, when a keyring daemon runs.
    private var osProvider: (any VaultKeyProvider)? {
        guard OSKeyProviders.secretService() != nil else { return nil }
        return CachedOSKeyProvider.platformDefault().flatMap { $0 as? any VaultKeyProvider }
    }

    /// The library's default-keychain configuration, with this command's vault.
    func configuration() throws -> DefaultKeychainConfiguration {
        var configuration = try DefaultKeychainConfiguration()
        configuration.vaultURL = vaultURL
        if passphraseFD != nil { configuration.choice = .passphrase }
        return configuration
    }

    /// Which store the commands use, without opening or creating anything.
    func resolve() throws -> KeychainStoreDescription {
        let resolved = try DefaultKeychain.resolve(try configuration())
        if resolved.store == .memory {
            throw KeychainArguments.UsageError(message: "LATCHKEY_KEYCHAIN=memory keeps nothing from one command to the next; "
                + "use keyring, file or passphrase with `latchkey keychain`")
        }
        return resolved
    }

    func openVault() throws -> FileVault {
        if let passphraseFD {
            let vault = try FileVault(url: vaultURL)
            let passphrase = try readPassphrase(fd: passphraseFD)
            try vault.unlock(passphrase: passphrase)
            return vault
        }
        let resolved = try resolve()
        switch resolved.store {
        case .keyring:
            guard let osProvider else { throw KeychainStoreError(.notAvailable, .keyringNotRunning) }
            let vault = try FileVault(url: vaultURL, keyProvider: osProvider)
            // Creates a new vault wrapped by the login keyring; a passphrase vault asks for its passphrase.
            guard let error = Self.failure(of: vault.unlock) else { return vault }
            guard vault.hasPassphrase else { throw error }
            try unlockWithPrompt(vault)
            return vault
        case .file:
            let vault = try FileVault(url: vaultURL, keyProvider: DeviceKeyFileProvider(url: try configuration().deviceKeyURL))
            try vault.unlock()
            return vault
        case .passphrase, .memory, .automatic:
            let vault = try FileVault(url: vaultURL, keyProvider: SessionKeyProvider())
            // Opens when an `unlock` session is live; otherwise asks (a new vault: for a new passphrase).
            if let error = Self.failure(of: vault.unlock) {
                guard vault.hasPassphrase || error.status == .notAvailable else { throw error }
                try unlockWithPrompt(vault, isNew: !vault.hasPassphrase)
            }
            return vault
        }
    }

    /// `status`: which store, which key protection, and why — opens and changes nothing.
    func status() throws -> String {
        if backend == .secretService {
            return "store: secret-service (the login keyring's default collection)\n"
                + "login keyring: \(OSKeyProviders.secretService() != nil ? "running" : "not running")\n"
                + Self.identityLines().joined(separator: "\n")
        }
        let resolved = try resolve()
        let exists = FileManager.default.fileExists(atPath: vaultURL.path)
        var lines = [
            "store: \(resolved.store.rawValue)",
            "vault: \(vaultURL.path)\(exists ? "" : " (created on first use)")",
            "protection: \(resolved.protection())",
        ]
        if let deviceKey = resolved.deviceKeyURL {
            let present = FileManager.default.fileExists(atPath: deviceKey.path)
            lines.append("device key file: \(deviceKey.path)\(present ? "" : " (created on first use)")")
        }
        lines.append("login keyring: \(OSKeyProviders.secretService() != nil ? "running" : "not running")")
        lines.append("chosen because: \(passphraseFD != nil ? "--passphrase-fd was given" : resolved.reason)")
        lines += Self.identityLines()
        return lines.joined(separator: "\n")
    }

    /// The application identifier in force for `SecItem…` (the default access group) and where it came from, what
    /// `Bundle.main.bundleIdentifier` answers, and whether a TPM is in use for `SecureEnclave` keys.
    static func identityLines() -> [String] {
        let identity = ApplicationIdentity.current()
        let tpm = LatchkeySecureEnclaveConfiguration.latchkeyTPMStatus()
        return ["application identifier: \(identity)",
                "bundle identifier (Bundle.main): \(identity.bundleIdentifier ?? "none (no Info.plist beside \(Bundle.main.bundlePath))")",
                "TPM (SecureEnclave keys): \(tpm.inUse ? "in use — " : "")\(tpm.description)"]
    }

    /// Runs `body`, returning its error instead of throwing it.
    static func failure(of body: () throws(KeychainStoreError) -> Void) -> KeychainStoreError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    /// `unlock`: opens the vault and, in passphrase mode, keeps it open for ``sessionTimeout`` seconds.
    func unlockSession() throws -> String {
        if backend == .secretService { return "The Secret Service is unlocked by the desktop session." }
        if passphraseFD == nil {
            switch try resolve().store {
            case .keyring:
                _ = try openVault()
                return "The vault opens with the login keyring."
            case .file:
                _ = try openVault()
                return "The vault opens with the device key file; it needs no unlock."
            case .passphrase, .memory, .automatic:
                break
            }
        }
        let session = SessionKeyProvider()
        let vault = try FileVault(url: vaultURL, keyProvider: session)
        if let passphraseFD {
            try vault.unlock(passphrase: try readPassphrase(fd: passphraseFD))
        } else {
            guard let error = Self.failure(of: vault.unlock) else { return "The vault is already unlocked." }
            guard vault.hasPassphrase || error.status == .notAvailable else { throw error }
            try unlockWithPrompt(vault, isNew: !vault.hasPassphrase)
        }
        session.allowCreation()
        try vault.enableKeyProvider()
        return "The vault is unlocked for \(Self.sessionTimeout / 60) minutes."
    }

    /// `lock`: forgets the cached session key (and the kernel cache of a login-keyring key).
    func lockSession() throws -> String {
        if backend == .secretService { return "Lock the login keyring to lock the Secret Service." }
        guard FileManager.default.fileExists(atPath: vaultURL.path) else { return "There is no vault at \(vaultURL.path)." }
        let vault = try FileVault(url: vaultURL)
        try SessionKeyProvider().deleteWrappingKey(for: vault.vaultID)
        if let cache = OSKeyProviders.kernelKeyring(timeout: nil, descriptionPrefix: "latchkey:vault:") {
            try? cache.deleteKey(id: vault.vaultID.map { String(format: "%02x", $0) }.joined())
        }
        if passphraseFD == nil, !vault.hasPassphrase {
            if vault.protections.contains(.deviceKey) {
                return "The vault's key is wrapped by the device key file: it cannot be locked. "
                    + "For a vault that locks, create one with LATCHKEY_KEYCHAIN=passphrase."
            }
            if vault.protections.contains(.keyring) {
                return "The vault's key is kept by the login keyring; it opens again while that keyring is unlocked."
            }
        }
        return "The vault is locked."
    }

    /// Asks for the passphrase; with no terminal and nothing on stdin, says why and what to do instead.
    private func unlockWithPrompt(_ vault: FileVault, isNew: Bool = false) throws {
        do {
            try promptAndUnlock(vault, isNew: isNew)
        } catch TerminalInput.Failure.endOfInput {
            throw KeychainCLIError.passphraseUnavailable(vault: vaultURL.path, isNew: isNew)
        }
    }

    private func promptAndUnlock(_ vault: FileVault, isNew: Bool) throws {
        if isNew {
            let first = try TerminalInput.readSecret(prompt: "New passphrase for \(vaultURL.path): ")
            if isatty(STDIN_FILENO) == 1 {
                let second = try TerminalInput.readSecret(prompt: "Repeat the passphrase: ")
                guard first == second else { throw KeychainCLIError.passphraseMismatch }
            }
            guard !first.isEmpty else { throw KeychainCLIError.emptyPassphrase }
            try vault.unlock(passphrase: first)
            return
        }
        guard vault.hasPassphrase else { throw KeychainStoreError(.authFailed, .noVaultKey) }
        let attempts = isatty(STDIN_FILENO) == 1 ? 3 : 1
        for attempt in 1...attempts {
            let passphrase = try TerminalInput.readSecret(prompt: "Passphrase for \(vaultURL.path): ")
            guard let error = Self.failure(of: { () throws(KeychainStoreError) in try vault.unlock(passphrase: passphrase) })
            else { return }
            guard error.status == .authFailed, attempt < attempts else { throw error }
            FileHandle.standardError.write(Data("Wrong passphrase, try again.\n".utf8))
        }
    }

    private func readPassphrase(fd: Int32) throws -> String {
        do {
            return try TerminalInput.readLine(fd: fd)
        } catch {
            throw KeychainCLIError.noPassphrase(fd: fd)
        }
    }
}

/// The kernel-keyring key an `unlock` leaves behind: it wraps the vault key until it times out, is
/// removed by `lock`, or the machine reboots. Never creates a key unless `allowCreation()` was called, so a
/// new vault is never wrapped by this short-lived key alone.
final class SessionKeyProvider: VaultKeyProvider {
    private let kernel = OSKeyProviders.kernelKeyring(timeout: KeychainVaultAccess.sessionTimeout,
                                                      descriptionPrefix: "latchkey:session:")
    private let creationAllowed = Locked(false)

    var name: String { "session" }
    var protection: VaultProtection { .session }

    func allowCreation() { creationAllowed.withLock { $0 = true } }

    func wrappingKey(for vaultID: Data, create: Bool) throws(KeychainStoreError) -> SymmetricKey? {
        guard let kernel = kernel as? any VaultKeyProvider else { return nil }
        return try kernel.wrappingKey(for: vaultID, create: create && creationAllowed.withLock { $0 })
    }

    func deleteWrappingKey(for vaultID: Data) throws(KeychainStoreError) {
        guard let kernel = kernel as? any VaultKeyProvider else { return }
        try kernel.deleteWrappingKey(for: vaultID)
    }
}
