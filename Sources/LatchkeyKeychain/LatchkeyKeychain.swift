/// LatchkeyKeychain: Keychain Services semantics (item classes, attributes, queries, accessibility,
/// access control) over interchangeable item stores.
public enum LatchkeyKeychainInfo {
    public static let version = "0.1.0"
}
