import Foundation
import Latchkey
import LatchkeyCrypto

/// What the app is built on: on a device the system keychain, Face ID or Touch ID with the passcode, iCloud Keychain
/// passkeys and Apple's credential state (`device(service:)`); in the Linux tests a vault file, a simulated sensor, the
/// `AuthenticationServices` module and `latchkey apple-stand-in`.
public struct SecureNotesEnvironment: Sendable {
    /// The first part of every keychain service the app uses (its bundle identifier).
    public var service: String
    /// Where the keychain items live.
    public var store: any ItemStore
    /// Face ID / Touch ID with the device passcode.
    public var authenticator: BiometricAuthenticator
    /// How passkeys are made and used.
    public var passkeyCeremony: any PasskeyCeremony
    /// Apple's answer about a Sign in with Apple user.
    public var appleCredentialStates: any AppleCredentialStateProvider
    /// The existing-account sheet shown at launch while signed out (Sign in with Apple, a saved password, a passkey);
    /// nil: none.
    public var existingAccounts: (any ExistingAccountAuthorizing)?
    /// The server until the user enters another.
    public var defaultServer: URL
    /// The cost of the password account's verifier.
    public var passwordHashStrength: PasswordHash.Strength
    /// How long the app may stay in the background, or closed, before Face ID is asked again.
    public var sessionTimeout: TimeInterval
    /// The language of every text.
    public var language: MessageLanguage
    /// How the server's devices list names this device's sessions (`nil`: the server shows the User-Agent).
    public var deviceName: String?

    public init(service: String, store: any ItemStore, authenticator: BiometricAuthenticator,
                passkeyCeremony: any PasskeyCeremony, appleCredentialStates: any AppleCredentialStateProvider,
                existingAccounts: (any ExistingAccountAuthorizing)? = nil, defaultServer: URL,
                passwordHashStrength: PasswordHash.Strength = .standard, sessionTimeout: TimeInterval = 60,
                language: MessageLanguage = .current, deviceName: String? = nil) {
        self.service = service
        self.store = store
        self.authenticator = authenticator
        self.passkeyCeremony = passkeyCeremony
        self.appleCredentialStates = appleCredentialStates
        self.existingAccounts = existingAccounts
        self.defaultServer = defaultServer
        self.passwordHashStrength = passwordHashStrength
        self.sessionTimeout = sessionTimeout
        self.language = language
        self.deviceName = deviceName
    }

    #if canImport(AuthenticationServices) && !os(watchOS)
    /// The app on a device: the system keychain, `LAContext`, `ASAuthorizationController` passkeys, Apple's credential
    /// state, and Apple's existing-account flow at launch.
    public static func device(service: String, defaultServer: URL) -> SecureNotesEnvironment {
        SecureNotesEnvironment(service: service, store: Keychain.defaultStore, authenticator: BiometricAuthenticator(),
                               passkeyCeremony: PlatformPasskeyCeremony(),
                               appleCredentialStates: SystemAppleCredentialStateProvider(),
                               existingAccounts: SystemExistingAccountAuthorizer(), defaultServer: defaultServer)
    }
    #endif
}
