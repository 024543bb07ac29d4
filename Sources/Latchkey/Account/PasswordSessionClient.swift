import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Latchkey server's password sign-in (`POST /v1/session/password`). With `reauthenticating`, the current access
/// token goes as the Bearer and the server renews that session's authentication time (step-up) instead of starting a
/// new one. Failures are `AccountManagerError`s: `.incorrectPassword`, `.network`, `.rejected` (`429` while throttled).
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

    struct Body: Encodable, Sendable {
        var username: String
        var password: String
        var device_name: String?
    }

    /// Signs in with `username` and `password`.
    public func signIn(username: String, password: String, reauthenticating accessToken: String? = nil)
        async throws(AccountManagerError) -> TokenGrant {
        let http = AccountHTTP(baseURL: baseURL, session: session)
        let answer = try await http.send("POST", "v1/session/password",
                                         json: Body(username: username, password: password, device_name: deviceName),
                                         bearer: accessToken)
        switch answer.status {
        case 200: return try answer.decode(TokenGrant.self, "token response")
        case 401 where answer.serverError?.code == "invalid_grant": throw .incorrectPassword
        default: throw answer.rejection
        }
    }
}
