/// The passcode sheet: asked for the passcode when a policy falls back to it.
///
/// The terminal (`TerminalPasscodeProvider`), a UI, or a test implements it. The secret travels only
/// through this callback — never through argv or the environment.
public protocol PasscodeProvider: Sendable {
    /// Returns what the user typed, or `nil` when the user pressed Cancel.
    func passcode(for prompt: AuthenticationPrompt) async -> Passcode?
    /// Told when a prompt (biometric or passcode) appears; the default does nothing.
    func promptDidAppear(_ prompt: AuthenticationPrompt) async
}

extension PasscodeProvider {
    /// Does nothing.
    public func promptDidAppear(_ prompt: AuthenticationPrompt) async {}
}

/// A `PasscodeProvider` from a closure.
public struct ClosurePasscodeProvider: PasscodeProvider {
    private let body: @Sendable (AuthenticationPrompt) async -> Passcode?

    /// Uses `body` to answer passcode prompts.
    public init(_ body: @escaping @Sendable (AuthenticationPrompt) async -> Passcode?) { self.body = body }

    /// Calls the closure.
    public func passcode(for prompt: AuthenticationPrompt) async -> Passcode? { await body(prompt) }
}
