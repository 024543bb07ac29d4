import Foundation
import LatchkeySupport

/// A simulator menu action that cannot be done.
public enum SimulatorError: Error, Sendable, Equatable {
    /// Enrolment needs a passcode first (as on iOS).
    case passcodeRequired
    /// The simulated device has no biometric sensor (`BiometryType.none`).
    case noBiometricHardware
    /// Biometry is not enrolled or is locked out, so the device cannot be unlocked with it.
    case biometryUnusable
    /// The control file could not be used.
    case stateFile(StateFileError)
}

extension SimulatorError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .passcodeRequired:
            return lang.pick(english: "Set a passcode before enrolling biometry.",
                             korean: "생체 정보를 등록하기 전에 암호를 설정하세요.")
        case .noBiometricHardware:
            return lang.pick(english: "The simulated device has no biometric sensor.",
                             korean: "시뮬레이션 기기에 생체 인식 센서가 없습니다.")
        case .biometryUnusable:
            return lang.pick(english: "Biometry is not enrolled or is locked out.",
                             korean: "생체 정보가 등록되지 않았거나 잠겨 있습니다.")
        case let .stateFile(error):
            return error.errorDescription
        }
    }
}
