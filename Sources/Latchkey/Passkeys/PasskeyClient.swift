import Foundation
import LatchkeyWebAuthn
import LatchkeyCrypto
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Registers and signs in with passkeys against a Latchkey server (`/v1/passkeys/...`), with any
/// `PasskeyCeremony`: `PlatformPasskeyCeremony` in an app (the origin is then `https://<relying party id>`, so start the
/// server with that `--origin`), `SoftwareAuthenticator` in `latchkey passkey register|login` (the server's origin).
public struct PasskeyClient: Sendable {
    public let baseURL: URL
    /// Names the sessions this client's sign-ins (and new accounts) start, in the account's devices list
    /// (`GET /v1/sessions`); `nil` leaves it to the server (the User-Agent).
    public let deviceName: String?
    let ceremony: any PasskeyCeremony
    let session: URLSession

    public init(baseURL: URL, ceremony: any PasskeyCeremony, deviceName: String? = nil, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.ceremony = ceremony
        self.deviceName = deviceName
        self.session = session
    }

    /// The server's origin (`http://localhost:8080` for a local server): what the software authenticator reports.
    public var origin: String { SoftwareAuthenticator.serverOrigin(baseURL) }

    /// The origin the ceremony reports for the relying party of `rpID` (nil: the server's host).
    public func ceremonyOrigin(relyingPartyID rpID: String?) -> String {
        ceremony.origin(relyingPartyID: rpID ?? baseURL.host ?? "localhost", serverURL: baseURL)
    }

    struct OptionsEnvelope<T: Decodable>: Decodable { var publicKey: T }
    struct RegisterRequest: Encodable { var username: String? }

    /// What the server answers to a registration: the new credential id, and tokens when the
    /// registration created the account.
    public struct RegistrationResult: Sendable, Decodable {
        public var id: String
        public var tokens: TokenGrant?

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            id = try c.decode(String.self, forKey: .id)
            tokens = try? TokenGrant(from: decoder)
        }
        enum Keys: String, CodingKey { case id }
    }

    /// Creates an account with a passkey (`username`) or, with `accessToken`, adds a passkey to it.
    public func register(username: String?, accessToken: String? = nil) async throws(PasskeyClientError)
        -> RegistrationResult {
        let options: OptionsEnvelope<PublicKeyCredentialCreationOptions> = try await post(
            "v1/passkeys/register/options", RegisterRequest(username: username), bearer: accessToken)
        let response: RegistrationResponse
        do {
            let origin = ceremonyOrigin(relyingPartyID: options.publicKey.rp.id)
            response = try await ceremony.register(options.publicKey, origin: origin)
        } catch {
            throw PasskeyClientError(ceremony: error)
        }
        return try await post("v1/passkeys/register/verify", NamedSession(response, deviceName: deviceName),
                              bearer: accessToken)
    }

    /// Signs in with a discoverable passkey and returns the server's tokens. With `autoFill`, the passkey is offered in
    /// the username field's suggestions (`performAutoFillAssistedRequests`) and the call returns once the user picks it.
    /// With `reauthenticating`, the current access token goes with the assertion as the Bearer and the server renews
    /// that session's authentication time (step-up, `AccountReauthentication.passkey`) instead of starting a new one.
    public func signIn(autoFill: Bool = false, reauthenticating accessToken: String? = nil)
        async throws(PasskeyClientError) -> TokenGrant {
        let options = try await assertionOptions()
        let origin = ceremonyOrigin(relyingPartyID: options.rpId)
        let response: AuthenticationResponse
        do {
            response = autoFill ? try await ceremony.authenticateWithAutoFill(options, origin: origin)
                                : try await ceremony.authenticate(options, origin: origin)
        } catch {
            throw PasskeyClientError(ceremony: error)
        }
        return try await verifyAssertion(response, reauthenticating: accessToken)
    }

    /// The server's options for a discoverable passkey sign-in (`POST /v1/passkeys/authenticate/options`).
    func assertionOptions() async throws(PasskeyClientError) -> PublicKeyCredentialRequestOptions {
        let options: OptionsEnvelope<PublicKeyCredentialRequestOptions> = try await post(
            "v1/passkeys/authenticate/options", RegisterRequest(username: nil), bearer: nil)
        return options.publicKey
    }

    /// The session a passkey's assertion starts (`POST /v1/passkeys/authenticate/verify`), or, with
    /// `reauthenticating`, the session of that access token renewed.
    func verifyAssertion(_ response: AuthenticationResponse, reauthenticating accessToken: String? = nil)
        async throws(PasskeyClientError) -> TokenGrant {
        try await post("v1/passkeys/authenticate/verify", NamedSession(response, deviceName: deviceName),
                       bearer: accessToken)
    }

    /// A ceremony's response with the session's `device_name` next to the credential's members.
    struct NamedSession<Response: Encodable>: Encodable {
        var response: Response
        var deviceName: String?

        init(_ response: Response, deviceName: String?) {
            self.response = response
            self.deviceName = deviceName
        }

        enum Keys: String, CodingKey { case deviceName = "device_name" }

        func encode(to encoder: any Encoder) throws {
            try response.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encodeIfPresent(deviceName, forKey: .deviceName)
        }
    }

    struct PasskeyListReply: Decodable { var passkeys: [PasskeyInfo] }
    struct RenameRequest: Encodable { var name: String }
    struct NoBody: Encodable {}

    /// The passkeys of the signed-in account (`GET /v1/passkeys`).
    public func passkeys(accessToken: String) async throws(PasskeyClientError) -> [PasskeyInfo] {
        let reply: PasskeyListReply = try await send("GET", "v1/passkeys", Optional<NoBody>.none, bearer: accessToken)
        return reply.passkeys
    }

    /// Renames one of the signed-in account's passkeys (`PATCH /v1/passkeys/ID`); returns it as stored.
    public func rename(passkeyID: String, to name: String, accessToken: String) async throws(PasskeyClientError)
        -> PasskeyInfo {
        try await send("PATCH", "v1/passkeys/\(passkeyID)", RenameRequest(name: name), bearer: accessToken)
    }

    struct ServerError: Decodable {
        var error: String
        var error_description: String?
    }

    func post<Body: Encodable, Reply: Decodable>(_ path: String, _ body: Body, bearer: String?)
        async throws(PasskeyClientError) -> Reply {
        try await send("POST", path, body, bearer: bearer)
    }

    func send<Body: Encodable, Reply: Decodable>(_ method: String, _ path: String, _ body: Body?, bearer: String?)
        async throws(PasskeyClientError) -> Reply {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            do { request.httpBody = try JSONEncoder().encode(body) } catch { throw .badResponse("encoding") }
        }
        let data: Data, response: URLResponse
        do { (data, response) = try await session.data(for: request) } catch {
            throw .network(error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            let reason = (try? JSONDecoder().decode(ServerError.self, from: data))
            throw .rejected(status: status, error: reason?.error ?? "http_\(status)",
                            description: reason?.error_description)
        }
        do { return try JSONDecoder().decode(Reply.self, from: data) } catch { throw .badResponse(path) }
    }
}

