import Foundation

/// `POST /v1/me/password` body.
struct PasswordChangeRequest: Decodable, Sendable {
    var currentPassword: String?
    var newPassword: String

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
    }
}

struct SessionsEnded: Encodable, Sendable { var ended: Int }

extension AuthService {
    /// `DELETE /v1/me`, `POST /v1/me/password`, `GET /v1/sessions`, `DELETE /v1/sessions/:id`,
    /// `POST /v1/sessions/revoke-others`.
    func accountRoutes() -> [Route] {
        [
            Route("DELETE", "/v1/me") { [self] request in handleDeleteMe(request) },
            Route("POST", "/v1/me/password") { [self] request in await handleChangePassword(request) },
            Route("GET", "/v1/sessions") { [self] request in handleListSessions(request) },
            Route("DELETE", "/v1/sessions/:id") { [self] request in handleEndSession(request) },
            Route("POST", "/v1/sessions/revoke-others") { [self] request in handleRevokeOtherSessions(request) },
        ]
    }

    /// Where a sign-in request came from (`device_name`, validated; the User-Agent; the address) and, with a Bearer
    /// token, the session it re-authenticates (`stepUpClaims`). Throws `invalidRequest` for an unacceptable device
    /// name and `invalidToken` for a Bearer token that does not verify or whose session ended.
    func signInContext(_ request: HTTPRequest, deviceName: String?) throws(OAuthError) -> SignInContext {
        var name: String?
        if let deviceName {
            do { name = try DeviceName.validated(deviceName) } catch { throw .invalidRequest(error.englishText) }
        }
        return try signInContext(request, validatedDeviceName: name)
    }

    /// `signInContext(_:deviceName:)` for a name already `DeviceName.validated`.
    func signInContext(_ request: HTTPRequest, validatedDeviceName name: String?) throws(OAuthError) -> SignInContext {
        SignInContext(deviceName: name, userAgent: request.header("user-agent"), clientAddress: request.remoteAddress,
                      reauthenticating: try stepUpClaims(request.header("authorization")))
    }

    func handleDeleteMe(_ request: HTTPRequest) -> HTTPResponse {
        do {
            try deleteAccount(authorization: request.header("authorization"))
            return Self.noContent
        } catch {
            return error.response
        }
    }

    func handleChangePassword(_ request: HTTPRequest) async -> HTTPResponse {
        let body: PasswordChangeRequest
        do { body = try request.decodeJSON(PasswordChangeRequest.self) } catch { return error.response }
        do {
            try await changePassword(authorization: request.header("authorization"), currentPassword: body.currentPassword,
                                     newPassword: body.newPassword, ip: request.remoteAddress)
            return Self.noContent
        } catch {
            return error.response
        }
    }

    func handleListSessions(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return .json(body: SessionSummary.listBody(try sessions(authorization: request.header("authorization"))))
        } catch {
            return error.response
        }
    }

    func handleEndSession(_ request: HTTPRequest) -> HTTPResponse {
        do {
            try endSession(id: request.pathParameters["id"] ?? "", authorization: request.header("authorization"),
                           ip: request.remoteAddress)
            return Self.noContent
        } catch {
            return error.response
        }
    }

    func handleRevokeOtherSessions(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return .json(SessionsEnded(ended: try endOtherSessions(authorization: request.header("authorization"),
                                                                   ip: request.remoteAddress)))
        } catch {
            return error.response
        }
    }

    /// 204 with `Cache-Control: no-store`.
    static var noContent: HTTPResponse { HTTPResponse(status: 204, headers: [(name: "Cache-Control", value: "no-store")]) }
}
