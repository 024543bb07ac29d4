import Foundation
import LatchkeyAuth
import LatchkeyCrypto

/// Why a sign-in did not complete, as a sign-in screen tells the user: a cancellation (nothing to show) or one of
/// three failures. `init(classifying:)` sorts the errors the kit and Apple's frameworks throw; a sign-in closure may
/// also throw one of these cases itself to pick the text.
public enum SignInScreenError: Error, Sendable, Hashable, CaseIterable {
    /// The user closed the sheet, or the task was cancelled: back to the buttons, no error.
    case cancelled
    /// The server could not be reached.
    case network
    /// The server refused the credential.
    case rejected
    /// Anything else.
    case failed

    /// `ASAuthorizationError`'s domain (`ASAuthorizationErrorDomain`), read by domain and code so this file needs no
    /// AuthenticationServices.
    static let authorizationErrorDomain = "com.apple.AuthenticationServices.AuthorizationError"
    /// `ASAuthorizationError.Code.canceled`.
    static let authorizationCanceledCode = 1001

    /// Sorts `error`: `CancellationError`, `URLError.cancelled`, `ASAuthorizationError.canceled` and the
    /// cancellations of `AuthError`, `AuthorizationCeremonyError`, `PasskeyClientError`, `SignInWithAppleError` and
    /// `PasswordSessionError` are `.cancelled`; their `.network` and other `URLError`s `.network`; their `.rejected`
    /// (and a password's invalid credentials or throttle) `.rejected`; `ExistingAccountSignInError` as the error it
    /// wraps; this type's own cases stay as they are; the rest is `.failed`.
    public init(classifying error: any Error) {
        switch error {
        case let error as SignInScreenError:
            self = error
        case is CancellationError:
            self = .cancelled
        case let error as AuthError:
            self = error.isCancellation ? .cancelled : .failed
        case let error as URLError:
            self = error.code == .cancelled ? .cancelled : .network
        case let error as AuthorizationCeremonyError:
            self = error.isCancellation ? .cancelled : .failed
        case let error as PasskeyClientError:
            switch error {
            case .network: self = .network
            case .rejected: self = .rejected
            case .canceled: self = .cancelled
            case .badResponse, .ceremony, .ceremonyFailed: self = .failed
            }
        case let error as PasswordSessionError:
            switch error {
            case .canceled: self = .cancelled
            case .network: self = .network
            case .invalidCredentials, .throttled, .rejected: self = .rejected
            case .badResponse: self = .failed
            }
        case let error as ExistingAccountSignInError:
            switch error {
            case .authorization(let failure): self = failure.isCancellation ? .cancelled : .failed
            case .apple(let failure): self = SignInScreenError(classifying: failure)
            case .password(let failure): self = SignInScreenError(classifying: failure)
            case .passkey(let failure): self = SignInScreenError(classifying: failure)
            }
        case let error as SignInWithAppleError:
            switch error {
            case .canceled: self = .cancelled
            case .network: self = .network
            case .rejected: self = .rejected
            case .authorization(let failure): self = failure.isCancellation ? .cancelled : .failed
            case .stateMismatch, .badResponse, .keychain: self = .failed
            }
        default:
            let error = error as NSError
            let canceled = error.domain == Self.authorizationErrorDomain && error.code == Self.authorizationCanceledCode
            self = canceled ? .cancelled : .failed
        }
    }

    /// True for `.cancelled`.
    public var isCancellation: Bool { self == .cancelled }

    /// The text for a sign-in with `method`, in `language`.
    public func message(for method: SignInMethod, in language: MessageLanguage) -> String {
        switch (self, method) {
        case (.cancelled, _):
            language.pick(english: "Sign-in was canceled.", korean: "로그인이 취소되었습니다.")
        case (.network, _):
            language.pick(english: "Could not reach the server. Check your connection and try again.",
                          korean: "서버에 연결할 수 없습니다. 연결을 확인한 후 다시 시도하세요.")
        case (.rejected, .passkey):
            language.pick(english: "The server did not accept this passkey.",
                          korean: "서버가 이 패스키를 받아들이지 않았습니다.")
        case (.rejected, .apple):
            language.pick(english: "The server did not accept your Apple Account.",
                          korean: "서버가 Apple 계정을 받아들이지 않았습니다.")
        case (.failed, .passkey):
            language.pick(english: "Signing in with a passkey failed. Try again.",
                          korean: "패스키로 로그인하지 못했습니다. 다시 시도하세요.")
        case (.failed, .apple):
            language.pick(english: "Signing in with Apple failed. Try again.",
                          korean: "Apple로 로그인하지 못했습니다. 다시 시도하세요.")
        }
    }
}
