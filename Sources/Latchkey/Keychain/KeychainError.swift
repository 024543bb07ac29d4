import Foundation
import LatchkeyCrypto
import LatchkeyKeychain

/// The errors of the app-facing ``Keychain``, with English and Korean descriptions.
///
/// Each case corresponds to an `OSStatus` of Keychain Services (``status``). Descriptions never contain
/// keys, values, services or accounts.
public enum KeychainError: Error, Sendable, Hashable {
    /// An item with this key already exists (errSecDuplicateItem, -25299).
    case duplicateEntry
    /// No item has this key (errSecItemNotFound, -25300).
    case itemNotFound
    /// The stored bytes are not what was asked for (not UTF-8, not the `Decodable` type) or a value could not
    /// be encoded (errSecInvalidData / errSecDecode).
    case invalidData
    /// The keychain is locked, or the item needs an authentication that may not prompt here
    /// (errSecInteractionNotAllowed, -25308).
    case interactionNotAllowed
    /// The authentication the item needs failed (errSecAuthFailed, -25293).
    case authenticationFailed
    /// The user canceled the authentication (errSecUserCanceled, -128).
    case userCanceled
    /// Any other `OSStatus` from the store (for example errSecParam -50 or errSecNotAvailable -25291).
    case unexpectedStatus(Int32)

    /// The `OSStatus` value this error stands for.
    public var status: Int32 {
        switch self {
        case .duplicateEntry: KeychainStatus.duplicateItem.rawValue
        case .itemNotFound: KeychainStatus.itemNotFound.rawValue
        case .invalidData: KeychainStatus.invalidData.rawValue
        case .interactionNotAllowed: KeychainStatus.interactionNotAllowed.rawValue
        case .authenticationFailed: KeychainStatus.authFailed.rawValue
        case .userCanceled: KeychainStatus.userCanceled.rawValue
        case .unexpectedStatus(let status): status
        }
    }

    /// The error for a store status.
    public init(status: KeychainStatus) {
        switch status {
        case .duplicateItem: self = .duplicateEntry
        case .itemNotFound: self = .itemNotFound
        case .invalidData, .decode: self = .invalidData
        case .interactionNotAllowed: self = .interactionNotAllowed
        case .authFailed: self = .authenticationFailed
        case .userCanceled: self = .userCanceled
        default: self = .unexpectedStatus(status.rawValue)
        }
    }

    /// The error for a store error.
    public init(_ error: KeychainStoreError) {
        self.init(status: error.status)
    }
}

extension KeychainError: LocalizedError {
    public var errorDescription: String? {
        let language = MessageLanguage.current
        switch self {
        case .duplicateEntry:
            return language.pick(english: "An item with this key already exists in the keychain.",
                                 korean: "키체인에 같은 키의 항목이 이미 있습니다.")
        case .itemNotFound:
            return language.pick(english: "The item could not be found in the keychain.",
                                 korean: "키체인에서 항목을 찾을 수 없습니다.")
        case .invalidData:
            return language.pick(english: "The keychain item's data is not in the expected format.",
                                 korean: "키체인 항목의 데이터가 예상한 형식이 아닙니다.")
        case .interactionNotAllowed:
            return language.pick(
                english: "The keychain is locked or the item needs authentication that cannot be requested now.",
                korean: "키체인이 잠겨 있거나 지금 요청할 수 없는 인증이 항목에 필요합니다.")
        case .authenticationFailed:
            return language.pick(english: "Authentication for the keychain item failed.",
                                 korean: "키체인 항목 인증에 실패했습니다.")
        case .userCanceled:
            return language.pick(english: "The authentication was canceled.",
                                 korean: "인증이 취소되었습니다.")
        case .unexpectedStatus(let status):
            let name = KeychainStatus(status).name
            return language.pick(english: "The keychain operation failed (\(name), \(status)).",
                                 korean: "키체인 작업에 실패했습니다 (\(name), \(status)).")
        }
    }
}
