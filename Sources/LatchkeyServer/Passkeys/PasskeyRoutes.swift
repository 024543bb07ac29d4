import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

struct PasskeyOptionsEnvelope<T: Encodable & Sendable>: Encodable, Sendable { var publicKey: T }

struct RegistrationOptionsRequest: Decodable, Sendable { var username: String? }

/// `POST /v1/passkeys/authenticate/options` takes no field; a body, when sent, must still be a JSON object (the
/// synthesized decoder of a struct without members would accept any JSON value).
struct AuthenticationOptionsRequest: Decodable, Sendable {
    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: OAuthJSONParameters.Key.self)
    }
}

/// `POST /v1/passkeys/register/verify` answer: the passkey, plus tokens when an account was created.
struct PasskeyRegistrationBody: Encodable, Sendable {
    var id: String
    var createdAt: String
    var accessToken: String?
    var tokenType: String?
    var expiresIn: Int?
    var refreshToken: String?
    var scope: String?

    enum CodingKeys: String, CodingKey {
        case id, scope
        case createdAt = "created_at"
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
    }
}

/// One passkey in `GET /v1/passkeys`.
struct PasskeySummary: Encodable, Sendable {
    var id: String
    var name: String
    var createdAt: String
    var lastUsedAt: String?
    var backupEligible: Bool
    var backedUp: Bool
    var transports: [String]
    /// The AAGUID (lowercase UUID text); all zero for `none` attestation from most browsers.
    var aaguid: String
    /// The authenticator's name from the FIDO metadata, else its AAGUID; nil when the AAGUID is all zero.
    var authenticator: String?
    /// The authenticator's icon (a `data:` URL) from the FIDO metadata.
    var authenticatorIcon: String?

    enum CodingKeys: String, CodingKey {
        case id, name, transports, aaguid, authenticator
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case backupEligible = "backup_eligible"
        case backedUp = "backed_up"
        case authenticatorIcon = "authenticator_icon"
    }
}

struct PasskeyRenameRequest: Decodable, Sendable { var name: String }

/// The optional `device_name` member a sign-in sends next to the credential's members (read only when the body has it,
/// so a body without it costs no second decoding).
struct DeviceNameMember: Decodable, Sendable {
    var deviceName: String?

    enum CodingKeys: String, CodingKey { case deviceName = "device_name" }

    /// The member, validated (`DeviceName`); nil when absent; a 400 answer when it is not an acceptable name.
    static func read(_ request: HTTPRequest) -> Result<String?, HTTPResponseBox> {
        guard request.body.range(of: Data("\"device_name\"".utf8)) != nil else { return .success(nil) }
        do {
            guard let name = try request.decodeJSON(DeviceNameMember.self).deviceName else { return .success(nil) }
            return .success(try DeviceName.validated(name))
        } catch let error as DeviceNameError {
            return .failure(HTTPResponseBox(PasskeyService.response(.invalidRequest(error.englishText))))
        } catch {
            return .failure(HTTPResponseBox(PasskeyService.response(.invalidRequest("device_name must be a string."))))
        }
    }
}

struct PasskeyList: Encodable, Sendable { var passkeys: [PasskeySummary] }

extension PasskeyService {
    /// The HTTP endpoints: `POST /v1/passkeys/register/options`, `POST /v1/passkeys/register/verify`,
    /// `POST /v1/passkeys/authenticate/options`, `POST /v1/passkeys/authenticate/verify`, `GET /v1/passkeys`,
    /// `PATCH /v1/passkeys/:id` (`{"name": ...}`), `DELETE /v1/passkeys/:id`.
    public func routes() -> [Route] {
        [
            Route("POST", "/v1/passkeys/register/options") { [self] in await handleRegistrationOptions($0) },
            Route("POST", "/v1/passkeys/register/verify") { [self] in await handleRegistrationVerify($0) },
            Route("POST", "/v1/passkeys/authenticate/options") { [self] in await handleAuthenticationOptions($0) },
            Route("POST", "/v1/passkeys/authenticate/verify") { [self] in await handleAuthenticationVerify($0) },
            Route("GET", "/v1/passkeys") { [self] in handleList($0) },
            Route("PATCH", "/v1/passkeys/:id") { [self] in handleRename($0) },
            Route("DELETE", "/v1/passkeys/:id") { [self] in handleDelete($0) },
        ]
    }

    func handleRegistrationOptions(_ request: HTTPRequest) async -> HTTPResponse {
        let body: RegistrationOptionsRequest
        if request.body.isEmpty {
            body = RegistrationOptionsRequest(username: nil)
        } else {
            do { body = try request.decodeJSON(RegistrationOptionsRequest.self) } catch { return error.response }
        }
        // A user name, when given, follows the rules even where it is not used (with a Bearer token).
        if let username = body.username, !Username.isValid(username) { return Self.response(.invalidUsername) }
        do {
            let options = try await registrationOptions(username: body.username, authorization: request.header("authorization"))
            return Self.noStore(.json(PasskeyOptionsEnvelope(publicKey: options)))
        } catch {
            return Self.response(error)
        }
    }

