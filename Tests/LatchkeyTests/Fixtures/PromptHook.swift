import Foundation
import Latchkey
import LatchkeyAuth
import LatchkeySupport

/// A passcode sheet that answers `answer` (`nil`: Cancel) and runs a hook on the main actor whenever a biometric or
/// passcode prompt appears, to look at a screen while its prompt is up.
final class PromptHook: PasscodeProvider {
    private let answer: String?
    private let hook = Locked<(@MainActor @Sendable (AuthenticationPrompt) async -> Void)?>(nil)

    init(answer: String?) { self.answer = answer }

    /// Runs `body` at each prompt from now on.
    func onPrompt(_ body: @escaping @MainActor @Sendable (AuthenticationPrompt) async -> Void) {
        hook.withLock { $0 = body }
    }

    func passcode(for prompt: AuthenticationPrompt) async -> Passcode? { answer.map { Passcode($0) } }

    func promptDidAppear(_ prompt: AuthenticationPrompt) async {
        guard let body = hook.withLock({ $0 }) else { return }
        await body(prompt)
    }
}
