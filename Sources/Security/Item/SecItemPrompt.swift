#if os(Linux)
import Foundation
import LatchkeyAuthCore
import LatchkeyAuthLinux
import LatchkeyKeychainCore
import LatchkeyKeychainLinux
import LocalAuthentication

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
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(KeychainStoreError) {
                box.set(.success(try await operation()))
            } catch {
                box.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        guard let result = box.get() else { throw KeychainStoreError(.internalComponent) }
        return try result.get()
    }
}

/// A result handed from the task to the waiting thread.
private final class ResultBox<T: Sendable>: @unchecked Sendable { // guarded by `lock`
    private let lock = NSLock()
    private var value: Result<T, KeychainStoreError>?
    func set(_ v: Result<T, KeychainStoreError>) { lock.lock(); value = v; lock.unlock() }
    func get() -> Result<T, KeychainStoreError>? { lock.lock(); defer { lock.unlock() }; return value }
}
#endif
