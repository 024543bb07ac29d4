import Foundation
import LatchkeyCrypto

/// What a new password must satisfy (NIST SP 800-63B style: length, not composition rules).
public struct PasswordPolicy: Sendable, Equatable {
    /// Fewest characters (Unicode characters, not bytes).
    public var minimumLength: Int
    /// Most UTF-8 bytes (bounds the hashing work an attacker can ask for).
    public var maximumBytes: Int

    public init(minimumLength: Int = 8, maximumBytes: Int = 1024) {
        self.minimumLength = minimumLength
        self.maximumBytes = maximumBytes
    }

    /// Why `password` is refused for `username`, or nil when it is accepted.
    public func violation(password: String, username: String) -> PasswordPolicyViolation? {
        if password.utf8.count > maximumBytes { return .tooLong(maximumBytes: maximumBytes) }
        if password.count < minimumLength { return .tooShort(minimumLength: minimumLength) }
        if Username.key(password) == Username.key(username) { return .sameAsUsername }
        return nil
    }
}

/// Why a password was refused. The texts never repeat the password.
public enum PasswordPolicyViolation: Error, Sendable, Equatable {
    case tooShort(minimumLength: Int)
    case tooLong(maximumBytes: Int)
    case sameAsUsername
}

extension PasswordPolicyViolation: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .tooShort(let n):
            return lang.pick(english: "The password must have at least \(n) characters.",
                             korean: "비밀번호는 \(n)자 이상이어야 합니다.")
        case .tooLong(let n):
            return lang.pick(english: "The password must not exceed \(n) bytes.",
                             korean: "비밀번호는 \(n)바이트를 넘을 수 없습니다.")
        case .sameAsUsername:
            return lang.pick(english: "The password must differ from the user name.",
                             korean: "비밀번호는 사용자 이름과 달라야 합니다.")
        }
    }
}

extension PasswordPolicyViolation {
    /// The English text, for protocol bodies (`error_description`).
    var englishDescription: String {
        switch self {
        case .tooShort(let n): "The password must have at least \(n) characters."
        case .tooLong(let n): "The password must not exceed \(n) bytes."
        case .sameAsUsername: "The password must differ from the user name."
        }
    }
}
