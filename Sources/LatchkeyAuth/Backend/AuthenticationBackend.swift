import Foundation

/// Which device-owner backend a process uses.
///
/// Chosen by `LATCHKEY_AUTH_BACKEND` (`simulated`, `pam`, `apple`); without it: `simulated` when
/// `LATCHKEY_SIMULATOR_STATE` is set, else `apple` on Apple platforms and `pam` on Linux.
/// PAM settings come from `LATCHKEY_PAM_SERVICE` (default "latchkey"), `LATCHKEY_PAM_CONFDIR`
/// (a directory of service files instead of /etc/pam.d) and `LATCHKEY_PAM_BIOMETRIC_SERVICE`.
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
        #if os(Linux)
        return .pam
        #else
        return .apple
        #endif
    }

    /// A new context of this backend (`UnavailableAuthenticationContext` where the backend does not exist).
    public func makeContext(passcodeProvider: (any PasscodeProvider)? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment)
        -> any AuthenticationContext {
        switch self {
        case .simulated:
            return SimulatedAuthenticator(environment: environment).makeContext(passcodeProvider: passcodeProvider)
        case .pam:
            #if os(Linux)
            var configuration = PAMAuthenticator.Configuration.fromEnvironment(environment)
            configuration.biometricResponder = passcodeProvider  // the same UI shows pam_fprintd's texts
            return PAMAuthenticator(configuration: configuration).makeContext(passcodeProvider: passcodeProvider)
            #else
            return UnavailableAuthenticationContext(reason: .biometryNotAvailable)
            #endif
        case .apple:
            #if canImport(LocalAuthentication) && !os(Linux) && !os(watchOS) && !os(tvOS)
            return AppleAuthenticationContext()
            #else
            return UnavailableAuthenticationContext(reason: .biometryNotAvailable)
            #endif
        }
    }
}

#if os(Linux)
extension PAMAuthenticator.Configuration {
    /// The configuration named by `LATCHKEY_PAM_SERVICE`, `LATCHKEY_PAM_CONFDIR`,
    /// `LATCHKEY_PAM_BIOMETRIC_SERVICE` and the state directory.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> PAMAuthenticator.Configuration {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        return PAMAuthenticator.Configuration(
            service: value("LATCHKEY_PAM_SERVICE") ?? "latchkey",
            configurationDirectory: value("LATCHKEY_PAM_CONFDIR").map { URL(fileURLWithPath: $0, isDirectory: true) },
            biometricService: value("LATCHKEY_PAM_BIOMETRIC_SERVICE"),
            stateURL: StateDirectory.url(environment: environment).appendingPathComponent("pam-secrets"))
    }
}
#endif
