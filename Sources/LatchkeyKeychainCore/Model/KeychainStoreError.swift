import Foundation
import CryptoKit
import LatchkeyAuthCore
import LatchkeySupport

/// The error every item store throws: an Apple `OSStatus` plus, when known, a more specific reason.
///
/// Compare `status` with `KeychainStatus` constants (`error.status == .itemNotFound`). Messages never
/// contain secrets, service or account names.
public struct KeychainStoreError: Error, Sendable, Hashable {
    /// Apple's result code for this failure.
    public let status: KeychainStatus
    /// What exactly went wrong, when the store knows more than the status says.
    public let reason: Reason?

    /// Creates an error with a status and an optional reason.
    public init(_ status: KeychainStatus, _ reason: Reason? = nil) {
        self.status = status
        self.reason = reason
    }

    /// Specific causes behind a status.
    public enum Reason: Sendable, Hashable {
        /// A query dictionary key is unknown, has a value of the wrong type, or does not apply to the class.
        case malformedQuery(key: String)
        /// `kSecClass` is missing or unknown.
        case missingClass
        /// An access-control item needs an evaluated authentication context (the needed proofs are given).
        case authenticationRequired(AccessControlFlags)
        /// Adding or re-sealing an access-control item needs its application password (`.applicationPassword`), or
        /// a context that can give its domains' sealing keys — one over a device gives them without asking; one that
        /// knows a domain only through its secret needs the flags' domains proven first.
        case authenticationRequiredToSeal(AccessControlFlags)
        /// The application password given (or typed) does not open the item.
        case wrongApplicationPassword
        /// The access-control flags cannot be honoured here (a combination Apple refuses, or one needing a
        /// companion device, which Linux does not have).
        case unsupportedAccessControl
        /// The store is locked and the item needs it unlocked.
        case locked
        /// The passphrase or OS key did not unwrap the vault key.
        case wrongPassphrase
        /// No key provider / passphrase is configured for this vault, or the OS key is gone.
        case noVaultKey
        /// The vault file is not a Latchkey vault, is truncated, or fails its integrity checks.
        case corruptVault(String)
        /// A stored item failed authentication (tampered with, swapped, or sealed under another key).
        case corruptItem
        /// SQLite reported an error (its extended result code).
        case sqlite(code: Int32)
        /// A system call failed (errno).
        case system(errno: Int32)
        /// A backup could not be read or was sealed with another passphrase.
        case invalidBackup
        /// The vault's key is protected only by these, none of which the chosen store can use here; the
        /// vault was left untouched (never re-wrapped by a weaker key).
        case protectedElsewhere([VaultProtection])
        /// The login keyring was asked for (`LATCHKEY_KEYCHAIN=keyring`) but no Secret Service runs.
        case keyringNotRunning
        /// The device key file cannot be used.
        case deviceKeyFile(path: String, DeviceKeyFileProblem)
        /// `LATCHKEY_KEYCHAIN` (or the configuration) names no known store.
        case unknownStoreChoice(String)
    }

    /// What is wrong with a device key file (see `DeviceKeyFileProvider`).
    public enum DeviceKeyFileProblem: Sendable, Hashable {
        /// It is readable or writable by other users (the mode is given).
        case readableByOthers(mode: UInt32)
        /// It belongs to another user.
        case wrongOwner
        /// It is not a regular file (a directory, a symbolic link...).
        case notRegularFile
        /// It does not hold exactly 32 bytes.
        case wrongSize
        /// It vanished while being created.
        case missing
    }
}

extension KeychainStoreError {
    /// errSecDuplicateItem.
    public static let duplicateItem = KeychainStoreError(.duplicateItem)
    /// errSecItemNotFound.
    public static let itemNotFound = KeychainStoreError(.itemNotFound)
    /// errSecInteractionNotAllowed.
    public static let interactionNotAllowed = KeychainStoreError(.interactionNotAllowed)
    /// errSecAuthFailed.
    public static let authFailed = KeychainStoreError(.authFailed)
    /// errSecUserCanceled.
    public static let userCanceled = KeychainStoreError(.userCanceled)
    /// errSecParam.
    public static let param = KeychainStoreError(.param)
    /// errSecParam for a malformed query key.
    public static func malformed(_ key: String) -> KeychainStoreError { KeychainStoreError(.param, .malformedQuery(key: key)) }
}

