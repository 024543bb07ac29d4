#if os(Linux)
import Foundation
import LatchkeyAuthCore
import LatchkeyAuthLinux
import LatchkeyKeychainCore
import LatchkeyKeychainLinux
import LocalAuthentication
import LatchkeySupport

/// Apple's `SecItem…` functions prompt (and block the caller) when an item's access control needs an
/// authentication that the query's `LAContext` has not done yet. Latchkey's stores never prompt in their
/// synchronous calls, so the facade runs their `authenticated…` variants and waits for them.
enum SecItemPrompt {
    /// Whether the store's error asks for an evaluation the facade may run.
    static func shouldPrompt(_ error: KeychainStoreError, context: (any AuthenticationContext)?, ui: AuthenticationUI) -> Bool {
        guard ui == .allow, error.accessRequirement != nil else { return false }
        return context?.interactionNotAllowed != true
    }

    /// The query's context, or a fresh one of the configured backend (as `SecItem…` make on Apple platforms).
    static func context(_ given: (any AuthenticationContext)?) -> any AuthenticationContext {
        given ?? LAContext().latchkeyAuthenticationContext
    }

    /// Runs `operation` on a detached task and blocks until it finishes.
    static func wait<T: Sendable>(_ operation: @escaping @Sendable () async throws(KeychainStoreError) -> T) throws(KeychainStoreError) -> T {
        try waitForTask(operation)
    }
}
#endif
