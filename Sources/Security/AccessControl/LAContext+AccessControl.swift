#if os(Linux)
import Foundation
import LatchkeyAuthCore
import LatchkeyAuthLinux
import LatchkeyKeychainCore
import LatchkeyKeychainLinux
import LocalAuthentication

/// `LAAccessControlOperation`, with Apple's raw values. (Apple declares it in LocalAuthentication; here it lives
/// in `Security` because it goes with `SecAccessControl`, so code using it imports both, as it must anyway.)
public enum LAAccessControlOperation: Int, Sendable {
    case createItem = 0, useItem = 1, createKey = 2, useKeySign = 3, useKeyDecrypt = 4, useKeyKeyExchange = 5
}

extension LAContext {
    /// `evaluateAccessControl(_:operation:localizedReason:reply:)`: evaluates the policy the access control
    /// needs (biometrics only when every alternative is biometric, else biometrics with passcode fallback),
    /// so a following keychain call with this context opens the item without prompting.
    public func evaluateAccessControl(_ accessControl: SecAccessControl, operation: LAAccessControlOperation,
                                      localizedReason: String, reply: @escaping (Bool, (any Error)?) -> Void) {
        let policy: LAPolicy = accessControl.latchkeyAccessControl.policy == .deviceOwnerAuthenticationWithBiometrics
            ? .deviceOwnerAuthenticationWithBiometrics : .deviceOwnerAuthentication
        evaluatePolicy(policy, localizedReason: localizedReason, reply: reply)
    }

    /// The async form of `evaluateAccessControl(_:operation:localizedReason:reply:)`.
    public func evaluateAccessControl(_ accessControl: SecAccessControl, operation: LAAccessControlOperation,
                                      localizedReason: String) async throws -> Bool {
        let policy: LAPolicy = accessControl.latchkeyAccessControl.policy == .deviceOwnerAuthenticationWithBiometrics
            ? .deviceOwnerAuthenticationWithBiometrics : .deviceOwnerAuthentication
        return try await evaluatePolicy(policy, localizedReason: localizedReason)
    }
}
#endif
