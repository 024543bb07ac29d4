import Foundation
import LatchkeyCrypto
import LatchkeySupport

/// A development stand-in for appleid.apple.com on loopback — **never for production**: it signs identity tokens for
/// whoever asks. It lets Sign in with Apple run end to end without Apple: `latchkey serve --apple-base-url` verifies its
/// tokens, and the Linux `AuthenticationServices` module (`LatchkeyLoopbackAppleIDAuthority`) signs in through it.
///
/// Apple's endpoints, as a server uses them:
/// - `GET /auth/keys`: the JWK Set of its RSA signing key (made when it starts).
/// - `POST /auth/token`: exchanges a single-use authorization code (5 minutes) or a refresh token; the `client_secret`
///   (an ES256 JWT) is verified with the configured team keys, or only read when none are configured.
/// - `POST /auth/revoke`: revokes a token; a token of a user revokes that user's authorization of the app. Every call
///   whose client secret verifies is recorded (`revocations`, `GET /dev/revocations`), known token or not; Apple
///   answers 200 either way.
///
/// What a device would do (development only):
/// - `POST /dev/authorize` (JSON `client_id`, `apple_id`, `scopes`, `nonce`, `state`): signs an RS256 identity token
///   (`iss`, `aud` = client id, `sub`, `nonce` as given, `email`, `is_private_email`, `real_user_status`) and issues a
///   one-time authorization code; name and email come with an app's first authorization only, as Apple's do.
/// - `GET /dev/credential-state?client_id=&user=`: `authorized`, `revoked` or `notFound`.
/// - `POST /dev/revoke` (JSON `client_id`, `user`): the user stops using Sign in with Apple with the app.
/// - `GET /dev/revocations`: the `/auth/revoke` calls it accepted, oldest first: `client_id`, `token_type_hint`, and
///   `user` when the token was one it issued (never the token).
///
/// `stop()` and `start()` again bring it down and back on the same port with its memory (users, tokens, revocations):
/// how a test makes Apple unreachable for a while.
public final class AppleIDStandIn: Sendable {
    /// A Sign in with Apple key of a developer team, for checking client secrets.
    public struct TeamKey: Sendable {
        public var teamID: String
        public var keyID: String
        public var publicKey: P256.Signing.PublicKey
        public init(teamID: String, keyID: String, publicKey: P256.Signing.PublicKey) {
            self.teamID = teamID
            self.keyID = keyID
            self.publicKey = publicKey
        }
    }

    public struct Configuration: Sendable {
        /// The apps (bundle ids, Services IDs) it signs for; empty signs for any.
        public var clientIDs: Set<String>
        /// Keys that client secrets must be signed with; empty checks only their shape and `sub`.
        public var teamKeys: [TeamKey]
        public var host: String
        /// 0 picks a free port.
        public var port: UInt16
        public var issuer: String
        public var identityTokenLifetime: TimeInterval
        public var codeLifetime: TimeInterval

        public init(clientIDs: Set<String> = [], teamKeys: [TeamKey] = [], host: String = "127.0.0.1", port: UInt16 = 0,
                    issuer: String = "https://appleid.apple.com", identityTokenLifetime: TimeInterval = 600,
                    codeLifetime: TimeInterval = 300) {
            self.clientIDs = clientIDs
            self.teamKeys = teamKeys
            self.host = host
            self.port = port
            self.issuer = issuer
            self.identityTokenLifetime = identityTokenLifetime
            self.codeLifetime = codeLifetime
        }
    }

    /// One authorization as a device asks for it (`POST /dev/authorize`).
    public struct AuthorizationRequest: Sendable, Decodable {
        public var clientID: String
        public var appleID: String
        public var scopes: [String]
        public var nonce: String?
        public var state: String?
        /// The name the Apple ID shares (default: the Apple ID's local part, "Appleseed").
        public var givenName: String?
        public var familyName: String?
        /// Share the real address instead of a private relay address.
        public var shareRealEmail: Bool

        public init(clientID: String, appleID: String, scopes: [String] = ["full_name", "email"], nonce: String? = nil,
                    state: String? = nil, givenName: String? = nil, familyName: String? = nil,
                    shareRealEmail: Bool = false) {
            self.clientID = clientID
            self.appleID = appleID
            self.scopes = scopes
            self.nonce = nonce
            self.state = state
            self.givenName = givenName
            self.familyName = familyName
            self.shareRealEmail = shareRealEmail
        }

        enum CodingKeys: String, CodingKey {
            case clientID = "client_id", appleID = "apple_id", scopes, nonce, state
            case givenName = "given_name", familyName = "family_name", shareRealEmail = "share_real_email"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(clientID: try c.decode(String.self, forKey: .clientID),
                      appleID: try c.decode(String.self, forKey: .appleID),
                      scopes: try c.decodeIfPresent([String].self, forKey: .scopes) ?? [],
                      nonce: try c.decodeIfPresent(String.self, forKey: .nonce),
                      state: try c.decodeIfPresent(String.self, forKey: .state),
                      givenName: try c.decodeIfPresent(String.self, forKey: .givenName),
                      familyName: try c.decodeIfPresent(String.self, forKey: .familyName),
                      shareRealEmail: try c.decodeIfPresent(Bool.self, forKey: .shareRealEmail) ?? false)
        }
    }

