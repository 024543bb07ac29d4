import Foundation

/// Which device-owner backend a process uses.
///
/// Chosen by `LATCHKEY_AUTH_BACKEND` (`simulated`, `pam`, `apple`); without it: `simulated` when
/// `LATCHKEY_SIMULATOR_STATE` is set, else `apple` where Apple's frameworks are used and `pam` on Linux.
/// PAM settings come from `LATCHKEY_PAM_SERVICE` (default "latchkey"), `LATCHKEY_PAM_CONFDIR`
/// (a directory of service files instead of /etc/pam.d) and `LATCHKEY_PAM_BIOMETRIC_SERVICE`.
/// `makeContext(passcodeProvider:environment:)` (LatchkeyAuth) makes a context of the backend.
public enum AuthenticationBackend: String, Sendable, CaseIterable {
    /// `SimulatedAuthenticator` (tests and demos).
    case simulated
    /// `PAMAuthenticator` (Linux).
    case pam
    /// `AppleAuthenticationContext` (`LAContext`).
    case apple

    /// The backend the environment asks for; `nil` when `LATCHKEY_AUTH_BACKEND` names none of them.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> AuthenticationBackend? {
        if let name = environment["LATCHKEY_AUTH_BACKEND"], !name.isEmpty {
            return AuthenticationBackend(rawValue: name.lowercased())
        }
        if let state = environment["LATCHKEY_SIMULATOR_STATE"], !state.isEmpty { return .simulated }
        return platformDefault
    }

    /// `apple` where Apple's frameworks are used, `pam` on Linux.
    public static var platformDefault: AuthenticationBackend {
        #if LATCHKEY_APPLE_FRAMEWORKS
        .apple
        #else
        .pam
        #endif
    }
}
