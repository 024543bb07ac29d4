import Foundation

extension AuthenticationBackend {
    /// `apple` where Apple's frameworks are used, `pam` on Linux.
    public static var platformDefault: AuthenticationBackend {
        #if LATCHKEY_APPLE_FRAMEWORKS
        .apple
        #else
        .pam
        #endif
    }

    /// The backend the environment asks for (`LATCHKEY_AUTH_BACKEND`, `LATCHKEY_SIMULATOR_STATE`), else the platform's
    /// default; `nil` when `LATCHKEY_AUTH_BACKEND` names none of them.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> AuthenticationBackend? {
        fromEnvironment(environment, platformDefault: platformDefault)
    }

    /// A new context of this backend (`UnavailableAuthenticationContext` where the backend does not exist:
    /// PAM where Apple's frameworks are used, `LAContext` on Linux, watchOS and tvOS).
    public func makeContext(passcodeProvider: (any PasscodeProvider)? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment)
        -> any AuthenticationContext {
        #if LATCHKEY_APPLE_FRAMEWORKS
        switch self {
        case .simulated:
            return SimulatedAuthenticator(environment: environment).makeContext(passcodeProvider: passcodeProvider)
        case .pam:
            return UnavailableAuthenticationContext(reason: .biometryNotAvailable)
        case .apple:
            #if !os(watchOS) && !os(tvOS)
            return AppleAuthenticationContext()
            #else
            return UnavailableAuthenticationContext(reason: .biometryNotAvailable)
            #endif
        }
        #else
        return makeLinuxContext(passcodeProvider: passcodeProvider, environment: environment)
        #endif
    }
}
