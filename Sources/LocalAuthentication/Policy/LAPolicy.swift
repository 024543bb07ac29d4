#if os(Linux)
import Foundation
import LatchkeyAuthCore
import LatchkeyAuthLinux

/// `LAPolicy`, with Apple's raw values.
@available(macOS 10.10, iOS 8.0, watchOS 3.0, *)
@available(tvOS, unavailable)
public enum LAPolicy: Int, Sendable, Hashable {
    /// Biometrics only.
    @available(macOS 10.12.2, *)
    @available(watchOS, unavailable)
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometrics, then the passcode (on Linux: the account password through PAM, or the simulator's passcode).
    @available(macOS 10.11, iOS 9.0, *)
    case deviceOwnerAuthentication = 2
    /// A paired watch / companion: no such device exists on Linux (`companionNotAvailable`).
    @available(macOS, introduced: 10.15, deprecated: 15.0)
    @available(macCatalyst, deprecated: 18.0)
    @available(iOS, unavailable)
    @available(watchOS, unavailable)
    case deviceOwnerAuthenticationWithWatch = 3
    /// Biometrics or a watch: evaluated as biometrics on Linux.
    @available(macOS, introduced: 10.15, deprecated: 15.0)
    @available(macCatalyst, deprecated: 18.0)
    @available(iOS, unavailable)
    @available(watchOS, unavailable)
    case deviceOwnerAuthenticationWithBiometricsOrWatch = 4
    /// Wrist detection: not available on Linux (`companionNotAvailable`).
    @available(watchOS 9.0, *)
    @available(macOS, unavailable)
    @available(iOS, unavailable)
    case deviceOwnerAuthenticationWithWristDetection = 5

    /// The newer name of `deviceOwnerAuthenticationWithWatch`.
    @available(macOS 15.0, iOS 18.0, *)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    public static let deviceOwnerAuthenticationWithCompanion = LAPolicy.deviceOwnerAuthenticationWithWatch
    /// The newer name of `deviceOwnerAuthenticationWithBiometricsOrWatch`.
    @available(macOS 15.0, iOS 18.0, *)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
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
@available(macOS 10.13.2, iOS 11.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public enum LABiometryType: Int, Sendable, Hashable {
    /// No biometric sensor (or `canEvaluatePolicy` not called yet).
    @available(iOS 11.2, *)
    case none = 0
    /// Touch ID (on Linux: a fingerprint reader through PAM / fprintd, or the simulator).
    case touchID = 1
    /// Face ID (the simulator's default sensor).
    @available(macOS 10.15, *)
    case faceID = 2
    /// Optic ID.
    @available(macOS 14.0, iOS 17.0, *)
    case opticID = 4

    /// Deprecated name of `none`.
    @available(macOS, introduced: 10.13.2, deprecated: 10.13.2)
    @available(iOS, introduced: 11.0, deprecated: 11.2)
    public static let typeNone = LABiometryType.none
    /// Deprecated name of `none`.
    @available(macOS, introduced: 10.13.2, deprecated: 10.13.2)
    @available(iOS, introduced: 11.0, deprecated: 11.2)
    public static let LABiometryNone = LABiometryType.none

    init(_ type: LatchkeyAuthCore.BiometryType) {
        self = LABiometryType(rawValue: type.rawValue) ?? .none
    }
}

/// `LATouchIDAuthenticationMaximumAllowableReuseDuration`: 300 seconds.
@available(macOS 10.12, iOS 9.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval = 300
#endif
