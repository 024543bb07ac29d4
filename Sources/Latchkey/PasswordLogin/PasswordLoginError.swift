import Foundation
import LatchkeyCrypto

/// Why a password-login operation failed.
public enum PasswordLoginError: Error, Sendable, Hashable {
    /// No account has been created yet.
    case noAccount
    /// An account already exists (one per app install).
    case accountExists
    /// The user name is empty.
    case invalidUsername
    /// The password is shorter than the policy's minimum length.
    case weakPassword(minimumLength: Int)
    /// The user name or the password did not match (the message does not say which).
    case invalidCredentials
    /// Too many failed attempts: wait this many seconds before trying again.
    case throttled(retryAfter: Int)
    /// Biometric login is not set up, or biometric enrolment changed since it was (log in with the password).
    case biometricShortcutUnavailable
    /// The biometric prompt did not succeed.
    case biometric(AuthError)
    /// The keychain failed (its OSStatus).
    case keychain(Int32)
    /// Hashing failed (libsodium).
    case hashing
}

extension PasswordLoginError: LocalizedError {
    /// The message in the user's language (English or Korean).
    public var errorDescription: String? { message(in: .current) }

    /// The message in `language`.
    public func message(in language: MessageLanguage) -> String {
        switch self {
        case .noAccount:
            return language.pick(english: "No account exists yet; create one first.",
                                 korean: "아직 계정이 없습니다. 먼저 계정을 만드세요.")
        case .accountExists:
            return language.pick(english: "An account already exists on this device.",
                                 korean: "이 기기에 이미 계정이 있습니다.")
        case .invalidUsername:
            return language.pick(english: "Enter a user name.", korean: "사용자 이름을 입력하세요.")
        case .weakPassword(let minimum):
            return language.pick(english: "The password must be at least \(minimum) characters long.",
                                 korean: "비밀번호는 \(minimum)자 이상이어야 합니다.")
        case .invalidCredentials:
            return language.pick(english: "The user name or password is incorrect.",
                                 korean: "사용자 이름 또는 비밀번호가 올바르지 않습니다.")
        case .throttled(let seconds):
            return language.pick(english: "Too many failed attempts. Try again in \(seconds) seconds.",
                                 korean: "실패 횟수가 너무 많습니다. \(seconds)초 후에 다시 시도하세요.")
        case .biometricShortcutUnavailable:
            return language.pick(english: "Biometric login is not available; log in with your password.",
                                 korean: "생체 인증 로그인을 사용할 수 없습니다. 비밀번호로 로그인하세요.")
        case .biometric(let error):
            return error.message(in: language)
        case .keychain(let status):
            return language.pick(english: "The keychain failed (OSStatus \(status)).",
                                 korean: "키체인 오류가 발생했습니다 (OSStatus \(status)).")
        case .hashing:
            return language.pick(english: "The password could not be processed.",
                                 korean: "비밀번호를 처리할 수 없습니다.")
        }
    }
}
