import Foundation
import LatchkeyAuth
import LatchkeyCrypto

/// What went wrong in a device-owner authentication, in the terms a UI switches on.
public enum AuthError: Error, Sendable, Hashable, CaseIterable {
    /// The device has no biometric sensor (or it cannot be used).
    case notAvailable
    /// No face or finger is enrolled.
    case notEnrolled
    /// Too many failed attempts: biometry is locked until the passcode is entered.
    case lockout
    /// The user pressed Cancel.
    case userCancel
    /// The user chose the fallback button: show the app's own password entry.
    case userFallback
    /// The system canceled (another app came forward, the prompt timed out...).
    case systemCancel
    /// The app canceled (the context was invalidated while prompting).
    case appCancel
    /// The face, finger or passcode did not match.
    case failed
    /// The device has no passcode.
    case passcodeNotSet
    /// The context was invalidated earlier.
    case invalidContext
    /// A prompt was needed but interaction is not allowed.
    case notInteractive

    /// Maps LatchkeyAuth's LAError-style error.
    public init(_ error: AuthenticationError) {
        switch error {
        case .authenticationFailed: self = .failed
        case .userCancel: self = .userCancel
        case .userFallback: self = .userFallback
        case .systemCancel: self = .systemCancel
        case .passcodeNotSet: self = .passcodeNotSet
        case .biometryNotAvailable: self = .notAvailable
        case .biometryNotEnrolled: self = .notEnrolled
        case .biometryLockout: self = .lockout
        case .appCancel: self = .appCancel
        case .invalidContext: self = .invalidContext
        case .notInteractive: self = .notInteractive
        }
    }

    /// True for the cancellations a UI usually shows no error for.
    public var isCancellation: Bool { [.userCancel, .systemCancel, .appCancel].contains(self) }
}

extension AuthError: LocalizedError {
    /// The message in the user's language (English or Korean).
    public var errorDescription: String? { message(in: .current) }

    /// The message in `language`.
    public func message(in language: MessageLanguage) -> String {
        switch self {
        case .notAvailable:
            language.pick(english: "Biometric authentication is not available on this device.",
                          korean: "이 기기에서는 생체 인증을 사용할 수 없습니다.")
        case .notEnrolled:
            language.pick(english: "Set up Face ID or Touch ID in Settings to use this feature.",
                          korean: "이 기능을 사용하려면 설정에서 Face ID 또는 Touch ID를 등록하세요.")
        case .lockout:
            language.pick(english: "Too many failed attempts. Enter your passcode to re-enable biometrics.",
                          korean: "시도 횟수가 너무 많습니다. 생체 인증을 다시 사용하려면 암호를 입력하세요.")
        case .userCancel:
            language.pick(english: "Authentication was canceled.", korean: "인증이 취소되었습니다.")
        case .userFallback:
            language.pick(english: "Enter your password instead.", korean: "대신 비밀번호를 입력하세요.")
        case .systemCancel:
            language.pick(english: "Authentication was interrupted by the system. Try again.",
                          korean: "시스템에 의해 인증이 중단되었습니다. 다시 시도하세요.")
        case .appCancel:
            language.pick(english: "Authentication was stopped by the app.", korean: "앱이 인증을 중단했습니다.")
        case .failed:
            language.pick(english: "Authentication failed. Try again.", korean: "인증에 실패했습니다. 다시 시도하세요.")
        case .passcodeNotSet:
            language.pick(english: "Set a device passcode to use this feature.",
                          korean: "이 기능을 사용하려면 기기 암호를 설정하세요.")
        case .invalidContext:
            language.pick(english: "This authentication session has ended. Start again.",
                          korean: "인증 세션이 종료되었습니다. 다시 시작하세요.")
        case .notInteractive:
            language.pick(english: "Authentication needs your interaction, which is not possible right now.",
                          korean: "인증에 사용자 조작이 필요하지만 지금은 할 수 없습니다.")
        }
    }
}
