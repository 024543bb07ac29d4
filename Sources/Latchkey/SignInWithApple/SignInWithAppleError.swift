import Foundation
import LatchkeyCrypto

/// Why signing in with Apple (the system's sheet, then the server's `POST /v1/session/apple`) did not start a session.
/// `.canceled` is the user closing the sheet: not a failure to show.
public enum SignInWithAppleError: Error, Sendable, Equatable {
    /// The user closed the sheet, or the task was cancelled.
    case canceled
    /// The system's sheet failed.
    case authorization(AuthorizationCeremonyError)
    /// The credential came back with another `state` than the request's.
    case stateMismatch
    /// The server could not be reached.
    case network(String)
    /// The server refused the sign-in (`invalid_grant`: the token or the nonce did not verify).
    case rejected(status: Int, error: String, description: String?)
    /// The server's answer was not a token response.
    case badResponse
    /// The keychain failed to keep the user identifier or the name and email.
    case keychain(KeychainError)

    /// The error a failed `AppleIDAuthorizing.authorize` becomes.
    init(authorization error: any Error) {
        switch error {
        case let failure as AuthorizationCeremonyError: self = failure.isCancellation ? .canceled : .authorization(failure)
        case is CancellationError: self = .canceled
        default: self = .authorization(.failed(error.localizedDescription))
        }
    }

    /// Whether a UI should show this error (not for a cancellation).
    public var shouldShowToUser: Bool { self != .canceled }
}

extension SignInWithAppleError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }

    /// The text in language `l`.
    public func message(in l: MessageLanguage) -> String {
        switch self {
        case .canceled:
            return l.pick(english: "Sign in with Apple was canceled.", korean: "Apple로 로그인이 취소되었습니다.")
        case .authorization(let failure):
            return failure.message(in: l)
        case .stateMismatch:
            return l.pick(english: "Sign in with Apple answered a different request.",
                          korean: "Apple로 로그인이 다른 요청에 응답했습니다.")
        case .network(let why):
            return l.pick(english: "Could not reach the server: \(why)", korean: "서버에 연결할 수 없습니다: \(why)")
        case .rejected(let status, let error, let description):
            let detail = description.map { ": \($0)" } ?? ""
            return l.pick(english: "The server refused Sign in with Apple (\(status) \(error))\(detail)",
                          korean: "서버가 Apple로 로그인을 거부했습니다 (\(status) \(error))\(detail)")
        case .badResponse:
            return l.pick(english: "Unexpected answer from the server.", korean: "서버 응답이 올바르지 않습니다.")
        case .keychain(let error):
            return error.errorDescription ?? "\(error)"
        }
    }
}
