import Foundation
import LatchkeyCrypto

/// Why an `AccountManager` call did not complete. `.canceled` is the user closing the re-authentication (a password
/// prompt, the passkey sheet, Sign in with Apple): not a failure to show (`shouldShowToUser` is false).
public enum AccountManagerError: Error, Sendable, Hashable {
    /// No tokens are stored, or the server no longer knows the session (it was ended, or the account deleted): sign in.
    case notSignedIn
    /// The stored tokens could not be read or refreshed (`TokenManager`'s error other than `.loggedOut`).
    case tokens(TokenManagerError)
    /// The server could not be reached.
    case network(String)
    /// The user closed the re-authentication the server asked for.
    case canceled
    /// The re-authentication the server asked for failed: its error's text.
    case reauthenticationFailed(String)
    /// The server still asked for a recent sign-in after one re-authentication (`max_age` seconds, when it said).
    case reauthenticationRequired(maxAge: Int?)
    /// The session to end is not one of this account's (or is already gone).
    case sessionNotFound
    /// The current password was wrong.
    case incorrectPassword
    /// The server refused the new password (its reason, in English, when it gave one).
    case weakPassword(String?)
    /// The server refused the request for another reason.
    case rejected(status: Int, error: String, description: String?)
    /// The server's answer was not what the API describes (what was expected).
    case badResponse(String)
    /// The account is gone from the server, but some of what it left on this device could not be removed (each
    /// item's name and reason): call `AccountManager.clearDeviceData()` again.
    case deviceDataNotCleared([String])

    /// Whether a UI should show this error (not for a cancellation).
    public var shouldShowToUser: Bool { self != .canceled }

    /// The error a failed re-authentication (a `AccountReauthentication`'s sign-in) becomes: cancellations of the
    /// kit's and Apple's sign-ins are `.canceled`, this type's own errors stay as they are.
    /// A password sign-in's failure as the account's: wrong credentials are `.incorrectPassword`, an ended session
    /// (the step-up's Bearer refused) `.notSignedIn`.
    init(_ error: PasswordSessionError) {
        switch error {
        case .network(let why): self = .network(why)
        case .invalidCredentials: self = .incorrectPassword
        case .throttled(let seconds):
            self = .rejected(status: 429, error: "slow_down", description: seconds.map { "Retry after \($0) seconds." })
        case .rejected(401, "invalid_token", _): self = .notSignedIn
        case let .rejected(status, error, description): self = .rejected(status: status, error: error, description: description)
        case .badResponse: self = .badResponse("token response")
        case .canceled: self = .canceled
        }
    }

    init(reauthentication error: any Error) {
        if let error = error as? AccountManagerError {
            self = error
        } else if SignInScreenError(classifying: error).isCancellation {
            self = .canceled
        } else {
            self = .reauthenticationFailed(error.localizedDescription)
        }
    }
}

extension AccountManagerError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }

    /// The text in `language`.
    public func message(in language: MessageLanguage) -> String {
        switch self {
        case .notSignedIn:
            language.pick(english: "You are signed out. Sign in and try again.",
                          korean: "로그아웃되었습니다. 로그인한 후 다시 시도하세요.")
        case .tokens(let error):
            error.errorDescription ?? "\(error)"
        case .network(let why):
            language.pick(english: "Could not reach the server: \(why)", korean: "서버에 연결할 수 없습니다: \(why)")
        case .canceled:
            language.pick(english: "Canceled.", korean: "취소되었습니다.")
        case .reauthenticationFailed(let why):
            language.pick(english: "Confirming it's you failed: \(why)", korean: "본인 확인에 실패했습니다: \(why)")
        case .reauthenticationRequired:
            language.pick(english: "The server asks you to sign in again before this change. Try again.",
                          korean: "이 변경을 하려면 서버가 다시 로그인하도록 요청합니다. 다시 시도하세요.")
        case .sessionNotFound:
            language.pick(english: "That session has already ended.", korean: "해당 세션은 이미 종료되었습니다.")
        case .incorrectPassword:
            language.pick(english: "The current password is incorrect.", korean: "현재 비밀번호가 올바르지 않습니다.")
        case .weakPassword(let why):
            language.pick(english: "The server refused the new password" + (why.map { ": \($0)" } ?? "."),
                          korean: "서버가 새 비밀번호를 거부했습니다" + (why.map { ": \($0)" } ?? "."))
        case .rejected(let status, let error, let description):
            language.pick(english: "The server refused the request (\(status) \(error))" + (description.map { ": \($0)" } ?? "."),
                          korean: "서버가 요청을 거부했습니다 (\(status) \(error))" + (description.map { ": \($0)" } ?? "."))
        case .badResponse(let what):
            language.pick(english: "Unexpected answer from the server (\(what)).",
                          korean: "서버 응답이 올바르지 않습니다 (\(what)).")
        case .deviceDataNotCleared(let items):
            language.pick(english: "The account was deleted, but this device still holds some of its data: "
                              + items.joined(separator: "; "),
                          korean: "계정은 삭제되었지만 이 기기에 일부 데이터가 남아 있습니다: " + items.joined(separator: "; "))
        }
    }
}
