/// The passcode sheet: asked for the passcode when a policy falls back to it.
///
/// The terminal (`TerminalPasscodeProvider`), a UI, or a test implements it. The secret travels only
/// through this callback — never through argv or the environment.
public protocol PasscodeProvider: Sendable {
    /// Returns what the user typed, or `nil` when the user pressed Cancel.
    func passcode(for prompt: AuthenticationPrompt) async -> Passcode?
    /// Told when a prompt (biometric or passcode) appears; the default does nothing.
    func promptDidAppear(_ prompt: AuthenticationPrompt) async
    /// Shows an informational or error text from the backend (PAM_TEXT_INFO / PAM_ERROR_MSG, e.g.
    /// "Place your finger on the reader"); the default ignores it. Must not block.
    func display(_ message: String, isError: Bool)
}

extension PasscodeProvider {
    /// Does nothing.
    public func promptDidAppear(_ prompt: AuthenticationPrompt) async {}
    /// Ignores the message.
    public func display(_ message: String, isError: Bool) {}
}

/// A `PasscodeProvider` from a closure.
public struct ClosurePasscodeProvider: PasscodeProvider {
    private let body: @Sendable (AuthenticationPrompt) async -> Passcode?

    /// Uses `body` to answer passcode prompts.
    public init(_ body: @escaping @Sendable (AuthenticationPrompt) async -> Passcode?) { self.body = body }

    /// Calls the closure.
    public func passcode(for prompt: AuthenticationPrompt) async -> Passcode? { await body(prompt) }
}
