import Foundation
import LatchkeyCrypto

/// Why the password form did not log in: a field it refused, or `PasswordLogin`'s error.
public enum PasswordFormError: Error, Sendable, Hashable {
    /// The user name is empty.
    case usernameMissing
    /// The password is empty.
    case passwordMissing
    /// A new password is shorter than `PasswordLogin.minimumPasswordLength`.
    case passwordTooShort(minimumLength: Int)
    /// The new password and its confirmation differ.
    case passwordsDoNotMatch
    /// `PasswordLogin` refused (invalid credentials, an account already exists, the keychain failed...).
    case login(PasswordLoginError)
}

extension PasswordFormError: LocalizedError {
    /// The message in the user's language (English or Korean).
    public var errorDescription: String? { message(in: .current) }

    /// The message in `language`.
    public func message(in language: MessageLanguage) -> String {
        switch self {
        case .usernameMissing:
            PasswordLoginError.invalidUsername.message(in: language)
        case .passwordMissing:
            language.pick(english: "Enter your password.", korean: "비밀번호를 입력하세요.")
        case .passwordTooShort(let minimum):
            PasswordLoginError.weakPassword(minimumLength: minimum).message(in: language)
        case .passwordsDoNotMatch:
            language.pick(english: "The passwords do not match.", korean: "비밀번호가 일치하지 않습니다.")
        case .login(let error):
            error.message(in: language)
        }
    }
}
