import Foundation
import Latchkey
import LatchkeyCrypto

/// Failures of `latchkey keychain` itself (the store's own errors are `KeychainStoreError`).
enum KeychainCLIError: Error, LocalizedError {
    case passphraseMismatch
    case emptyPassphrase
    case noPassphrase(fd: Int32)
    case noPassword
    case unsupported(String)

    var errorDescription: String? {
        let language = MessageLanguage.current
        switch self {
        case .passphraseMismatch:
            return language.pick(english: "The passphrases do not match.", korean: "암호가 서로 일치하지 않습니다.")
        case .emptyPassphrase:
            return language.pick(english: "The passphrase must not be empty.", korean: "암호는 비어 있을 수 없습니다.")
        case .noPassphrase(let fd):
            return language.pick(english: "No passphrase could be read from file descriptor \(fd).",
                                 korean: "파일 디스크립터 \(fd)에서 암호를 읽을 수 없습니다.")
        case .noPassword:
            return language.pick(english: "No password was given.", korean: "비밀번호가 입력되지 않았습니다.")
        case .unsupported(let what):
            return language.pick(english: "\(what) is not supported by this backend.",
                                 korean: "이 백엔드는 \(what)을(를) 지원하지 않습니다.")
        }
    }

    /// The exit code (see CLIUsage).
    var exitCode: Int32 {
        switch self {
        case .passphraseMismatch, .emptyPassphrase, .noPassphrase, .noPassword: 77
        case .unsupported: 64
        }
    }
}

/// Exit codes for store statuses (see CLIUsage): 44 not found, 45 duplicate, 65 bad input, 69 unavailable,
/// 77 authentication failed, canceled or locked, 1 anything else.
enum KeychainExitCode {
    static func code(for status: KeychainStatus) -> Int32 {
        switch status {
        case .itemNotFound: 44
        case .duplicateItem: 45
        case .param, .decode, .invalidKeychain, .dataTooLarge: 65
        case .notAvailable, .noSuchKeychain, .unimplemented: 69
        case .authFailed, .userCanceled, .interactionNotAllowed, .interactionRequired: 77
        default: 1
        }
    }
}