extension KeychainStoreError {
    /// What an authentication context must prove before the failed operation can succeed: set for
    /// errSecInteractionNotAllowed with reason `.authenticationRequired` (open) or `.authenticationRequiredToSeal`
    /// (add, re-seal); nil for every other error.
    public var accessRequirement: AccessRequirement? {
        guard status == .interactionNotAllowed else { return nil }
        switch reason {
        case let .authenticationRequired(flags): return AccessControl(accessibility: .whenUnlocked, flags: flags).requirement
        case let .authenticationRequiredToSeal(flags):
            return AccessControl(accessibility: .whenUnlocked, flags: flags).sealingRequirement
        default: return nil
        }
    }
}

extension KeychainStoreError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        var text = KeychainStoreErrorText.status(status, lang)
        if let reason { text += " " + KeychainStoreErrorText.reason(reason, lang) }
        return text
    }
}

package enum KeychainStoreErrorText {
    package static func status(_ status: KeychainStatus, _ l: MessageLanguage) -> String {
        let body: String
        switch status {
        case .success: body = l.pick(english: "No error.", korean: "오류가 없습니다.")
        case .unimplemented: body = l.pick(english: "The operation is not implemented.", korean: "구현되지 않은 작업입니다.")
        case .diskFull: body = l.pick(english: "The disk is full.", korean: "디스크가 가득 찼습니다.")
        case .io: body = l.pick(english: "An I/O error occurred.", korean: "입출력 오류가 발생했습니다.")
        case .param: body = l.pick(english: "One or more parameters are not valid.", korean: "하나 이상의 매개변수가 올바르지 않습니다.")
        case .allocate: body = l.pick(english: "Memory could not be allocated.", korean: "메모리를 할당할 수 없습니다.")
        case .userCanceled: body = l.pick(english: "The user canceled the operation.", korean: "사용자가 작업을 취소했습니다.")
        case .authFailed: body = l.pick(english: "Authentication failed.", korean: "인증에 실패했습니다.")
        case .duplicateItem: body = l.pick(english: "The item already exists in the keychain.", korean: "키체인에 항목이 이미 있습니다.")
        case .itemNotFound: body = l.pick(english: "The item could not be found in the keychain.", korean: "키체인에서 항목을 찾을 수 없습니다.")
        case .dataTooLarge: body = l.pick(english: "The data is too large.", korean: "데이터가 너무 큽니다.")
        case .interactionNotAllowed: body = l.pick(english: "User interaction is not allowed (the keychain is locked or the item needs authentication).",
                                                   korean: "사용자 상호작용이 허용되지 않습니다 (키체인이 잠겨 있거나 항목에 인증이 필요합니다).")
        case .decode: body = l.pick(english: "Unable to decode the stored data.", korean: "저장된 데이터를 해독할 수 없습니다.")
        case .missingEntitlement: body = l.pick(english: "A required entitlement is missing.", korean: "필요한 권한이 없습니다.")
        case .notAvailable: body = l.pick(english: "No keychain is available.", korean: "사용할 수 있는 키체인이 없습니다.")
        case .invalidKeychain: body = l.pick(english: "The keychain file is not valid.", korean: "키체인 파일이 올바르지 않습니다.")
        default: body = l.pick(english: "The keychain operation failed.", korean: "키체인 작업에 실패했습니다.")
        }
        return "\(body) (\(status.name), \(status.rawValue))"
    }

    package static func reason(_ reason: KeychainStoreError.Reason, _ l: MessageLanguage) -> String {
        switch reason {
        case let .malformedQuery(key):
            return l.pick(english: "Malformed query attribute \"\(key)\".", korean: "쿼리 속성 \"\(key)\"의 형식이 잘못되었습니다.")
        case .missingClass:
            return l.pick(english: "The item class (kSecClass) is missing or unknown.", korean: "항목 클래스(kSecClass)가 없거나 알 수 없습니다.")
        case .authenticationRequired:
            return l.pick(english: "The item needs a successful authentication first.", korean: "이 항목은 먼저 인증에 성공해야 합니다.")
        case .authenticationRequiredToSeal:
            return l.pick(english: "Protecting the item needs every authentication its access control names first.",
                          korean: "항목을 보호하려면 먼저 접근 제어에 지정된 모든 인증에 성공해야 합니다.")
        case .wrongApplicationPassword:
            return l.pick(english: "The application password does not open the item.",
                          korean: "애플리케이션 암호로 항목을 열 수 없습니다.")
        case .unsupportedAccessControl:
            return l.pick(english: "These access-control flags are not supported here (an invalid combination, or a companion device, which Linux does not have).",
                          korean: "여기서는 지원되지 않는 접근 제어 플래그입니다 (잘못된 조합이거나, Linux에는 없는 동반 기기가 필요합니다).")
        case .locked:
            return l.pick(english: "The keychain is locked.", korean: "키체인이 잠겨 있습니다.")
        case .wrongPassphrase:
            return l.pick(english: "The passphrase or key is wrong.", korean: "암호 또는 키가 올바르지 않습니다.")
        case .noVaultKey:
            return l.pick(english: "No key is available to unlock the vault.", korean: "보관소를 열 키가 없습니다.")
        case let .corruptVault(what):
            return l.pick(english: "The vault file is damaged or not a vault (\(what)); it was left untouched. To start over, move it "
                          + "aside (with its -wal file) and restore your items from a backup.",
                          korean: "보관소 파일이 손상되었거나 보관소가 아닙니다 (\(what)). 파일은 그대로 두었습니다. 새로 시작하려면 "
                          + "이 파일을 (-wal 파일과 함께) 다른 곳으로 옮기고 백업에서 항목을 복원하세요.")
        case .corruptItem:
            return l.pick(english: "A stored item failed its integrity check.", korean: "저장된 항목의 무결성 검사에 실패했습니다.")
        case let .sqlite(code) where code & 0xff == 13 || code & 0xff == 10: // SQLITE_FULL, SQLITE_IOERR
            return l.pick(english: "Writing the vault file failed (disk full, file size limit or I/O error, SQLite \(code)): the change was not saved; items saved earlier are intact. Free space and try again.",
                          korean: "보관소 파일 쓰기에 실패했습니다 (디스크 가득 참, 파일 크기 제한 또는 입출력 오류, SQLite \(code)): 변경 사항은 저장되지 않았고 이전에 저장된 항목은 그대로입니다. 공간을 확보한 뒤 다시 시도하세요.")
        case let .sqlite(code):
            return l.pick(english: "SQLite error \(code).", korean: "SQLite 오류 \(code).")
        case let .system(errno):
            return l.pick(english: "System error \(errno).", korean: "시스템 오류 \(errno).")
        case .invalidBackup:
            return l.pick(english: "The backup is damaged or the backup passphrase is wrong.", korean: "백업이 손상되었거나 백업 암호가 올바르지 않습니다.")
        case let .protectedElsewhere(protections):
            return protectedElsewhere(protections, l)
        case .keyringNotRunning:
            return l.pick(english: "LATCHKEY_KEYCHAIN=keyring was chosen, but no login keyring (Secret Service) runs on the session bus. Start one (gnome-keyring-daemon in a D-Bus session), or choose LATCHKEY_KEYCHAIN=file or passphrase.",
                          korean: "LATCHKEY_KEYCHAIN=keyring이 선택되었지만 세션 버스에 로그인 키링(Secret Service)이 실행 중이지 않습니다. D-Bus 세션에서 gnome-keyring-daemon을 시작하거나 LATCHKEY_KEYCHAIN=file 또는 passphrase를 선택하세요.")
        case let .deviceKeyFile(path, problem):
            return deviceKeyFile(path, problem, l)
        case let .unknownStoreChoice(value):
            return l.pick(english: "Unknown keychain store \"\(value)\" (LATCHKEY_KEYCHAIN): use keyring, file, memory or passphrase.",
                          korean: "알 수 없는 키체인 저장소 \"\(value)\" (LATCHKEY_KEYCHAIN): keyring, file, memory, passphrase 중 하나를 사용하세요.")
        }
    }

    package static func protectedElsewhere(_ protections: [VaultProtection], _ l: MessageLanguage) -> String {
        let english = protections.map { $0.displayName(.english) }.joined(separator: ", ")
        let korean = protections.map { $0.displayName(.korean) }.joined(separator: ", ")
        var fixEnglish: [String] = []
        var fixKorean: [String] = []
        if protections.contains(.keyring) {
            fixEnglish.append("open it where that login keyring runs (a desktop session, or gnome-keyring-daemon started in a D-Bus session)")
            fixKorean.append("해당 로그인 키링이 실행되는 곳(데스크톱 세션, 또는 D-Bus 세션에서 시작한 gnome-keyring-daemon)에서 여세요")
        }
        if protections.contains(.passphrase) {
            fixEnglish.append("unlock it with its passphrase (LATCHKEY_KEYCHAIN=passphrase, or `latchkey keychain unlock`)")
            fixKorean.append("암호로 잠금을 해제하세요 (LATCHKEY_KEYCHAIN=passphrase 또는 `latchkey keychain unlock`)")
        }
        if protections.contains(.deviceKey) {
            fixEnglish.append("open it with its device key file (LATCHKEY_KEYCHAIN=file, LATCHKEY_DEVICE_KEY_PATH)")
            fixKorean.append("기기 키 파일로 여세요 (LATCHKEY_KEYCHAIN=file, LATCHKEY_DEVICE_KEY_PATH)")
        }
        fixEnglish.append("or use another vault file (LATCHKEY_KEYCHAIN_PATH)")
        fixKorean.append("또는 다른 보관소 파일을 사용하세요 (LATCHKEY_KEYCHAIN_PATH)")
        return l.pick(
            english: "This vault's key is protected by \(english), which cannot be used here; the vault was left untouched and was not re-protected with a weaker key. To open it: \(fixEnglish.joined(separator: "; ")).",
            korean: "이 보관소의 키는 \(korean)(으)로 보호되어 있어 여기서는 사용할 수 없습니다. 보관소는 그대로 두었고 더 약한 키로 다시 보호하지 않았습니다. 여는 방법: \(fixKorean.joined(separator: "; ")).")
    }

    package static func deviceKeyFile(_ path: String, _ problem: KeychainStoreError.DeviceKeyFileProblem, _ l: MessageLanguage) -> String {
        switch problem {
        case let .readableByOthers(mode):
            let octal = String(mode, radix: 8)
            return l.pick(english: "The device key file \(path) is accessible to other users (mode \(octal)); it was not used. Run `chmod 600 \(path)` if only you should have it.",
                          korean: "기기 키 파일 \(path)에 다른 사용자가 접근할 수 있어(모드 \(octal)) 사용하지 않았습니다. 본인만 가져야 한다면 `chmod 600 \(path)`를 실행하세요.")
        case .wrongOwner:
            return l.pick(english: "The device key file \(path) belongs to another user; it was not used.",
                          korean: "기기 키 파일 \(path)의 소유자가 다른 사용자여서 사용하지 않았습니다.")
        case .notRegularFile:
            return l.pick(english: "The device key path \(path) is not a regular file (a link or a directory); it was not used.",
                          korean: "기기 키 경로 \(path)가 일반 파일이 아니어서(링크 또는 디렉터리) 사용하지 않았습니다.")
        case .wrongSize:
            return l.pick(english: "The device key file \(path) does not hold a 32-byte key; it was left untouched.",
                          korean: "기기 키 파일 \(path)에 32바이트 키가 없습니다. 파일은 그대로 두었습니다.")
        case .missing:
            return l.pick(english: "The device key file \(path) could not be created.",
                          korean: "기기 키 파일 \(path)을(를) 만들 수 없습니다.")
        }
    }
}
