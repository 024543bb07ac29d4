import Foundation

extension AuthenticationBackend {
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
