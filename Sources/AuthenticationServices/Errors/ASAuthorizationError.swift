#if os(Linux)
import Foundation
import LatchkeySupport

/// `ASAuthorizationErrorDomain`: "com.apple.AuthenticationServices.AuthorizationError".
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public let ASAuthorizationErrorDomain = "com.apple.AuthenticationServices.AuthorizationError"

/// `ASAuthorizationError`, used as Apple's is: `catch let error as ASAuthorizationError`, `error.code == .canceled`,
/// `case ASAuthorizationError.canceled:` over any `Error`, and as an `NSError` in `ASAuthorizationErrorDomain` with
/// Apple's codes. The reason, when there is one, is the `NSLocalizedFailureReasonErrorKey` of `userInfo`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct ASAuthorizationError: Error, Hashable, Sendable, CustomNSError, LocalizedError {
    /// `ASAuthorizationError.Code`, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        @available(macOS 12.0, iOS 15.0, *)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        case notInteractive = 1005
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
        case matchedExcludedCredential = 1006
        @available(macOS 15.2, iOS 18.2, *)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        case credentialImport = 1007
        @available(macOS 15.2, iOS 18.2, *)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        case credentialExport = 1008
        @available(macOS 26.0, iOS 26.0, *)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        case preferSignInWithApple = 1009
        @available(macOS 26.0, iOS 26.0, *)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        case deviceNotConfiguredForPasskeyCreation = 1010
    }

    /// The error code.
    public let code: Code
    private let reason: String?

    /// An error with this code; `userInfo[NSLocalizedFailureReasonErrorKey]` is kept as its reason.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.reason = userInfo[NSLocalizedFailureReasonErrorKey] as? String
    }

    /// The `ASAuthorizationError` an NSError in `ASAuthorizationErrorDomain` stands for (nil otherwise).
    public init?(_nsError error: NSError) {
        guard error.domain == ASAuthorizationErrorDomain, let code = Code(rawValue: error.code) else { return nil }
        self.init(code, userInfo: error.userInfo)
    }

    init(_ code: Code, reason: String?) {
        self.code = code
        self.reason = reason
    }

    public static func == (a: ASAuthorizationError, b: ASAuthorizationError) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var errorDomain: String { ASAuthorizationErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: localizedText]
        if let reason { info[NSLocalizedFailureReasonErrorKey] = reason }
        return info
    }
    /// Same as `userInfo` on Apple's bridged errors.
    public var userInfo: [String: Any] { errorUserInfo }
    public var errorDescription: String? { localizedText }

    private var localizedText: String {
        let language = MessageLanguage.current
        let text: String
        switch code.rawValue {
        case 1001: text = language.pick(english: "The authorization was canceled.", korean: "인증이 취소되었습니다.")
        case 1002: text = language.pick(english: "The authorization received an invalid response.",
                                        korean: "인증 응답이 올바르지 않습니다.")
        case 1003: text = language.pick(english: "The authorization request was not handled.",
                                        korean: "인증 요청이 처리되지 않았습니다.")
        case 1004: text = language.pick(english: "The authorization failed.", korean: "인증에 실패했습니다.")
        case 1005: text = language.pick(english: "The authorization needs the user but may not ask.",
                                        korean: "사용자 확인이 필요하지만 요청할 수 없습니다.")
        case 1006: text = language.pick(english: "A passkey for this account already exists on this device.",
                                        korean: "이 계정의 패스키가 이미 이 기기에 있습니다.")
        case 1007: text = language.pick(english: "The credential import failed.", korean: "자격 증명 가져오기에 실패했습니다.")
        case 1008: text = language.pick(english: "The credential export failed.", korean: "자격 증명 내보내기에 실패했습니다.")
        case 1009: text = language.pick(english: "The user prefers Sign in with Apple.",
                                        korean: "사용자가 Apple로 로그인을 선호합니다.")
        case 1010: text = language.pick(english: "This device is not set up to create passkeys.",
                                        korean: "이 기기는 패스키를 만들 수 있도록 설정되어 있지 않습니다.")
        default: text = language.pick(english: "The authorization failed for an unknown reason.",
                                      korean: "알 수 없는 이유로 인증에 실패했습니다.")
        }
        guard let reason else { return text }
        return "\(text) \(reason)"
    }

    public static let unknown = Code.unknown
    public static let canceled = Code.canceled
    public static let invalidResponse = Code.invalidResponse
    public static let notHandled = Code.notHandled
    public static let failed = Code.failed
    @available(macOS 12.0, iOS 15.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public static let notInteractive = Code.notInteractive
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    public static let matchedExcludedCredential = Code.matchedExcludedCredential
    @available(macOS 15.2, iOS 18.2, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public static let credentialImport = Code.credentialImport
    @available(macOS 15.2, iOS 18.2, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public static let credentialExport = Code.credentialExport
    @available(macOS 26.0, iOS 26.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public static let preferSignInWithApple = Code.preferSignInWithApple
    @available(macOS 26.0, iOS 26.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public static let deviceNotConfiguredForPasskeyCreation = Code.deviceNotConfiguredForPasskeyCreation
}

/// `case ASAuthorizationError.canceled:` in a `switch`/`catch` over any error (an `ASAuthorizationError` or an NSError
/// in its domain).
public func ~= (match: ASAuthorizationError.Code, error: any Error) -> Bool {
    if let e = error as? ASAuthorizationError { return e.code == match }
    let ns = error as NSError
    return ns.domain == ASAuthorizationErrorDomain && ns.code == match.rawValue
}
#endif
