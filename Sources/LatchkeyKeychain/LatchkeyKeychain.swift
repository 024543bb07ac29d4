/// LatchkeyKeychain: Keychain Services semantics with the platform's stores — the system keychain where
/// Apple's frameworks are used (`AppleKeychainStore`), `FileVault` and `SecretServiceStore` on Linux
/// (`LatchkeyKeychainLinux`) — over the portable core (`LatchkeyKeychainCore`: the model, Apple's
/// dictionaries, the access gate, `MemoryStore`).
@_exported import LatchkeyKeychainCore
@_exported import LatchkeyAuth
#if !LATCHKEY_APPLE_FRAMEWORKS
@_exported import LatchkeyKeychainLinux
#endif
