import Foundation
import LatchkeyCrypto
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Latchkey server's password sign-in (`POST /v1/session/password`): the user name and password, as typed or as a
/// saved password (`ASPasswordCredential`) hands them over, for the session's tokens. With `reauthenticating`, the
/// current access token goes as the Bearer and the server renews that session's authentication time (step-up,
/// `AccountReauthentication.password`) instead of starting a new one.
///
/// ```swift
/// let tokens = try await PasswordSessionClient(baseURL: api).signIn(username: "ada", password: typed)
/// ```
public struct PasswordSessionClient: Sendable {
    public let baseURL: URL
    /// Names the sessions this client starts in the account's devices list (`GET /v1/sessions`); `nil` leaves it to the
    /// server (the User-Agent).
    public let deviceName: String?
    let session: URLSession

    public init(baseURL: URL, deviceName: String? = nil, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.deviceName = deviceName
        self.session = session
    }

    struct Body: Encodable {
        var username: String
        var password: String
        var device_name: String?
    }

    struct ServerError: Decodable {
        var error: String
        var error_description: String?
    }

    /// Starts a session. A wrong name or password is `.invalidCredentials` (the server does not say which), repeated
    /// failures `.throttled` with the seconds to wait.
    public func signIn(username: String, password: String, reauthenticating accessToken: String? = nil)
        async throws(PasswordSessionError) -> TokenGrant {
        var request = URLRequest(url: baseURL.appendingPathComponent("v1/session/password"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let accessToken { request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization") }
        let body = Body(username: username, password: password, device_name: deviceName)
        do { request.httpBody = try JSONEncoder().encode(body) } catch {
            throw .badResponse
        }
        let data: Data, response: URLResponse
        do { (data, response) = try await session.data(for: request) } catch {
            if error is CancellationError || (error as? URLError)?.code == .cancelled { throw .canceled }
            throw .network(error.localizedDescription)
        }
        let http = response as? HTTPURLResponse
        switch http?.statusCode ?? 0 {
        case 200:
            do { return try JSONDecoder().decode(TokenGrant.self, from: data) } catch { throw .badResponse }
        case 401:
            // With a Bearer (a step-up), 401 invalid_token is the session, not the password.
            let reason = try? JSONDecoder().decode(ServerError.self, from: data)
            if reason?.error == "invalid_token" {
                throw .rejected(status: 401, error: "invalid_token", description: reason?.error_description)
            }
            throw .invalidCredentials
        case 429:
            throw .throttled(retryAfter: http?.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) })
        case let status:
            let reason = try? JSONDecoder().decode(ServerError.self, from: data)
            throw .rejected(status: status, error: reason?.error ?? "http_\(status)", description: reason?.error_description)
        }
    }
}

/// Why a password sign-in against the server did not start a session.
public enum PasswordSessionError: Error, Sendable, Hashable {
    /// The server could not be reached.
    case network(String)
    /// The user name and password do not match an account (the server answers the same for both).
    case invalidCredentials
    /// Too many failed attempts for this name or address: try again after the seconds given, if the server said.
    case throttled(retryAfter: Int?)
    /// The server refused the request otherwise.
    case rejected(status: Int, error: String, description: String?)
    /// The server's answer was not a token response.
    case badResponse
    /// The task was cancelled.
    case canceled
}

extension PasswordSessionError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }

    /// The text in language `l`.
    public func message(in l: MessageLanguage) -> String {
        switch self {
        case .network(let why):
            l.pick(english: "Could not reach the server: \(why)", korean: "서버에 연결할 수 없습니다: \(why)")
        case .invalidCredentials:
            l.pick(english: "The user name or password is incorrect.", korean: "사용자 이름 또는 암호가 올바르지 않습니다.")
        case .throttled(let seconds?):
            l.pick(english: "Too many failed attempts. Try again in \(seconds) seconds.",
                   korean: "실패한 시도가 너무 많습니다. \(seconds)초 후에 다시 시도하세요.")
        case .throttled(nil):
            l.pick(english: "Too many failed attempts. Try again later.", korean: "실패한 시도가 너무 많습니다. 나중에 다시 시도하세요.")
        case let .rejected(status, error, description):
            l.pick(english: "The server refused the sign-in (\(status) \(error))", korean: "서버가 로그인을 거부했습니다 (\(status) \(error))")
                + (description.map { ": \($0)" } ?? "")
        case .badResponse:
            l.pick(english: "Unexpected answer from the server.", korean: "서버 응답이 올바르지 않습니다.")
        case .canceled:
            l.pick(english: "Canceled.", korean: "취소되었습니다.")
        }
    }
}
