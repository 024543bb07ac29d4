import Foundation

/// The parameters an OAuth endpoint reads from a JSON body: the named members, each a string; other members are
/// ignored (as unknown form parameters are), whatever their type.
struct OAuthJSONParameters: Decodable, Sendable {
    var values: [String: String] = [:]

    /// The parameters of `POST /v1/token` and `POST /v1/revoke`.
    static let names: Set<String> = ["grant_type", "refresh_token", "client_id", "scope", "token", "token_type_hint"]

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys where Self.names.contains(key.stringValue) {
            values[key.stringValue] = try container.decode(String.self, forKey: key)
        }
    }
}

/// Request bodies of the auth endpoints (JSON; the OAuth endpoints also take form encoding).
struct PasswordCredentials: Decodable, Sendable {
    var username: String
    var password: String
    var clientID: String?
    var scope: String?
    var deviceName: String?

    enum CodingKeys: String, CodingKey {
        case username, password, scope
        case clientID = "client_id"
        case deviceName = "device_name"
    }
}

extension AuthService {
    /// The HTTP endpoints, to mount on the server's `Router`:
    /// `POST /v1/accounts`, `POST /v1/session/password`, `POST /v1/token`, `POST /v1/revoke`,
    /// `POST /v1/logout`, `GET /v1/me`, `GET /.well-known/jwks.json`, and the account's own (`accountRoutes()`):
    /// `DELETE /v1/me`, `POST /v1/me/password`, `GET /v1/sessions`, `DELETE /v1/sessions/:id`,
    /// `POST /v1/sessions/revoke-others`.
    public func routes() -> [Route] {
        [
            Route("POST", "/v1/accounts") { [self] request in await handleCreateAccount(request) },
            Route("POST", "/v1/session/password") { [self] request in await handlePasswordLogin(request) },
            Route("POST", "/v1/token") { [self] request in handleToken(request) },
            Route("POST", "/v1/revoke") { [self] request in handleRevoke(request) },
            Route("POST", "/v1/logout") { [self] request in handleLogout(request) },
            Route("GET", "/v1/me") { [self] request in handleMe(request) },
            Route("GET", "/.well-known/jwks.json") { [self] _ in handleJWKS() },
        ] + accountRoutes()
    }

    func handleCreateAccount(_ request: HTTPRequest) async -> HTTPResponse {
        let body: PasswordCredentials
        do { body = try request.decodeJSON(PasswordCredentials.self) } catch { return error.response }
        do {
            let info = try await createAccount(username: body.username, password: body.password, ip: request.remoteAddress)
            return .json(info, status: 201)
        } catch {
            switch error {
            case .invalidUsername: return .error(status: 400, code: "invalid_username", description: "The user name is not acceptable.")
            case .weakPassword(let violation):
                return .error(status: 400, code: "weak_password", description: violation.englishDescription)
            case .usernameTaken: return .error(status: 409, code: "username_taken", description: "The user name is taken.")
            case .serverError: return .error(status: 500, code: "server_error")
            case .temporarilyUnavailable: return Self.oauthError(.temporarilyUnavailable(retryAfter: 2))
            }
        }
    }

    func handlePasswordLogin(_ request: HTTPRequest) async -> HTTPResponse {
        let credentials: PasswordCredentials
        if request.mediaType == "application/x-www-form-urlencoded" {
            let form: [String: String]
            do { form = try request.decodeForm(keeping: ["username", "password", "client_id", "scope", "device_name"]) } catch {
                return error.response
            }
            guard let username = form["username"], let password = form["password"] else {
                return Self.oauthError(.invalidRequest("username and password are required."))
            }
            credentials = PasswordCredentials(username: username, password: password, clientID: form["client_id"],
                                              scope: form["scope"], deviceName: form["device_name"])
        } else {
            do { credentials = try request.decodeJSON(PasswordCredentials.self) } catch { return error.response }
        }
        do {
            let context = try signInContext(request, deviceName: credentials.deviceName)
            let tokens = try await loginWithPassword(username: credentials.username, password: credentials.password,
                                                     clientID: credentials.clientID, scope: credentials.scope,
                                                     ip: request.remoteAddress, context: context)
            return Self.tokenResponse(tokens)
        } catch {
            // Login failures are 401 (not §5.2's 400): the body is the same for an unknown user and a wrong password.
            if error == .invalidGrant {
                return .error(status: 401, code: error.code, description: error.protocolDescription)
            }
            return Self.bearerError(error)
        }
    }

