import Foundation
import LatchkeyCrypto

/// Apple's answer to an authorization-code exchange (`/auth/token`).
public struct AppleTokenResponse: Sendable, Hashable, Decodable {
    public var accessToken: String?
    public var tokenType: String?
    public var expiresIn: Int?
    /// Keep this: revoking it is required when the user deletes their account (App Store rule 5.1.1(v)).
    public var refreshToken: String?
    public var idToken: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
        case refreshToken = "refresh_token", idToken = "id_token"
    }
}

/// The server as a client of Apple: authorization-code exchange and token revocation.
public struct AppleAuthClient: Sendable {
    public let configuration: AppleSignInConfiguration
    let http: any AppleHTTPClient
    let now: @Sendable () -> Date

    public init(configuration: AppleSignInConfiguration, http: any AppleHTTPClient = URLSessionAppleHTTPClient(),
                now: @escaping @Sendable () -> Date = Date.init) {
        self.configuration = configuration
        self.http = http
        self.now = now
    }

    func clientSecret(clientID: String) throws(AppleSignInError) -> String {
        guard let team = configuration.teamID, let kid = configuration.keyID, let key = configuration.privateKey else {
            throw .clientSecretUnavailable
        }
        return try AppleClientSecret.make(teamID: team, keyID: kid, clientID: clientID, privateKey: key, now: now())
    }

    /// Exchanges a single-use authorization code (valid five minutes) for Apple's tokens.
    public func exchange(code: String, clientID: String, redirectURI: String? = nil) async throws(AppleSignInError)
        -> AppleTokenResponse {
        var fields = [("client_id", clientID), ("client_secret", try clientSecret(clientID: clientID)),
                      ("code", code), ("grant_type", "authorization_code")]
        if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
        let (status, body) = try await post(configuration.tokenURL, fields)
        guard status == 200 else { throw .appleRejected(status: status, error: Self.errorCode(body)) }
        guard let response = try? JSONDecoder().decode(AppleTokenResponse.self, from: body) else {
            throw .appleRejected(status: status, error: "malformed response")
        }
        return response
    }

    /// Revokes a refresh or access token at Apple (Apple answers 200 even for an unknown token).
    public func revoke(token: String, tokenTypeHint: String = "refresh_token", clientID: String) async throws(AppleSignInError) {
        let fields = [("client_id", clientID), ("client_secret", try clientSecret(clientID: clientID)),
                      ("token", token), ("token_type_hint", tokenTypeHint)]
        let (status, body) = try await post(configuration.revokeURL, fields)
        guard status == 200 else { throw .appleRejected(status: status, error: Self.errorCode(body)) }
    }

    func post(_ url: URL, _ fields: [(String, String)]) async throws(AppleSignInError) -> (Int, Data) {
        do { return try await http.postForm(url, fields) } catch {
            throw .appleRejected(status: 0, error: "network: \(error.localizedDescription)")
        }
    }

    static func errorCode(_ body: Data) -> String {
        struct E: Decodable { var error: String }
        return (try? JSONDecoder().decode(E.self, from: body))?.error ?? "unknown"
    }
}
