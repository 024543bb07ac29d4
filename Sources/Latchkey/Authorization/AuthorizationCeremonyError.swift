import Foundation
import LatchkeyCrypto

/// How a request to the system's authorization sheet (a passkey, Sign in with Apple) ended without a credential:
/// `ASAuthorizationError`'s codes in the terms a UI switches on. `.canceled` is the user closing the sheet (or the task
/// being cancelled): not a failure to show (`shouldShowToUser` is false).
public enum AuthorizationCeremonyError: Error, Sendable, Hashable {
    /// The user canceled (or, for a passkey sign-in, this device has no passkey for the service).
    case canceled
    /// A passkey for this account is already on this device (`matchedExcludedCredential`).
    case credentialExists
    /// The request would have needed the user but could not ask (`notInteractive`).
    case notInteractive
    /// This device cannot make passkeys now: no passcode, or no iCloud Keychain (`deviceNotConfiguredForPasskeyCreation`).
    case deviceNotConfigured
    /// The system or the kit could not use what came back (`invalidResponse`, or a credential without its data).
    case invalidResponse(String?)
    /// No request could be handled (`notHandled`).
    case notHandled
    /// The request failed (`failed`): bad parameters, associated domains, the network; the reason when there is one.
    case failed(String?)
    /// Another `ASAuthorizationError` code (`unknown` is 1000).
    case unknown(code: Int, reason: String?)

    /// The error `ASAuthorizationError` code `code` stands for, with the system's failure reason.
    public init(authorizationErrorCode code: Int, reason: String?) {
        switch code {
        case 1001: self = .canceled
        case 1002: self = .invalidResponse(reason)
        case 1003: self = .notHandled
        case 1004: self = .failed(reason)
        case 1005: self = .notInteractive
        case 1006: self = .credentialExists
        case 1010: self = .deviceNotConfigured
        default: self = .unknown(code: code, reason: reason)
        }
    }

    /// The user (or the app) stopped the request.
    public var isCancellation: Bool { self == .canceled }

    /// Whether a UI should show this error: every case but a cancellation.
    public var shouldShowToUser: Bool { !isCancellation }
}

extension AuthorizationCeremonyError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }

    /// The text in language `l`.
    public func message(in l: MessageLanguage) -> String {
        func with(_ reason: String?, _ text: String) -> String { reason.map { "\(text) \($0)" } ?? text }
        switch self {
        case .canceled:
            return l.pick(english: "Canceled.", korean: "취소되었습니다.")
        case .credentialExists:
            return l.pick(english: "You already have a passkey for this account on this device.",
                          korean: "이 기기에 이 계정의 패스키가 이미 있습니다.")
        case .notInteractive:
            return l.pick(english: "Signing in needs you, but the app could not ask right now.",
                          korean: "로그인에 사용자 확인이 필요하지만 지금은 요청할 수 없습니다.")
        case .deviceNotConfigured:
            return l.pick(english: "This device is not set up for passkeys: set a passcode and turn on iCloud Keychain.",
                          korean: "이 기기는 패스키를 쓸 수 있도록 설정되어 있지 않습니다. 암호를 설정하고 iCloud 키체인을 켜세요.")
        case .invalidResponse(let reason):
            return with(reason, l.pick(english: "The sign-in returned something unusable.",
                                       korean: "로그인 결과를 사용할 수 없습니다."))
        case .notHandled:
            return l.pick(english: "The sign-in request was not handled.", korean: "로그인 요청이 처리되지 않았습니다.")
        case .failed(let reason):
            return with(reason, l.pick(english: "Signing in failed.", korean: "로그인에 실패했습니다."))
        case .unknown(let code, let reason):
            return with(reason, l.pick(english: "Signing in failed (error \(code)).",
                                       korean: "로그인에 실패했습니다 (오류 \(code))."))
        }
    }
}
