import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// Why the kit's App Attest client could not attest a key or assert a request.
public enum AppAttestClientError: Error, Sendable, Hashable {
    /// The device does not provide App Attest (`DCError.featureUnsupported`, `isSupported` false: a Mac, a simulator, an
    /// app extension; on Linux no TPM or no App ID).
    case unsupported
    /// The key is unknown to the device or cannot be used (`DCError.invalidKey`); the client replaces it once by itself.
    case invalidKey
    /// Another device failure (`DCError` `unknownSystemFailure`, `invalidInput` or `serverUnavailable`: its code).
    case deviceFailure(code: Int)
    /// The server could not be reached (the reason, never a body).
    case network(String)
    /// The server refused the attestation or the assertion, naming the check of Apple's steps that failed.
    case refused(AppAttestError.Step)
    /// The server answered something else (its status and `error` code).
    case server(status: Int, code: String?)
    /// The key identifier could not be kept in, or read from, the keychain (its status).
    case storage(String)
}

extension AppAttestClientError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }

    /// The text in `language`.
    public func message(in language: MessageLanguage) -> String {
        switch self {
        case .unsupported:
            return language.pick(english: "This device does not provide App Attest.",
                                 korean: "이 기기는 App Attest를 지원하지 않습니다.")
        case .invalidKey:
            return language.pick(english: "The App Attest key cannot be used; a new one is needed.",
                                 korean: "App Attest 키를 사용할 수 없어 새 키가 필요합니다.")
        case .deviceFailure(let code):
            return language.pick(english: "App Attest failed on this device (DCError \(code)).",
                                 korean: "이 기기에서 App Attest가 실패했습니다 (DCError \(code)).")
        case .network(let why):
            return language.pick(english: "The App Attest server could not be reached: \(why)",
                                 korean: "App Attest 서버에 연결할 수 없습니다: \(why)")
        case .refused(let step):
            return language.pick(english: "The server refused App Attest at the \(step.rawValue) check.",
                                 korean: "서버가 App Attest를 \(step.rawValue) 검사에서 거부했습니다.")
        case let .server(status, code):
            let shown = code.map { " (\($0))" } ?? ""
            return language.pick(english: "The App Attest server answered HTTP \(status)\(shown).",
                                 korean: "App Attest 서버가 HTTP \(status)\(shown)로 응답했습니다.")
        case .storage(let why):
            return language.pick(english: "The App Attest key identifier could not be kept in the keychain: \(why)",
                                 korean: "App Attest 키 식별자를 키체인에 보관할 수 없습니다: \(why)")
        }
    }
}
