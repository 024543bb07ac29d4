import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Name and email Apple shared with an app's first authorization: kept in the keychain until the server stored them.
public struct AppleProfile: Sendable, Hashable, Codable {
    public var userID: String
    public var email: String?
    public var givenName: String?
    public var familyName: String?

    public init(userID: String, email: String?, givenName: String?, familyName: String?) {
        self.userID = userID
        self.email = email
        self.givenName = givenName
        self.familyName = familyName
    }
}

/// A Latchkey server's Sign in with Apple endpoint (`POST /v1/session/apple`): verifies the identity token with the raw
/// nonce, exchanges the authorization code, and starts a session (the same tokens as a password login).
public struct AppleSessionClient: Sendable {
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
        struct User: Encodable {
            struct Name: Encodable {
                var firstName: String?
                var lastName: String?
            }
            var email: String?
            var name: Name?
        }
        var identity_token: String
        var raw_nonce: String
        var authorization_code: String?
        var user: User?
        var device_name: String?
    }

    struct ServerError: Decodable {
        var error: String
        var error_description: String?
    }

    /// Starts a session for `identityToken`; `profile` (first sign-in) is stored with the account. With `bearer` (the
    /// signed-in session's access token), an Apple ID linked to that account re-authenticates the session (step-up:
    /// the same session, renewed), and one linked to no account is linked to it.
    public func startSession(identityToken: String, rawNonce: String, authorizationCode: String?, profile: AppleProfile?,
                             bearer: String? = nil) async throws(SignInWithAppleError) -> TokenGrant {
        var user: Body.User?
        if let profile {
            let name = profile.givenName == nil && profile.familyName == nil
                ? nil : Body.User.Name(firstName: profile.givenName, lastName: profile.familyName)
            user = Body.User(email: profile.email, name: name)
        }
        var request = URLRequest(url: baseURL.appendingPathComponent("v1/session/apple"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        do {
            request.httpBody = try JSONEncoder().encode(Body(identity_token: identityToken, raw_nonce: rawNonce,
                                                             authorization_code: authorizationCode, user: user,
                                                             device_name: deviceName))
        } catch {
            throw .badResponse
        }
        let data: Data, response: URLResponse
        do { (data, response) = try await session.data(for: request) } catch {
            if error is CancellationError || (error as? URLError)?.code == .cancelled { throw .canceled }
            throw .network(error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            let reason = try? JSONDecoder().decode(ServerError.self, from: data)
            throw .rejected(status: status, error: reason?.error ?? "http_\(status)", description: reason?.error_description)
        }
        do { return try JSONDecoder().decode(TokenGrant.self, from: data) } catch { throw .badResponse }
    }
}
