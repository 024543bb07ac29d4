import Foundation
import LatchkeyKeychainCore
import LatchkeyCrypto

/// What can go wrong talking to the freedesktop Secret Service (GNOME Keyring, KWallet, KeePassXC).
///
/// Texts never contain a secret: libsecret's and D-Bus's messages name objects, never secret values.
public enum SecretServiceError: Error, Equatable, Sendable {
    /// No session bus, or nobody owns `org.freedesktop.secrets` on it (no keyring daemon running).
    case unavailable(String)
    /// The collection or item is locked and unlocking would need a prompt (errSecInteractionNotAllowed).
    case locked
    /// The item or collection does not exist (any more).
    case noSuchObject
    /// An item with the same attributes already exists.
    case alreadyExists
    /// The user dismissed the keyring's prompt.
    case dismissed
    /// Any other failure, with libsecret's / GLib's domain, code and message.
    case failed(domain: String, code: Int32, message: String)
}

extension SecretServiceError: LocalizedError {
    public var errorDescription: String? {
        let language = MessageLanguage.current
        switch self {
        case .unavailable(let reason):
            return language.pick(english: "The Secret Service is not available: \(reason)",
                                 korean: "Secret Service를 사용할 수 없습니다: \(reason)")
        case .locked:
            return language.pick(english: "The keyring is locked and cannot be unlocked without user interaction.",
                                 korean: "키링이 잠겨 있으며 사용자 상호작용 없이는 잠금을 해제할 수 없습니다.")
        case .noSuchObject:
            return language.pick(english: "The keyring item does not exist.",
                                 korean: "키링 항목이 존재하지 않습니다.")
        case .alreadyExists:
            return language.pick(english: "A keyring item with these attributes already exists.",
                                 korean: "같은 속성을 가진 키링 항목이 이미 있습니다.")
        case .dismissed:
            return language.pick(english: "The keyring prompt was dismissed.",
                                 korean: "키링 확인 창이 닫혔습니다.")
        case .failed(let domain, let code, let message):
            return language.pick(english: "The Secret Service failed (\(domain) \(code)): \(message)",
                                 korean: "Secret Service 오류 (\(domain) \(code)): \(message)")
        }
    }
}
