#if os(Linux)
import Foundation
import LatchkeyAuthCore
import LatchkeyAuthLinux

/// `LAPolicy`, with Apple's raw values.
public enum LAPolicy: Int, Sendable, Hashable {
    /// Biometrics only.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometrics, then the passcode (on Linux: the account password through PAM, or the simulator's passcode).
    case deviceOwnerAuthentication = 2
    /// A paired watch / companion: no such device exists on Linux (`companionNotAvailable`).
    case deviceOwnerAuthenticationWithWatch = 3
    /// Biometrics or a watch: evaluated as biometrics on Linux.
    case deviceOwnerAuthenticationWithBiometricsOrWatch = 4
    /// Wrist detection: not available on Linux (`companionNotAvailable`).
    case deviceOwnerAuthenticationWithWristDetection = 5

    /// The newer name of `deviceOwnerAuthenticationWithWatch`.
    public static let deviceOwnerAuthenticationWithCompanion = LAPolicy.deviceOwnerAuthenticationWithWatch
    /// The newer name of `deviceOwnerAuthenticationWithBiometricsOrWatch`.
    public static let deviceOwnerAuthenticationWithBiometricsOrCompanion = LAPolicy.deviceOwnerAuthenticationWithBiometricsOrWatch

    /// The Latchkey policy, or nil when the policy needs a companion device.
    var latchkeyPolicy: LatchkeyAuthCore.Policy? {
        switch self {
        case .deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthenticationWithBiometricsOrWatch:
            .deviceOwnerAuthenticationWithBiometrics
        case .deviceOwnerAuthentication: .deviceOwnerAuthentication
        case .deviceOwnerAuthenticationWithWatch, .deviceOwnerAuthenticationWithWristDetection: nil
        }
    }
}

/// `LABiometryType`, with Apple's raw values.
public enum LABiometryType: Int, Sendable, Hashable {
    /// No biometric sensor (or `canEvaluatePolicy` not called yet).
    case none = 0
    /// Touch ID (on Linux: a fingerprint reader through PAM / fprintd, or the simulator).
    case touchID = 1
    /// Face ID (the simulator's default sensor).
    case faceID = 2
    /// Optic ID.
    case opticID = 4

    /// Deprecated name of `none`.
    public static let typeNone = LABiometryType.none
    /// Deprecated name of `none`.
    public static let LABiometryNone = LABiometryType.none

    init(_ type: LatchkeyAuthCore.BiometryType) {
        self = LABiometryType(rawValue: type.rawValue) ?? .none
    }
}

/// `LATouchIDAuthenticationMaximumAllowableReuseDuration`: 300 seconds.
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval = 300
#endif
