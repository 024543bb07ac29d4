import Foundation
import Latchkey
import LatchkeyCrypto

/// Failures of `latchkey keychain` itself (the store's own errors are `KeychainStoreError`).
enum KeychainCLIError: Error, LocalizedError {
    case passphraseMismatch
    case emptyPassphrase
    case noPassphrase(fd: Int32)
    case noPassword
    case passphraseUnavailable(vault: String, isNew: Bool)
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
        case let .passphraseUnavailable(vault, isNew):
            let needEnglish = isNew ? "A new passphrase vault is to be created at \(vault)" : "The vault \(vault) is protected by a passphrase"
            let needKorean = isNew ? "\(vault)에 새 암호 보관소를 만들어야 하지만" : "\(vault) 보관소는 암호로 보호되어 있지만"
            return language.pick(
                english: """
                \(needEnglish), and no passphrase could be read: standard input is not a terminal and no --passphrase-fd was given. Three ways out:
                  1. pass the passphrase on a file descriptor: latchkey keychain --passphrase-fd 3 … 3<passphrase-file
                  2. run the command in a terminal to be asked (or run `latchkey keychain unlock` there first: the vault then stays open for 15 minutes)
                  3. use a store that needs no passphrase: start a login keyring (gnome-keyring-daemon in a D-Bus session), or, for a new vault, LATCHKEY_KEYCHAIN=file (the device key file)
                """,
                korean: """
                \(needKorean) 암호를 읽을 수 없습니다: 표준 입력이 터미널이 아니고 --passphrase-fd도 주어지지 않았습니다. 해결 방법 세 가지:
                  1. 파일 디스크립터로 암호 전달: latchkey keychain --passphrase-fd 3 … 3<암호-파일
                  2. 터미널에서 실행하여 입력 (또는 먼저 터미널에서 `latchkey keychain unlock` 실행: 15분 동안 열린 상태 유지)
                  3. 암호가 필요 없는 저장소 사용: 로그인 키링 시작(D-Bus 세션의 gnome-keyring-daemon), 또는 새 보관소라면 LATCHKEY_KEYCHAIN=file (기기 키 파일)
                """)
        case .unsupported(let what):
            return language.pick(english: "\(what) is not supported by this backend.",
                                 korean: "이 백엔드는 \(what)을(를) 지원하지 않습니다.")
        }
    }

    /// The exit code (see CLIUsage).
    var exitCode: Int32 {
        switch self {
        case .passphraseMismatch, .emptyPassphrase, .noPassphrase, .noPassword, .passphraseUnavailable: 77
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
