import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// `POST /v1/app-attest/challenge` answer.
struct AppAttestChallengeBody: Encodable, Sendable {
    var challenge: String
    var expiresIn: Int64

    enum CodingKeys: String, CodingKey {
        case challenge
        case expiresIn = "expires_in"
    }
}

/// `POST /v1/app-attest/attest` body: the key identifier, the challenge the attestation was made over, and
/// `attestKey(_:clientDataHash:)`'s object, each base64url.
struct AppAttestAttestRequest: Decodable, Sendable {
    var keyID: Base64URLBytes
    var challenge: Base64URLBytes
    var attestation: Base64URLBytes

    enum CodingKeys: String, CodingKey {
        case challenge, attestation
        case keyID = "key_id"
    }
}

/// `POST /v1/app-attest/attest` answer.
struct AppAttestKeyBody: Encodable, Sendable {
    var keyID: String
    var appID: String
    var environment: String

    enum CodingKeys: String, CodingKey {
        case environment
        case keyID = "key_id"
        case appID = "app_id"
    }
}

extension AppAttestService {
    /// `POST /v1/app-attest/challenge` (a one-time challenge) and `POST /v1/app-attest/attest` (a key's attestation).
    /// Served whatever the configuration (404 without one), so the route table is the API document's.
    public func routes() -> [Route] {
        [
            Route("POST", "/v1/app-attest/challenge") { [self] in handleChallenge($0) },
            Route("POST", "/v1/app-attest/attest") { [self] in handleAttest($0) },
        ]
    }

    func handleChallenge(_ request: HTTPRequest) -> HTTPResponse {
        if !request.body.isEmpty {
            do { _ = try request.decodeJSON(AuthenticationOptionsRequest.self) } catch { return error.response }
        }
        do {
            let (challenge, lifetime) = try issueChallenge()
            return .json(AppAttestChallengeBody(challenge: challenge.base64URLEncodedString(), expiresIn: lifetime))
        } catch {
            return error.response
        }
    }

    func handleAttest(_ request: HTTPRequest) -> HTTPResponse {
        let body: AppAttestAttestRequest
        do { body = try request.decodeJSON(AppAttestAttestRequest.self) } catch { return error.response }
        guard configuration != nil else { return AppAttestEndpointError.notConfigured.response }
        guard body.keyID.data.count == 32 else {
            return AppAttestEndpointError.invalidRequest("key_id must be 32 bytes (base64url).").response
        }
        guard !body.challenge.data.isEmpty, !body.attestation.data.isEmpty else {
            return AppAttestEndpointError.invalidRequest("challenge and attestation must not be empty.").response
        }
        do {
            let (key, created) = try attest(keyID: body.keyID.data, challenge: body.challenge.data,
                                            attestation: body.attestation.data, ip: request.remoteAddress)
            return .json(AppAttestKeyBody(keyID: key.keyID.base64URLEncodedString(), appID: key.appID,
                                          environment: key.environment.rawValue), status: created ? 201 : 200)
        } catch {
            return error.response
        }
    }
}
