/// What a prompt shows: passed to the device and to a `PasscodeProvider`.
public struct AuthenticationPrompt: Sendable, Equatable {
    /// What is being asked for.
    public enum Kind: String, Sendable, Equatable {
        /// The biometric sheet (Face ID / Touch ID / Optic ID).
        case biometry
        /// The passcode (on Linux: the password PAM asks for).
        case passcode
        /// The application password of an `.applicationPassword` keychain item (not the device passcode).
        case applicationPassword
    }

    /// Biometric sheet or passcode entry.
    public var kind: Kind
    /// The policy being evaluated.
    public var policy: Policy
    /// The app's reason, shown to the user.
    public var reason: String
    /// Fallback button title; `nil` is the default ("Enter Password"), `""` hides it.
    public var fallbackTitle: String?
    /// Cancel button title; `nil` is the default ("Cancel").
    public var cancelTitle: String?
    /// For a passcode prompt driven by PAM: the text PAM sent (e.g. "Password: ").
    public var message: String?
    /// For a passcode prompt driven by PAM: whether the answer may be echoed.
    public var echo: Bool

    /// Creates a prompt description.
    public init(kind: Kind, policy: Policy, reason: String, fallbackTitle: String? = nil,
                cancelTitle: String? = nil, message: String? = nil, echo: Bool = false) {
        self.kind = kind
        self.policy = policy
        self.reason = reason
        self.fallbackTitle = fallbackTitle
        self.cancelTitle = cancelTitle
        self.message = message
        self.echo = echo
    }

    /// Whether the fallback button is shown (an empty title hides it).
    public var showsFallback: Bool { fallbackTitle != "" }

    /// The same prompt as a passcode entry.
    package func asPasscode(message: String? = nil, echo: Bool = false) -> AuthenticationPrompt {
        var copy = withMessage(message, echo: echo)
        copy.kind = .passcode
        return copy
    }

    /// The same prompt carrying a message from PAM.
    package func withMessage(_ message: String?, echo: Bool) -> AuthenticationPrompt {
        var copy = self
        copy.message = message
        copy.echo = echo
        return copy
    }
}
