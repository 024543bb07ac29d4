import Foundation
import LatchkeyCrypto

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
        /// The access-control flags cannot be honoured here (companion, applicationPassword, `.or` with `.and`).
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

extension KeychainStoreError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        var text = KeychainStoreErrorText.status(status, lang)
        if let reason { text += " " + KeychainStoreErrorText.reason(reason, lang) }
        return text
    }
}

enum KeychainStoreErrorText {
    static func status(_ status: KeychainStatus, _ l: MessageLanguage) -> String {
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

    static func reason(_ reason: KeychainStoreError.Reason, _ l: MessageLanguage) -> String {
        switch reason {
        case let .malformedQuery(key):
            return l.pick(english: "Malformed query attribute \"\(key)\".", korean: "쿼리 속성 \"\(key)\"의 형식이 잘못되었습니다.")
        case .missingClass:
            return l.pick(english: "The item class (kSecClass) is missing or unknown.", korean: "항목 클래스(kSecClass)가 없거나 알 수 없습니다.")
        case .authenticationRequired:
            return l.pick(english: "The item needs a successful authentication first.", korean: "이 항목은 먼저 인증에 성공해야 합니다.")
        case .unsupportedAccessControl:
            return l.pick(english: "These access-control flags are not supported.", korean: "지원되지 않는 접근 제어 플래그입니다.")
        case .locked:
            return l.pick(english: "The keychain is locked.", korean: "키체인이 잠겨 있습니다.")
        case .wrongPassphrase:
            return l.pick(english: "The passphrase or key is wrong.", korean: "암호 또는 키가 올바르지 않습니다.")
        case .noVaultKey:
            return l.pick(english: "No key is available to unlock the vault.", korean: "보관소를 열 키가 없습니다.")
        case let .corruptVault(what):
            return l.pick(english: "The vault file is damaged or not a vault (\(what)); it was left untouched.",
                          korean: "보관소 파일이 손상되었거나 보관소가 아닙니다 (\(what)). 파일은 그대로 두었습니다.")
        case .corruptItem:
            return l.pick(english: "A stored item failed its integrity check.", korean: "저장된 항목의 무결성 검사에 실패했습니다.")
        case let .sqlite(code):
            return l.pick(english: "SQLite error \(code).", korean: "SQLite 오류 \(code).")
        case let .system(errno):
            return l.pick(english: "System error \(errno).", korean: "시스템 오류 \(errno).")
        case .invalidBackup:
            return l.pick(english: "The backup is damaged or the backup passphrase is wrong.", korean: "백업이 손상되었거나 백업 암호가 올바르지 않습니다.")
        }
    }
}
