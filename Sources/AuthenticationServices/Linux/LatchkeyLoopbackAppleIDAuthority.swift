#if os(Linux)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Linux only: an Apple ID authority over HTTP — `latchkey apple-stand-in` (LatchkeyServer's `AppleIDStandIn`), the
/// development stand-in for appleid.apple.com. `POST /dev/authorize` signs an identity token for `clientID` (the bundle
/// identifier a real app has) and `appleID`; `GET /dev/credential-state` answers the state of a user identifier.
public struct LatchkeyLoopbackAppleIDAuthority: LatchkeyAppleIDAuthority {
    /// The stand-in's root (`http://127.0.0.1:PORT`).
    public let baseURL: URL
    /// The identity token's audience: the app's bundle identifier.
    public let clientID: String
    /// The Apple ID signed in on this "device".
    public let appleID: String
    let session: URLSession

    public init(baseURL: URL, clientID: String, appleID: String = "appleseed@example.com", session: URLSession = .shared) {
        self.baseURL = baseURL
        self.clientID = clientID
        self.appleID = appleID
        self.session = session
    }

    struct AuthorizeBody: Encodable {
        var client_id: String
        var apple_id: String
        var scopes: [String]
        var nonce: String?
        var state: String?
        var user: String?
    }

    struct AuthorizeReply: Decodable {
        struct Name: Decodable {
            var given_name: String?
            var family_name: String?
        }
        var user: String
        var identity_token: String
        var authorization_code: String
        var email: String?
        var full_name: Name?
        var real_user_status: Int
        var state: String?
        var authorized_scopes: [String]
    }

    struct StateReply: Decodable { var state: String }

    public func authorize(_ request: LatchkeyAppleIDAuthorizationRequest) async throws -> LatchkeyAppleIDAuthorization {
        let body = AuthorizeBody(client_id: clientID, apple_id: appleID, scopes: request.scopes.map(\.rawValue),
                                 nonce: request.nonce, state: request.state, user: request.user)
        var http = URLRequest(url: baseURL.appendingPathComponent("dev/authorize"))
        http.httpMethod = "POST"
        http.setValue("application/json", forHTTPHeaderField: "Content-Type")
        http.httpBody = try JSONEncoder().encode(body)
        let reply = try JSONDecoder().decode(AuthorizeReply.self, from: try await send(http))
        var name: PersonNameComponents?
        if let full = reply.full_name {
            var components = PersonNameComponents()
            components.givenName = full.given_name
            components.familyName = full.family_name
            name = components
        }
        return LatchkeyAppleIDAuthorization(
            user: reply.user, state: reply.state,
            authorizedScopes: reply.authorized_scopes.map { ASAuthorization.Scope(rawValue: $0) },
            authorizationCode: Data(reply.authorization_code.utf8), identityToken: Data(reply.identity_token.utf8),
            email: reply.email, fullName: name,
            realUserStatus: ASUserDetectionStatus(rawValue: reply.real_user_status) ?? .unknown)
    }

    public func credentialState(forUserID userID: String) async throws -> ASAuthorizationAppleIDProvider.CredentialState {
        var components = URLComponents(url: baseURL.appendingPathComponent("dev/credential-state"),
                                       resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "client_id", value: clientID), URLQueryItem(name: "user", value: userID)]
        guard let url = components?.url else { throw ASAuthorizationError(.invalidResponse, reason: "bad stand-in URL") }
        let reply = try JSONDecoder().decode(StateReply.self, from: try await send(URLRequest(url: url)))
        switch reply.state {
        case "authorized": return .authorized
        case "revoked": return .revoked
        case "transferred": return .transferred
        default: return .notFound
        }
    }

    func send(_ request: URLRequest) async throws -> Data {
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw ASAuthorizationError(.failed, reason: "The Apple ID stand-in answered \(status).")
        }
        return data
    }
}
#endif
