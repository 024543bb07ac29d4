#if os(Linux)
import Foundation
import LatchkeyAuthCore
import LatchkeyAuthLinux

/// Linux-only settings of the `LocalAuthentication` facade (no Apple counterpart).
///
/// Every `LAContext` wraps a context from `makeContext`. By default that is the backend
/// `AuthenticationBackend.fromEnvironment()` names: `LATCHKEY_AUTH_BACKEND=simulated|pam`, or the
/// simulator when `LATCHKEY_SIMULATOR_STATE` names its control file, else PAM (passwords asked on the
/// terminal). Tests set `makeContext` to a `SimulatedAuthenticator`'s contexts.
public enum LatchkeyLocalAuthenticationConfiguration {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var factory: (@Sendable () -> any AuthenticationContext)?  // guarded by `lock`

    /// Makes the Latchkey context behind a new `LAContext`.
    public static var makeContext: @Sendable () -> any AuthenticationContext {
        get {
            lock.lock()
            defer { lock.unlock() }
            return factory ?? defaultFactory
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            factory = newValue
        }
    }

    /// Restores the environment-chosen backend.
    public static func reset() {
        lock.lock()
        defer { lock.unlock() }
        factory = nil
    }

    private static let defaultFactory: @Sendable () -> any AuthenticationContext = {
        guard let backend = AuthenticationBackend.fromEnvironment() else {
            return UnavailableAuthenticationContext(reason: .biometryNotAvailable)
        }
        return backend.makeLinuxContext(passcodeProvider: TerminalPasscodeProvider(),
                                        environment: ProcessInfo.processInfo.environment)
    }
}
#endif
