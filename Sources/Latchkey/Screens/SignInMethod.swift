import LatchkeyCrypto

/// A way to sign in on a sign-in screen.
public enum SignInMethod: Sendable, Hashable, CaseIterable {
    /// A passkey (WebAuthn).
    case passkey
    /// Sign in with Apple.
    case apple

    /// The button's title: "Sign In with a Passkey", "Sign in with Apple" (Apple's spelling).
    public func title(in language: MessageLanguage) -> String {
        switch self {
        case .passkey: language.pick(english: "Sign In with a Passkey", korean: "패스키로 로그인")
        case .apple: language.pick(english: "Sign in with Apple", korean: "Apple로 로그인")
        }
    }

    /// The button's SF Symbol.
    public var systemImageName: String {
        switch self {
        case .passkey: "person.badge.key"
        case .apple: "apple.logo"
        }
    }
}
