#if os(Linux)
import Foundation
import LatchkeyAuthCore
import LatchkeyAuthLinux
import LatchkeyKeychainCore
import LatchkeyKeychainLinux
import LocalAuthentication

/// `LAAccessControlOperation`, with Apple's raw values. (Apple declares it in LocalAuthentication; here it lives
/// in `Security` because it goes with `SecAccessControl`, so code using it imports both, as it must anyway.)
@available(macOS 10.11, iOS 9.0, watchOS 3.0, *)
@available(tvOS, unavailable)
public enum LAAccessControlOperation: Int, Sendable {
    case createItem = 0
    case useItem = 1
    case createKey = 2
    case useKeySign = 3
    @available(macOS 10.12, iOS 10.0, *)
    case useKeyDecrypt = 4
    @available(macOS 10.12, iOS 10.0, *)
    case useKeyKeyExchange = 5
}

extension LAContext {
    /// `evaluateAccessControl(_:operation:localizedReason:reply:)`: proves what the access control needs, its
    /// prompts following its constraints (a `.devicePasscode` control asks for the passcode, never for biometry; an
    /// `.and` of biometry and the passcode asks for both) and asking for the application password when the control
    /// has `.applicationPassword` and none was set — so a following keychain call with this context opens the item
    /// without prompting. `reply` runs on another thread.
    @available(macOS 10.11, iOS 9.0, watchOS 3.0, *)
    @available(tvOS, unavailable)
    public func evaluateAccessControl(_ accessControl: SecAccessControl, operation: LAAccessControlOperation,
                                      localizedReason: String, reply: @escaping (Bool, (any Error)?) -> Void) {
        let box = ReplyBox(reply)
        let context = latchkeyAuthenticationContext
        let requirement = accessControl.latchkeyAccessControl.requirement
        Task.detached {
            do throws(AuthenticationError) {
                try await context.evaluate(requirement, reason: localizedReason)
                box.reply(true, nil)
            } catch {
                box.reply(false, LAError(error))
            }
        }
    }

    /// The async form of `evaluateAccessControl(_:operation:localizedReason:reply:)`.
    @available(macOS 10.11, iOS 9.0, watchOS 3.0, *)
    @available(tvOS, unavailable)
    public func evaluateAccessControl(_ accessControl: SecAccessControl, operation: LAAccessControlOperation,
                                      localizedReason: String) async throws -> Bool {
        do throws(AuthenticationError) {
            try await latchkeyAuthenticationContext.evaluate(accessControl.latchkeyAccessControl.requirement,
                                                             reason: localizedReason)
            return true
        } catch {
            throw LAError(error)
        }
    }
}
#endif
