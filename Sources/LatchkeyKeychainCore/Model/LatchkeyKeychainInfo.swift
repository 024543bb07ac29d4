/// LatchkeyKeychain: Keychain Services semantics (item classes, attributes, queries, accessibility,
/// access control, Apple's OSStatus codes) over interchangeable item stores.
///
/// Design notes:
/// - `ItemStore` is synchronous and never prompts. Access-controlled items open only with an
///   `AuthenticationContext` that has already been evaluated; the `authenticated…` async variants
///   evaluate it (with `operationPrompt`) when `authenticationUI == .allow` and retry once. So the
///   cryptographic gate sits in one place and the store can be called from any thread.
/// - Adding an access-controlled item also needs an evaluated context, because FileVault seals the item
///   key under keys derived from the released domain secrets (for `.or`, one wrapped key per alternative,
///   so every alternative's domain must be released at add time; for `.and`, one key from all of them).
/// - Primary keys follow Apple (`AttributeKey.primaryKey(of:)`); absent key attributes count as empty.
/// - `QueryDictionary` translates SecItem dictionaries with Apple's raw keys both ways (portable);
///   the `Security` facade and `AppleKeychainStore` use it.
/// - Stores: `MemoryStore` (tests), `FileVault` (Linux default, encrypted SQLite),
///   `AppleKeychainStore` (Apple platforms), and `SecretServiceStore` (Linux desktops).
public enum LatchkeyKeychainInfo {
    /// The module version.
    public static let version = "0.1.0"
}
