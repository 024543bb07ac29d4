import Foundation

/// A server's demand for a recent sign-in before a sensitive request (OAuth 2.0 Step Up Authentication Challenge,
/// RFC 9470): `401` with `WWW-Authenticate: Bearer error="insufficient_user_authentication", error_description="…",
/// max_age=N`. An `AccountReauthentication` meets it by signing in again with `accessToken` as the Bearer, which renews
/// the same session's authentication time.
public struct StepUpChallenge: Sendable, Hashable, CustomStringConvertible {
    /// The access token the refused request carried: the Bearer of the re-authenticating sign-in. Not in `description`.
    public var accessToken: String
    /// How recent (seconds) the server wants the sign-in, when it said.
    public var maxAge: Int?
    /// The server's `error_description`, when it gave one (English, for logs; not for the user).
    public var reason: String?

    public init(accessToken: String, maxAge: Int?, reason: String?) {
        self.accessToken = accessToken
        self.maxAge = maxAge
        self.reason = reason
    }

    public var description: String { "StepUpChallenge(maxAge: \(maxAge.map(String.init) ?? "-"))" }

    static let errorCode = "insufficient_user_authentication"

    /// The challenge in a `401` answer: its `WWW-Authenticate` Bearer challenge, else its error body; `nil` for any
    /// other answer.
    init?(status: Int, wwwAuthenticate: String?, body: Data, accessToken: String) {
        guard status == 401 else { return nil }
        let parameters = wwwAuthenticate.flatMap(Self.bearerParameters) ?? [:]
        let errorBody = try? JSONDecoder().decode(ErrorBody.self, from: body)
        guard parameters["error"] == Self.errorCode || errorBody?.error == Self.errorCode else { return nil }
        self.init(accessToken: accessToken, maxAge: parameters["max_age"].flatMap { Int($0) } ?? errorBody?.maxAge,
                  reason: parameters["error_description"] ?? errorBody?.errorDescription)
    }

    struct ErrorBody: Decodable {
        var error: String
        var errorDescription: String?
        var maxAge: Int?

        enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
            case maxAge = "max_age"
        }
    }

    /// The auth-params of the `Bearer` challenge in a `WWW-Authenticate` value (RFC 9110 §11.6.1: `name=token` or
    /// `name="quoted string"`, comma-separated; names case-insensitive), or `nil` without a Bearer challenge.
    static func bearerParameters(_ header: String) -> [String: String]? {
        var scanner = Substring(header)
        scanner = scanner.drop { $0 == " " || $0 == "\t" || $0 == "," }
        let scheme = scanner.prefix { $0 != " " && $0 != "\t" && $0 != "," }
        guard scheme.lowercased() == "bearer" else { return nil }
        scanner = scanner.dropFirst(scheme.count)
        var parameters: [String: String] = [:]
        while true {
            scanner = scanner.drop { $0 == " " || $0 == "\t" || $0 == "," }
            let name = scanner.prefix { $0 != "=" && $0 != " " && $0 != "\t" && $0 != "," }
            guard !name.isEmpty else { break }
            scanner = scanner.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
            guard scanner.first == "=" else { break }   // the next challenge's scheme: this one ends
            scanner = scanner.dropFirst().drop { $0 == " " || $0 == "\t" }
            var value = ""
            if scanner.first == "\"" {
                scanner = scanner.dropFirst()
                while let character = scanner.first, character != "\"" {
                    scanner = scanner.dropFirst()
                    if character == "\\", let escaped = scanner.first {
                        value.append(escaped)
                        scanner = scanner.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                scanner = scanner.dropFirst()
            } else {
                let token = scanner.prefix { $0 != "," && $0 != " " && $0 != "\t" }
                value = String(token)
                scanner = scanner.dropFirst(token.count)
            }
            parameters[name.lowercased()] = value
        }
        return parameters
    }
}
