import Foundation
import Latchkey
import LatchkeyCrypto
import LatchkeyAuth
import LatchkeyKeychain
@testable import SecureNotesExampleCore

/// The example app's device on Linux: a phone with Face ID (simulated; passcode 2468), the keychain as the app has it
/// (a `FileVault` here; in the apple-frameworks mode the system keychain path, `AppleKeychainStore` over `Security`),
/// and `UserDefaults` of its own.
struct SecureNotesWorld {
    let phone: SimulatedPhone
    let store: any ItemStore
    /// Unique per world: in the apple-frameworks mode the system keychain is shared by every test.
    let service = "com.example.SecureNotes.\(UUID().uuidString)"
    let suiteName = "latchkey-secure-notes-\(UUID().uuidString)"

    init() throws {
        phone = try SimulatedPhone(biometry: .faceID)
        #if LATCHKEY_APPLE_FRAMEWORKS
        AppleFrameworksFixture.useTestKeychain()
        store = AppleKeychainStore()
        #else
        let vault = try FileVault(url: phone.directory.appendingPathComponent("keychain.vault"), kdf: .testing)
        try vault.unlock(passphrase: "device passphrase")
        store = vault
        #endif
    }

    /// Face ID with the passcode 2468 behind it, as the platform presents it.
    var authenticator: BiometricAuthenticator {
        let simulator = phone.simulator
        return BiometricAuthenticator(fallbackTitle: "Enter Password") {
            AppleFrameworksFixture.platformContext(
                simulator.makeContext(passcodeProvider: ClosurePasscodeProvider { _ in Passcode("2468") }))
        }
    }

    var defaults: UserDefaults { UserDefaults(suiteName: suiteName) ?? .standard }

    /// The app's environment: this device; passkeys through `ceremony`; Apple's credential state through the
    /// `AuthenticationServices` module.
    func environment(server: URL, ceremony: any PasskeyCeremony = PlatformPasskeyCeremony(),
                     existingAccounts: (any ExistingAccountAuthorizing)? = nil,
                     language: MessageLanguage = .english) -> SecureNotesEnvironment {
        SecureNotesEnvironment(service: service, store: store, authenticator: authenticator, passkeyCeremony: ceremony,
                               appleCredentialStates: SystemAppleCredentialStateProvider(),
                               existingAccounts: existingAccounts, defaultServer: server,
                               passwordHashStrength: .testing, language: language)
    }

    func notes(owner: String) -> NotesStore {
        NotesStore(service: service, owner: owner, store: store, authenticator: authenticator)
    }

    func cleanUp() {
        UserDefaults().removePersistentDomain(forName: suiteName)
        phone.cleanUp()
    }
}
