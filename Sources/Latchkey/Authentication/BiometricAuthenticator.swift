import Foundation
import LatchkeyAuth

/// What app code calls to prove the device owner is present: Face ID / Touch ID / Optic ID, with the
/// passcode as fallback where asked for.
///
/// ```swift
/// let authenticator = BiometricAuthenticator()
/// switch await authenticator.authenticate(reason: "Unlock your notes") {
/// case .success: showNotes()
/// case .failure(.userFallback): showPasswordField()
/// case .failure(let error) where error.isCancellation: break
/// case .failure(let error): show(error.localizedDescription)
/// }
/// ```
/// Each call uses a fresh `AuthenticationContext` from the factory, as Apple recommends for `LAContext`.
public struct BiometricAuthenticator: Sendable {
    /// Makes a new context for each operation.
    public typealias ContextFactory = @Sendable () -> any AuthenticationContext

    private let makeContext: ContextFactory
    /// Fallback button title for `authenticate(reason:)`; `nil` is the system's, `""` hides it.
    public var fallbackTitle: String?
    /// Cancel button title; `nil` is the system's.
    public var cancelTitle: String?

    /// An authenticator over `makeContext`.
    public init(fallbackTitle: String? = nil, cancelTitle: String? = nil, makeContext: @escaping ContextFactory) {
        self.makeContext = makeContext
        self.fallbackTitle = fallbackTitle
        self.cancelTitle = cancelTitle
    }

    /// An authenticator over `backend` (default: from the environment — see `AuthenticationBackend`);
    /// `nil` (an unknown `LATCHKEY_AUTH_BACKEND`) gives a device without authentication.
    public init(backend: AuthenticationBackend? = AuthenticationBackend.fromEnvironment(),
                passcodeProvider: (any PasscodeProvider)? = nil) {
        self.init {
            backend?.makeContext(passcodeProvider: passcodeProvider)
                ?? UnavailableAuthenticationContext(reason: .biometryNotAvailable)
        }
    }

    /// The sensor kind (after a pre-flight check, as `LAContext.biometryType` needs).
    public var biometryType: BiometryType {
        let context = makeContext()
        _ = try? context.canEvaluate(.deviceOwnerAuthenticationWithBiometrics)
        return context.biometryType
    }

    /// Whether biometric authentication can be used now.
    public var isAvailable: Bool { (try? availability.get()) != nil }

    /// Why biometric authentication cannot be used, if it cannot.
    public var availability: Result<Void, AuthError> {
        do throws(AuthenticationError) {
            try makeContext().canEvaluate(.deviceOwnerAuthenticationWithBiometrics)
            return .success(())
        } catch {
            return .failure(AuthError(error))
        }
    }

    /// Biometrics only. The fallback button (if shown) ends with `.userFallback`.
    public func authenticate(reason: String) async -> Result<Void, AuthError> {
        await authenticatedContext(policy: .deviceOwnerAuthenticationWithBiometrics, reason: reason).map { _ in }
    }

    /// Biometrics, falling back to the device passcode (and straight to it when biometry is locked
    /// out or not enrolled).
    public func authenticateWithPasscodeFallback(reason: String) async -> Result<Void, AuthError> {
        await authenticatedContext(policy: .deviceOwnerAuthentication, reason: reason).map { _ in }
    }

    /// Evaluates `policy` and returns the context on success, e.g. to open protected keychain items
    /// with it (its `releaseSecret(for:)` works until it is invalidated).
    public func authenticatedContext(policy: Policy, reason: String) async -> Result<any AuthenticationContext, AuthError> {
        let context = makeContext()
        context.localizedFallbackTitle = fallbackTitle
        context.localizedCancelTitle = cancelTitle
        do throws(AuthenticationError) {
            try await context.evaluate(policy, reason: reason)
            return .success(context)
        } catch {
            return .failure(AuthError(error))
        }
    }
}
