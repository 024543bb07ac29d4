import Foundation
import LatchkeySupport

/// Why an evaluation failed, with `LAError.Code` raw values.
public enum AuthenticationError: Int, Error, Sendable, Hashable, CaseIterable, Codable {
    case authenticationFailed = -1
    case userCancel = -2
    case userFallback = -3
    case systemCancel = -4
    case passcodeNotSet = -5
    case biometryNotAvailable = -6
    case biometryNotEnrolled = -7
    case biometryLockout = -8
    case appCancel = -9
    case invalidContext = -10
    case notInteractive = -1004

    /// LAError's code (`LAError.Code.rawValue`).
    public var code: Int { rawValue }
}

extension AuthenticationError: LocalizedError {
    public var errorDescription: String? { AuthenticationErrorText.text(for: self, language: .current) }
}

package enum AuthenticationErrorText {
    package static func text(for error: AuthenticationError, language: MessageLanguage) -> String {
        switch (error, language) {
        case (.authenticationFailed, .english): "Authentication failed: the credentials did not match."
        case (.authenticationFailed, .korean): "인증에 실패했습니다. 자격 증명이 일치하지 않습니다."
        case (.userCancel, .english): "Authentication was canceled by the user."
        case (.userCancel, .korean): "사용자가 인증을 취소했습니다."
        case (.userFallback, .english): "The user chose the fallback option (enter password)."
        case (.userFallback, .korean): "사용자가 대체 수단(암호 입력)을 선택했습니다."
        case (.systemCancel, .english): "Authentication was canceled by the system."
        case (.systemCancel, .korean): "시스템이 인증을 취소했습니다."
        case (.passcodeNotSet, .english): "No passcode is set on this device."
        case (.passcodeNotSet, .korean): "이 기기에 암호가 설정되어 있지 않습니다."
        case (.biometryNotAvailable, .english): "Biometric authentication is not available on this device."
        case (.biometryNotAvailable, .korean): "이 기기에서는 생체 인증을 사용할 수 없습니다."
        case (.biometryNotEnrolled, .english): "No biometric identity is enrolled."
        case (.biometryNotEnrolled, .korean): "등록된 생체 정보가 없습니다."
        case (.biometryLockout, .english): "Biometry is locked after too many failed attempts; enter the passcode."
        case (.biometryLockout, .korean): "실패 횟수가 너무 많아 생체 인증이 잠겼습니다. 암호를 입력하세요."
        case (.appCancel, .english): "Authentication was canceled by the application."
        case (.appCancel, .korean): "앱이 인증을 취소했습니다."
        case (.invalidContext, .english): "The authentication context was invalidated."
        case (.invalidContext, .korean): "인증 컨텍스트가 무효화되었습니다."
        case (.notInteractive, .english): "Authentication needs user interaction, which is not allowed here."
        case (.notInteractive, .korean): "사용자 상호작용이 필요하지만 허용되지 않았습니다."
        }
    }
}