    func handleRegistrationVerify(_ request: HTTPRequest) async -> HTTPResponse {
        let body: RegistrationResponse
        do { body = try request.decodeJSON(RegistrationResponse.self) } catch { return error.response }
        let deviceName: String?
        switch DeviceNameMember.read(request) {
        case .success(let name): deviceName = name
        case .failure(let box): return box.response
        }
        do {
            let done = try await verifyRegistration(body, authorization: request.header("authorization"), ip: request.remoteAddress,
                                                    context: SignInContext(deviceName: deviceName,
                                                                           userAgent: request.header("user-agent"),
                                                                           clientAddress: request.remoteAddress))
            let answer = PasskeyRegistrationBody(
                id: done.passkeyID, createdAt: Self.timestamp(done.createdAt), accessToken: done.tokens?.accessToken,
                tokenType: done.tokens?.tokenType, expiresIn: done.tokens?.expiresIn, refreshToken: done.tokens?.refreshToken,
                scope: done.tokens?.scope)
            return Self.noStore(.json(answer, status: 201))
        } catch {
            return Self.response(error)
        }
    }

    func handleAuthenticationOptions(_ request: HTTPRequest) async -> HTTPResponse {
        if !request.body.isEmpty {
            do { _ = try request.decodeJSON(AuthenticationOptionsRequest.self) } catch { return error.response }
        }
        do { return Self.noStore(.json(PasskeyOptionsEnvelope(publicKey: try await authenticationOptions()))) } catch {
            return Self.response(error)
        }
    }

    func handleAuthenticationVerify(_ request: HTTPRequest) async -> HTTPResponse {
        let body: AuthenticationResponse
        do { body = try request.decodeJSON(AuthenticationResponse.self) } catch { return error.response }
        let context: SignInContext
        switch DeviceNameMember.read(request) {
        case .success(let name):
            do { context = try auth.signInContext(request, validatedDeviceName: name) } catch { return AuthService.bearerError(error) }
        case .failure(let box):
            return box.response
        }
        do {
            return AuthService.tokenResponse(try await signIn(body, ip: request.remoteAddress, context: context))
        } catch {
            return Self.response(error)
        }
    }

    func handleList(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let records = try list(authorization: request.header("authorization"))
            return Self.noStore(.json(PasskeyList(passkeys: records.map(summary))))
        } catch {
            return Self.response(error)
        }
    }

    func summary(_ record: PasskeyRecord) -> PasskeySummary {
        let c = record.credential
        return PasskeySummary(id: c.id.base64URLEncodedString(), name: record.name, createdAt: Self.timestamp(c.createdAt),
                              lastUsedAt: c.lastUsedAt.map(Self.timestamp), backupEligible: c.backupEligible,
                              backedUp: c.backupState, transports: c.transports, aaguid: MetadataService.text(c.aaguid),
                              authenticator: authenticatorName(aaguid: c.aaguid),
                              authenticatorIcon: metadata?.icon(aaguid: c.aaguid))
    }

    func handleRename(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.pathParameters["id"], !id.isEmpty else { return Self.response(.notFound) }
        let body: PasskeyRenameRequest
        do { body = try request.decodeJSON(PasskeyRenameRequest.self) } catch { return error.response }
        do {
            try rename(id: id, to: body.name, authorization: request.header("authorization"), ip: request.remoteAddress)
            guard let record = try? database.passkey(id: Data(base64URLEncoded: id) ?? Data()) else {
                return Self.response(.serverError)
            }
            return Self.noStore(.json(summary(record)))
        } catch {
            return Self.response(error)
        }
    }

    func handleDelete(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.pathParameters["id"], !id.isEmpty else { return Self.response(.notFound) }
        do {
            try delete(id: id, authorization: request.header("authorization"), ip: request.remoteAddress)
            return HTTPResponse(status: 204, headers: [(name: "Cache-Control", value: "no-store")])
        } catch {
            return Self.response(error)
        }
    }

    static func response(_ error: PasskeyEndpointError) -> HTTPResponse {
        var response = HTTPResponse.error(status: error.status, code: error.code, description: error.protocolDescription)
        if case .insufficientUserAuthentication(let maxAge) = error { return StepUpChallenge.response(maxAge: maxAge) }
        if error == .invalidToken {
            response.headers.append((name: "WWW-Authenticate", value: "Bearer error=\"invalid_token\""))
        }
        if error == .temporarilyUnavailable {
            response.headers.append((name: "Retry-After", value: String(PasskeyEndpointError.retryAfterSeconds)))
        }
        return response
    }

    static func noStore(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        if response.header("Cache-Control") == nil { response.headers.append((name: "Cache-Control", value: "no-store")) }
        return response
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
