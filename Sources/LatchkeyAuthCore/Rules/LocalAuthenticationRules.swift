import Foundation

/// The fixed numbers of Apple's LocalAuthentication that every backend follows.
public enum LocalAuthenticationRules {
    /// `LATouchIDAuthenticationMaximumAllowableReuseDuration`: the longest reuse window, in seconds.
    public static let maximumAllowableReuseDuration: Double = 300
    /// Failed biometric matches in a row after which biometry locks (`biometryLockout`) until a passcode succeeds.
    public static let maximumFailedBiometricAttempts = 5

    /// A requested reuse duration clamped to `0...maximumAllowableReuseDuration` (NaN counts as 0).
    public static func clampedReuseDuration(_ seconds: Double) -> Double {
        guard !seconds.isNaN, seconds > 0 else { return 0 }
        return min(seconds, maximumAllowableReuseDuration)
    }

    /// The protection domains a successful evaluation by `method` covers.
    public static func domains(coveredBy method: AuthenticationMethod) -> Set<ProtectionDomain> {
        switch method {
        case .biometry: [.biometryAny, .biometryCurrentSet, .userPresence]
        case .passcode: [.devicePasscode, .userPresence]
        }
    }
}

/// How the device owner was proven in a successful evaluation.
public enum AuthenticationMethod: String, Sendable, Hashable, Codable, CaseIterable {
    /// A biometric match (or a biometric device unlock within the reuse window).
    case biometry
    /// The device passcode (on Linux: the password PAM accepts).
    case passcode
}