    func handleToken(_ request: HTTPRequest) -> HTTPResponse {
        let parameters: [String: String]
        switch Self.parameters(request) {
        case .success(let p): parameters = p
        case .failure(let box): return box.response
        }
        guard let grantType = parameters["grant_type"], !grantType.isEmpty else {
            return Self.oauthError(.invalidRequest("grant_type is required."))
        }
        guard grantType == "refresh_token" else { return Self.oauthError(.unsupportedGrantType) }
        guard let token = parameters["refresh_token"], !token.isEmpty else {
            return Self.oauthError(.invalidRequest("refresh_token is required."))
        }
        do {
            let tokens = try refresh(refreshToken: token, clientID: parameters["client_id"], scope: parameters["scope"],
                                     ip: request.remoteAddress)
            return Self.tokenResponse(tokens)
        } catch {
            return Self.oauthError(error)
        }
    }

    func handleRevoke(_ request: HTTPRequest) -> HTTPResponse {
        let parameters: [String: String]
        switch Self.parameters(request) {
        case .success(let p): parameters = p
        case .failure(let box): return box.response
        }
        guard let token = parameters["token"], !token.isEmpty else {
            return Self.oauthError(.invalidRequest("token is required."))
        }
        revoke(token: token, tokenTypeHint: parameters["token_type_hint"], ip: request.remoteAddress)
        return HTTPResponse(status: 200, headers: [(name: "Cache-Control", value: "no-store")])
    }

    func handleLogout(_ request: HTTPRequest) -> HTTPResponse {
        do {
            try logout(authorization: request.header("authorization"), ip: request.remoteAddress)
            return HTTPResponse(status: 204, headers: [(name: "Cache-Control", value: "no-store")])
        } catch {
            return Self.bearerError(error)
        }
    }

    func handleMe(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return .json(try me(authorization: request.header("authorization")))
        } catch {
            return Self.bearerError(error)
        }
    }

    func handleJWKS() -> HTTPResponse {
        guard let keys = try? publishedKeys(), let body = try? keys.jsonData() else {
            return .error(status: 500, code: "server_error")
        }
        return HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/jwk-set+json"),
                                                   (name: "Cache-Control", value: "public, max-age=300")], body: body)
    }

    // MARK: Helpers

    /// Form (RFC 6749) or JSON parameters of the token and revocation endpoints (`OAuthJSONParameters.names`; others
    /// are ignored); other content types are 415.
    static func parameters(_ request: HTTPRequest) -> Result<[String: String], HTTPResponseBox> {
        if request.mediaType == "application/json" {
            do { return .success(try request.decodeJSON(OAuthJSONParameters.self).values) } catch {
                return .failure(HTTPResponseBox(error.response))
            }
        }
        do { return .success(try request.decodeForm(keeping: OAuthJSONParameters.names)) } catch {
            return .failure(HTTPResponseBox(error.response))
        }
    }

    /// 200 with the tokens (RFC 6749 §5.1: `no-store`, and `Pragma: no-cache` for HTTP/1.0 caches).
    static func tokenResponse(_ tokens: TokenResponse) -> HTTPResponse {
        var response = HTTPResponse.json(body: tokens.jsonBody)
        response.headers.append((name: "Pragma", value: "no-cache"))
        return response
    }

    static func oauthError(_ error: OAuthError) -> HTTPResponse {
        if case .insufficientUserAuthentication(let maxAge) = error { return StepUpChallenge.response(maxAge: maxAge) }
        var response = HTTPResponse.error(status: error.status, code: error.code, description: error.protocolDescription)
        switch error {
        case .slowDown(let seconds), .temporarilyUnavailable(let seconds):
            response.headers.append((name: "Retry-After", value: String(max(1, seconds))))
        default:
            break
        }
        return response
    }

    static func bearerError(_ error: OAuthError) -> HTTPResponse {
        var response = oauthError(error)
        if error == .invalidToken {
            response.headers.append((name: "WWW-Authenticate", value: "Bearer error=\"invalid_token\""))
        }
        return response
    }
}

/// An `HTTPResponse` as an `Error`, so `Result` can carry an early answer.
struct HTTPResponseBox: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