/// Why a passkey registration or sign-in against the server failed. `.canceled` (the user closed the system's sheet,
/// or the task was cancelled) is not a failure to show.
public enum PasskeyClientError: Error, Sendable, Equatable {
    case network(String)
    case rejected(status: Int, error: String, description: String?)
    case badResponse(String)
    /// The device side failed: a `PlatformPasskeyCeremony`'s `AuthorizationCeremonyError`, or another ceremony's text.
    case ceremony(AuthorizationCeremonyError)
    case ceremonyFailed(String)
    case canceled

    /// The error a ceremony's failure becomes.
    init(ceremony error: any Error) {
        switch error {
        case let failure as AuthorizationCeremonyError: self = failure.isCancellation ? .canceled : .ceremony(failure)
        case is CancellationError: self = .canceled
        default: self = .ceremonyFailed(error.localizedDescription)
        }
    }

    /// Whether a UI should show this error (not for a cancellation).
    public var shouldShowToUser: Bool { self != .canceled }
}

extension PasskeyClientError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case let .network(w):
            return lang.pick(english: "Could not reach the server: \(w)", korean: "서버에 연결할 수 없습니다: \(w)")
        case let .rejected(status, error, description):
            let detail = description.map { ": \($0)" } ?? ""
            return lang.pick(english: "The server refused the passkey (\(status) \(error))\(detail)",
                             korean: "서버가 패스키를 거부했습니다 (\(status) \(error))\(detail)")
        case let .badResponse(w):
            return lang.pick(english: "Unexpected answer from the server (\(w))", korean: "서버 응답이 올바르지 않습니다 (\(w))")
        case let .ceremony(failure):
            return failure.errorDescription
        case let .ceremonyFailed(w):
            return lang.pick(english: "The passkey ceremony failed: \(w)", korean: "패스키 절차가 실패했습니다: \(w)")
        case .canceled:
            return lang.pick(english: "Canceled.", korean: "취소되었습니다.")
        }
    }
}