    /// What `POST /dev/authorize` answers: the fields of `ASAuthorizationAppleIDCredential`.
    public struct Authorization: Sendable, Encodable, CustomStringConvertible {
        public struct Name: Sendable, Encodable {
            public var givenName: String?
            public var familyName: String?
            enum CodingKeys: String, CodingKey { case givenName = "given_name", familyName = "family_name" }
        }
        public var user: String
        /// A bearer credential: not in `description`.
        public var identityToken: String
        /// Single use: not in `description`.
        public var authorizationCode: String
        public var email: String?
        public var fullName: Name?
        public var realUserStatus: Int
        public var state: String?
        public var authorizedScopes: [String]

        enum CodingKeys: String, CodingKey {
            case user, email, state
            case identityToken = "identity_token", authorizationCode = "authorization_code", fullName = "full_name"
            case realUserStatus = "real_user_status", authorizedScopes = "authorized_scopes"
        }

        public var description: String { "AppleIDStandIn.Authorization(user: \(user), scopes: \(authorizedScopes))" }
    }

    /// Why the stand-in refused.
    public enum Refusal: Error, Sendable, Equatable, LocalizedError {
        /// The client id is not one it signs for.
        case unknownClient(String)

        public var errorDescription: String? {
            switch self {
            case .unknownClient(let id):
                MessageLanguage.current.pick(english: "The Apple ID stand-in does not sign for the client id \(id).",
                                             korean: "Apple ID 대역은 클라이언트 ID \(id)의 토큰을 발급하지 않습니다.")
            }
        }
    }

    public let configuration: Configuration
    /// The RSA key identity tokens are signed with (its public half is at `/auth/keys`).
    public let signingKey: RSA.Signing.PrivateKey
    /// The `kid` of `signingKey`.
    public let keyID: String
    /// The HTTP server it answers on (a new one after each `stop()` and `start()`).
    public var server: HTTPServer { serving.withLock { $0.server } }
    /// The server, the port it was bound to and whether it was stopped (then `start()` makes another on that port).
    struct Serving {
        var server: HTTPServer
        var port: UInt16 = 0
        var stopped = false
    }
    let serving: Locked<Serving>
    let ledger = Locked(AppleIDStandInLedger())
    let now: @Sendable () -> Date

    public init(configuration: Configuration = Configuration(), keyID: String = "stand-in-key-1",
                now: @escaping @Sendable () -> Date = Date.init) throws {
        self.configuration = configuration
        self.keyID = keyID
        self.now = now
        signingKey = try RSA.Signing.PrivateKey(keySize: 2048)
        var http = HTTPServerConfiguration(host: configuration.host, port: configuration.port, threads: 2, accessLog: nil)
        http.shutdownGracePeriod = .seconds(1)
        serving = Locked(Serving(server: HTTPServer(configuration: http)))
    }

    /// Starts serving on the configured address — after `stop()`, on the port it had, with everything it remembers.
    public func start() throws(HTTPServerError) {
        let server = serving.withLock { serving in
            if serving.stopped {
                var http = serving.server.configuration
                http.port = serving.port
                serving.server = HTTPServer(configuration: http)
                serving.stopped = false
            }
            return serving.server
        }
        try server.start(router: Router(routes()))
        let port = server.port
        serving.withLock { $0.port = port }
    }

    /// `http://HOST:PORT` once started.
    public var baseURL: URL { URL(string: server.baseURL) ?? URL(fileURLWithPath: "/") }

    /// Stops serving (until `start()`).
    public func stop() {
        server.shutdownBlocking(gracePeriod: .seconds(1))
        serving.withLock { $0.stopped = true }
    }

    /// How many times `/auth/keys` was fetched.
    public var keyFetches: Int { ledger.withLock { $0.keyFetches } }

    /// Tokens revoked through `/auth/revoke`, in order.
    public var revokedTokens: [String] { ledger.withLock { $0.revocations.map(\.token) } }

    /// The `/auth/revoke` calls accepted (client secret verified), in order.
    public var revocations: [Revocation] { ledger.withLock { $0.revocations } }

    /// One accepted `/auth/revoke` call.
    public struct Revocation: Sendable, Equatable, Encodable, CustomStringConvertible {
        public var clientID: String
        /// A bearer credential: not encoded, not in `description`.
        public var token: String
        public var tokenTypeHint: String?
        /// The user whose token it was, when the stand-in issued it.
        public var user: String?

        enum CodingKeys: String, CodingKey {
            case clientID = "client_id", tokenTypeHint = "token_type_hint", user
        }

        public var description: String { "Revocation(client: \(clientID), user: \(user ?? "unknown"))" }
    }

    /// Publishes another key at `/auth/keys` (as Apple does before rotating).
    public func publish(_ key: JWK) { ledger.withLock { $0.extraKeys.append(key) } }

    /// Signs `claims` as Apple would: compact JWS, RS256 with `signingKey` under `keyID` unless told otherwise.
    public func sign(_ claims: [String: Any], keyID: String? = nil, alg: JWSAlgorithm = .RS256) throws -> String {
        let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        return try JWS.sign(payload: payload, header: JWSHeader(alg: alg, kid: keyID ?? self.keyID), key: .rsa(signingKey))
    }
}
