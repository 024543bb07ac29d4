import Foundation
import Latchkey
import LatchkeyCrypto
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Who may open the notes: the app's own password account on this device, or an account of the server (a passkey,
/// Sign in with Apple, or its password saved for the server's website). Kept in the keychain while signed in; each
/// account has its own notes.
public struct SignedInAccount: Codable, Sendable, Hashable {
    public enum Method: String, Codable, Sendable, Hashable {
        /// `password` is the app's own account on this device; `serverPassword` the server's, from a saved password.
        case password, passkey, apple, serverPassword
    }

    public var method: Method
    /// The user name: the password account's, or the server's (`GET /v1/me`).
    public var username: String
    /// The server's host, for a server account.
    public var server: String?

    /// Names the account's notes in the keychain.
    public var notesOwner: String { method == .password ? "local:\(username)" : "\(server ?? ""):\(username)" }
}

/// A session on the server: its tokens and the account's user name.
public struct ServerSession: Sendable, Hashable {
    public var tokens: TokenGrant
    public var username: String
}

/// `GET /v1/me`: whose session the tokens are. Its failures are the sign-in screen's (network, rejected, failed).
struct ServerAccounts: Sendable {
    let baseURL: URL

    func username(accessToken: String) async throws(SignInScreenError) -> String {
        var request = URLRequest(url: baseURL.appendingPathComponent("v1/me"))
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        let data: Data, response: URLResponse
        do { (data, response) = try await URLSession.shared.data(for: request) } catch { throw .network }
        switch (response as? HTTPURLResponse)?.statusCode {
        case 200: break
        case 401, 403: throw .rejected
        default: throw .failed
        }
        struct Me: Decodable { var username: String }
        guard let me = try? JSONDecoder().decode(Me.self, from: data) else { throw .failed }
        return me.username
    }
}
