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

    /// Makes the Latchkey context behind a new `LAContext` (on a thread with a `threadMakeContext`, that one).
    public static var makeContext: @Sendable () -> any AuthenticationContext {
        get {
            if let threadMakeContext { return threadMakeContext }
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

    /// A factory for the `LAContext`s made on the calling thread only; nil (the default) leaves `makeContext` in
    /// charge. For tests that run on threads of their own beside other tests of the same process.
    public static var threadMakeContext: (@Sendable () -> any AuthenticationContext)? {
        get { (Thread.current.threadDictionary[threadKey] as? FactoryBox)?.make }
        set { Thread.current.threadDictionary[threadKey] = newValue.map(FactoryBox.init) }
    }

    private static let threadKey = "dev.latchkey.local-authentication.thread-factory"

    /// Holds a factory in a thread dictionary.
    private final class FactoryBox: NSObject {
        let make: @Sendable () -> any AuthenticationContext
        init(_ make: @escaping @Sendable () -> any AuthenticationContext) { self.make = make }
    }

    /// Restores the environment-chosen backend.
    public static func reset() {
        lock.lock()
        defer { lock.unlock() }
        factory = nil
    }

    private static let defaultFactory: @Sendable () -> any AuthenticationContext = {
        guard let backend = AuthenticationBackend.fromEnvironment(ProcessInfo.processInfo.environment,
                                                                 platformDefault: .pam) else {
            return UnavailableAuthenticationContext(reason: .biometryNotAvailable)
        }
        return backend.makeLinuxContext(passcodeProvider: TerminalPasscodeProvider(),
                                        environment: ProcessInfo.processInfo.environment)
    }
}
#endif
