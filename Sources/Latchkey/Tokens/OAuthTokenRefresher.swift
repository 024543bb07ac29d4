import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Refreshes tokens with OAuth 2.0's refresh-token grant (RFC 6749 §6): a form-encoded
/// `POST grant_type=refresh_token&refresh_token=...` to the token endpoint, answered by a §5.1 token
/// response or a §5.2 error.
public struct OAuthTokenRefresher: TokenRefresher {
    /// The token endpoint (e.g. `https://auth.example.com/v1/token`).
    public let tokenEndpoint: URL
    /// The public client's `client_id`, sent in the body; `nil` sends none.
    public let clientID: String?
    /// Extra body parameters (e.g. `resource`).
    public let additionalParameters: [String: String]
    /// When set, each refresh carries an App Attest assertion (`X-App-Attest-Assertion`), for servers whose token
    /// refresh requires one (`latchkey serve --app-attest-policy token-refresh=require`).
    public let appAttest: AppAttestClient?
    private let session: URLSession

    /// Creates a refresher.
    public init(tokenEndpoint: URL, clientID: String? = nil, additionalParameters: [String: String] = [:],
                session: URLSession = .shared, appAttest: AppAttestClient? = nil) {
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.additionalParameters = additionalParameters
        self.session = session
        self.appAttest = appAttest
    }

    public func refresh(using refreshToken: String, scope: String?) async throws(TokenRefreshError) -> TokenGrant {
        var parameters = additionalParameters
        parameters["grant_type"] = "refresh_token"
        parameters["refresh_token"] = refreshToken
        if let clientID { parameters["client_id"] = clientID }
        if let scope { parameters["scope"] = scope }

        var request = URLRequest(url: tokenEndpoint)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(FormEncoding.encode(parameters).utf8)
        request.cachePolicy = .reloadIgnoringLocalCacheData

        let data: Data
        let response: URLResponse
        do {
            if let appAttest {
                (data, response) = try await appAttest.data(for: request)
            } else {
                (data, response) = try await session.data(for: request)
            }
        } catch let error as AppAttestClientError {
            throw .appAttest(error)
        } catch let error as URLError {
            throw .network("URLError \(error.code.rawValue)")
        } catch {
            throw .network(String(describing: type(of: error)))
        }
        guard let http = response as? HTTPURLResponse else { throw .badResponse("not an HTTP response") }
        return try Self.interpret(status: http.statusCode, body: data)
    }

    /// Turns a token endpoint's answer into a grant or a typed error (internal for tests).
    static func interpret(status: Int, body: Data) throws(TokenRefreshError) -> TokenGrant {
        guard (200..<300).contains(status) else {
            let code = (try? JSONDecoder().decode(OAuthErrorBody.self, from: body))?.error
            if code == "invalid_grant" { throw .invalidGrant }
            throw .server(status: status, code: code)
        }
        let grant: TokenGrant
        do {
            grant = try JSONDecoder().decode(TokenGrant.self, from: body)
        } catch {
            throw .badResponse("the body is not a token response")
        }
        guard !grant.accessToken.isEmpty else { throw .badResponse("empty access_token") }
        guard grant.tokenType.lowercased() == "bearer" else { throw .badResponse("token_type is not Bearer") }
        if let expiresIn = grant.expiresIn, !(expiresIn.isFinite && expiresIn > 0) {
            throw .badResponse("expires_in is not a positive number")
        }
        return grant
    }
}

/// RFC 6749 §5.2 error body.
struct OAuthErrorBody: Decodable {
    var error: String
    var errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}

/// `application/x-www-form-urlencoded` (the WHATWG URL standard's serializer).
enum FormEncoding {
    static func encode(_ parameters: [String: String]) -> String {
        parameters.sorted { $0.key < $1.key }
            .map { "\(escape($0.key))=\(escape($0.value))" }
            .joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "*"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result += "%"
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }
}
