/// Latchkey: the app-facing kit (Keychain, BiometricAuthenticator, TokenManager, AppLock, ...).
@_exported import LatchkeyKeychain
@_exported import LatchkeyAuth
