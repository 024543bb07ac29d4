#if os(Linux)
import Foundation
import LatchkeyAuthCore

extension AuthenticationBackend {
    /// A new context of this backend as Linux has them: the simulator, or PAM; `.apple` is an
    /// `UnavailableAuthenticationContext` (the `LocalAuthentication` facade and the Linux build of
    /// `makeContext(passcodeProvider:environment:)` use this).
    package func makeLinuxContext(passcodeProvider: (any PasscodeProvider)?,
                                  environment: [String: String]) -> any AuthenticationContext {
        switch self {
        case .simulated:
            return SimulatedAuthenticator(environment: environment).makeContext(passcodeProvider: passcodeProvider)
        case .pam:
            var configuration = PAMAuthenticator.Configuration.fromEnvironment(environment)
            configuration.biometricResponder = passcodeProvider  // the same UI shows pam_fprintd's texts
            return PAMAuthenticator(configuration: configuration).makeContext(passcodeProvider: passcodeProvider)
        case .apple:
            return UnavailableAuthenticationContext(reason: .biometryNotAvailable)
        }
    }
}

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
