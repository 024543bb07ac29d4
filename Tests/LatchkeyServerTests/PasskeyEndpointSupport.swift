import Foundation
import Testing
import LatchkeyWebAuthn
@testable import LatchkeyServer

struct OptionsEnvelopeForTests<T: Decodable>: Decodable { var publicKey: T }

/// The auth service plus the passkey endpoints on one router, and helpers that play the browser with
/// `SoftwareAuthenticator`.
struct PasskeyEndpointFixture: Sendable {
    static let origin = "http://localhost:8080"
    let base: ServiceFixture
    let passkeys: PasskeyService
    let router: Router

    static func make(_ engine: StorageEngine = .sqlite, userVerification: UserVerificationRequirement = .required,
                     metadata: MetadataService? = nil) async throws -> PasskeyEndpointFixture? {
        guard let base = try await ServiceFixture.make(engine) else { return nil }
        let configuration = WebAuthnConfiguration(relyingPartyID: "localhost", relyingPartyName: "Latchkey tests",
                                                  allowedOrigins: [origin], userVerification: userVerification)
        let passkeys = try PasskeyService(auth: base.service, configuration: configuration, metadata: metadata,
                                      userVerification: userVerification)
        return PasskeyEndpointFixture(base: base, passkeys: passkeys, router: Router(base.service.routes() + passkeys.routes()))
    }

    func request(_ method: String, _ path: String, body: Data? = nil, bearer: String? = nil) async -> HTTPResponse {
        var headers: [String: String] = [:]
        if let body, !body.isEmpty { headers["content-type"] = "application/json" }
        if let bearer { headers["authorization"] = "Bearer \(bearer)" }
        return await router.handle(HTTPRequest(method: method, path: path, headers: headers, body: body ?? Data(),
                                               remoteAddress: "127.0.0.1"))
    }

    func json(_ object: [String: String]) -> Data { (try? JSONSerialization.data(withJSONObject: object)) ?? Data() }

    /// Runs the registration ceremony; returns the verify response.
    func register(_ authenticator: SoftwareAuthenticator, username: String?, bearer: String? = nil) async throws -> HTTPResponse {
        let options = await request("POST", "/v1/passkeys/register/options",
                                    body: json(username.map { ["username": $0] } ?? [:]), bearer: bearer)
        try #require(options.status == 200, "\(String(decoding: options.body, as: UTF8.self))")
        let envelope = try JSONDecoder().decode(OptionsEnvelopeForTests<PublicKeyCredentialCreationOptions>.self, from: options.body)
        let credential = try authenticator.register(envelope.publicKey, origin: Self.origin)
        return await request("POST", "/v1/passkeys/register/verify", body: try JSONEncoder().encode(credential), bearer: bearer)
    }

    /// Gets fresh options and an assertion for them.
    func assertion(_ authenticator: SoftwareAuthenticator) async throws -> AuthenticationResponse {
        let options = await request("POST", "/v1/passkeys/authenticate/options", body: Data("{}".utf8))
        try #require(options.status == 200)
        let envelope = try JSONDecoder().decode(OptionsEnvelopeForTests<PublicKeyCredentialRequestOptions>.self, from: options.body)
        #expect(envelope.publicKey.allowCredentials?.isEmpty ?? true)
        return try authenticator.authenticate(envelope.publicKey, origin: Self.origin)
    }

    func signIn(_ assertion: AuthenticationResponse) async throws -> HTTPResponse {
        await request("POST", "/v1/passkeys/authenticate/verify", body: try JSONEncoder().encode(assertion))
    }
}

extension HTTPResponse {
    var object: [String: Any] {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:]
    }
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}
