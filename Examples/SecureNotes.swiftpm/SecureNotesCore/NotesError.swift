import Foundation
import Latchkey
import LatchkeyCrypto

/// Why a note could not be read, saved or deleted. Texts in English and Korean; none quotes a note.
public enum NotesError: Error, Sendable, Hashable {
    /// A note needs a title.
    case emptyTitle
    /// The title is longer than `maximum` characters.
    case titleTooLong(maximum: Int)
    /// No such note.
    case notFound
    /// Opening or sealing a locked note needed Face ID or the passcode, and it did not happen.
    case authentication(AuthError)
    /// The device owner was proven, yet the locked text does not open any more (its protection is gone).
    case lockedTextLost
    /// The keychain refused.
    case keychain(KeychainError)

    /// The error a protected item's failure becomes.
    init(_ error: ProtectedItemError) {
        switch error {
        case .authentication(let failure): self = .authentication(failure)
        case .notFound: self = .notFound
        case .invalidatedByEnrollmentChange: self = .lockedTextLost
        case .keychain(let status): self = .keychain(KeychainError(status: status))
        }
    }

    /// Whether the app shows it: not when the user cancelled the prompt.
    public var shouldShowToUser: Bool {
        if case .authentication(let failure) = self { return !failure.isCancellation }
        return true
    }

    /// The text in `language`.
    public func message(in language: MessageLanguage) -> String {
        switch self {
        case .emptyTitle:
            language.pick(english: "Give the note a title.", korean: "메모 제목을 입력하세요.")
        case .titleTooLong(let maximum):
            language.pick(english: "The title is longer than \(maximum) characters.",
                          korean: "제목이 \(maximum)자보다 깁니다.")
        case .notFound:
            language.pick(english: "The note no longer exists.", korean: "메모가 더 이상 없습니다.")
        case .authentication(let failure):
            failure.message(in: language)
        case .lockedTextLost:
            language.pick(english: "This locked note can no longer be opened on this device.",
                          korean: "이 잠긴 메모는 이 기기에서 더 이상 열 수 없습니다.")
        case .keychain(let error):
            language.pick(english: "The keychain refused (\(error.status)). Unlock the device and try again.",
                          korean: "키체인이 거부했습니다 (\(error.status)). 기기 잠금을 해제한 후 다시 시도하세요.")
        }
    }
}

extension NotesError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }
}
