import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// Why an App Attest endpoint or a protected route refused a request; each maps to one HTTP answer.
public enum AppAttestEndpointError: Error, Sendable, Equatable {
    /// The server has no App Attest configuration (404 `not_found`).
    case notConfigured
    /// The body is malformed (400 `invalid_request`).
    case invalidRequest(String)
    /// An attestation failed a check (400 `app_attest_failed` with `step`).
    case attestationRefused(AppAttestError)
    /// A protected route's assertion is missing or failed a check (403 `app_attest_failed` with `step`).
    case assertionRefused(AppAttestError)
    /// Storage failed (500 `server_error`).
    case serverError
    /// The database is restarting or overloaded (503 `temporarily_unavailable`, with `Retry-After`).
    case temporarilyUnavailable

    /// The error for a failure inside an endpoint: itself when it is one already, `temporarilyUnavailable` for a
    /// transient storage failure, else `serverError`.
    static func storage(_ error: any Error) -> AppAttestEndpointError {
        if let error = error as? AppAttestEndpointError { return error }
        if let database = error as? DatabaseError, database.isTransient { return .temporarilyUnavailable }
        return .serverError
    }

    var status: Int {
        switch self {
        case .notConfigured: 404
        case .invalidRequest, .attestationRefused: 400
        case .assertionRefused: 403
        case .serverError: 500
        case .temporarilyUnavailable: 503
        }
    }

    var code: String {
        switch self {
        case .notConfigured: "not_found"
        case .invalidRequest: "invalid_request"
        case .attestationRefused, .assertionRefused: "app_attest_failed"
        case .serverError: "server_error"
        case .temporarilyUnavailable: "temporarily_unavailable"
        }
    }

    /// The failed App Attest check, for the answer's `step` member.
    var step: AppAttestError.Step? {
        switch self {
        case .attestationRefused(let error), .assertionRefused(let error): error.step
        default: nil
        }
    }

    /// The English text sent in `error_description`.
    var protocolDescription: String {
        switch self {
        case .notConfigured: "App Attest is not configured on this server."
        case .invalidRequest(let why): why
        case .attestationRefused(let error), .assertionRefused(let error): error.message(in: .english)
        case .serverError: "The server failed."
        case .temporarilyUnavailable:
            "The service is temporarily unavailable; retry after \(PasskeyEndpointError.retryAfterSeconds) seconds."
        }
    }

    /// The answer.
    var response: HTTPResponse {
        var response = HTTPResponse.json(AppAttestErrorBody(error: code, errorDescription: protocolDescription,
                                                            step: step?.rawValue), status: status)
        if self == .temporarilyUnavailable {
            response.headers.append((name: "Retry-After", value: String(PasskeyEndpointError.retryAfterSeconds)))
        }
        return response
    }
}

/// The shared error body with the failed App Attest check.
struct AppAttestErrorBody: Encodable, Sendable {
    var error: String
    var errorDescription: String
    var step: String?

    enum CodingKeys: String, CodingKey {
        case error, step
        case errorDescription = "error_description"
    }
}

extension AppAttestEndpointError: LocalizedError {
    public var errorDescription: String? {
        let language = MessageLanguage.current
        switch self {
        case .notConfigured:
            return language.pick(english: "App Attest is not configured on this server.",
                                 korean: "이 서버에는 App Attest가 설정되어 있지 않습니다.")
        case .invalidRequest(let why):
            return language.pick(english: "Invalid App Attest request: \(why)", korean: "잘못된 App Attest 요청: \(why)")
        case .attestationRefused(let error), .assertionRefused(let error):
            return error.message(in: language)
        case .serverError:
            return language.pick(english: "The server failed.", korean: "서버 오류가 발생했습니다.")
        case .temporarilyUnavailable:
            return language.pick(english: "The service is temporarily unavailable.",
                                 korean: "서비스를 일시적으로 사용할 수 없습니다.")
        }
    }
}
