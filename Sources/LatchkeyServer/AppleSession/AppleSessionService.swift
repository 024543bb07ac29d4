import Foundation
import LatchkeyCrypto

/// Why Sign in with Apple on the server refused a request.
public enum AppleSessionError: Error, Sendable, Equatable {
    /// The body is malformed (400 `invalid_request`).
    case invalidRequest(String)
    /// The identity token did not verify, or the nonce did not match (401 `invalid_grant`).
    case invalidGrant(String)
    /// A Bearer token was given and is not valid (401 `invalid_token`).
    case invalidToken
    /// The Apple ID is already linked to another account (409 `apple_id_linked`).
    case linkedElsewhere
    /// Linking an Apple ID to the Bearer token's account needs a recent sign-in of its session (401, RFC 9470).
    case insufficientUserAuthentication(maxAge: Int64)
    /// Storage failed (500).
    case serverError
    /// The database is restarting or overloaded (503 `temporarily_unavailable`, with `Retry-After`).
    case temporarilyUnavailable

    /// The error for a storage failure: itself when it is one already, `temporarilyUnavailable` for a transient one
    /// (`DatabaseError.isTransient`), else `serverError`.
    static func storage(_ error: any Error) -> AppleSessionError {
        if let error = error as? AppleSessionError { return error }
        if let database = error as? DatabaseError, database.isTransient { return .temporarilyUnavailable }
        if let error = error as? OAuthError {
            switch error {
            case .serverError: return .serverError
            case .temporarilyUnavailable: return .temporarilyUnavailable
            case .accountMismatch: return .linkedElsewhere
            case .insufficientUserAuthentication(let maxAge): return .insufficientUserAuthentication(maxAge: maxAge)
            default: return .invalidToken
            }
        }
        return .serverError
    }

    var status: Int {
        switch self {
        case .invalidRequest: 400
        case .invalidGrant, .invalidToken, .insufficientUserAuthentication: 401
        case .linkedElsewhere: 409
        case .serverError: 500
        case .temporarilyUnavailable: 503
        }
    }

    var code: String {
        switch self {
        case .invalidRequest: "invalid_request"
        case .invalidGrant: "invalid_grant"
        case .invalidToken: "invalid_token"
        case .linkedElsewhere: "apple_id_linked"
        case .insufficientUserAuthentication: StepUpChallenge.code
        case .serverError: "server_error"
        case .temporarilyUnavailable: "temporarily_unavailable"
        }
    }

    var protocolDescription: String {
        switch self {
        case .invalidRequest(let why), .invalidGrant(let why): why
        case .invalidToken: "The access token is invalid or its session ended."
        case .linkedElsewhere: "This Apple ID is linked to another account."
        case .insufficientUserAuthentication(let maxAge): StepUpChallenge.description(maxAge: maxAge)
        case .serverError: "The server failed."
        case .temporarilyUnavailable: "The service is temporarily unavailable; retry after 2 seconds."
        }
    }
}

extension AppleSessionError: LocalizedError {
    public var errorDescription: String? {
        let l = MessageLanguage.current
        switch self {
        case .invalidRequest(let why): return l.pick(english: "Invalid request: \(why)", korean: "잘못된 요청: \(why)")
        case .invalidGrant(let why):
            return l.pick(english: "Sign in with Apple failed: \(why)", korean: "Apple로 로그인 실패: \(why)")
        case .invalidToken:
            return l.pick(english: "The access token is invalid or its session ended.",
                          korean: "액세스 토큰이 유효하지 않거나 세션이 끝났습니다.")
        case .linkedElsewhere:
            return l.pick(english: "This Apple ID is linked to another account.", korean: "이 Apple ID는 다른 계정에 연결되어 있습니다.")
        case .insufficientUserAuthentication(let maxAge): return StepUpChallenge.text(maxAge: maxAge, l)
        case .serverError: return l.pick(english: "The server failed.", korean: "서버 오류가 발생했습니다.")
        case .temporarilyUnavailable:
            return l.pick(english: "The service is temporarily unavailable; retry after 2 s.",
                          korean: "서비스를 일시적으로 사용할 수 없습니다. 2초 후에 다시 시도하세요.")
        }
    }
}

/// The body of `POST /v1/session/apple`.
public struct AppleSignInRequest: Decodable, Sendable {
    public struct Name: Decodable, Sendable {
        public var firstName: String?
        public var lastName: String?
    }
    public struct User: Decodable, Sendable {
        public var email: String?
        public var name: Name?
    }
    public var identityToken: String
    public var rawNonce: String
    public var authorizationCode: String?
    public var user: User?
    /// Names the session in `GET /v1/sessions` (`DeviceName` rules).
    public var deviceName: String?

    enum CodingKeys: String, CodingKey {
        case identityToken = "identity_token"
        case rawNonce = "raw_nonce"
        case authorizationCode = "authorization_code"
        case user
        case deviceName = "device_name"
    }
}

/// Sign in with Apple sessions: verifies Apple identity tokens, keys accounts on Apple's `sub`, and acts on
/// Apple's server-to-server notifications. Sessions are the same as a password login's (`AuthService`).
///
/// Apple's refresh token (from exchanging the authorization code) is stored only when a
/// `refreshTokenKey` is configured, sealed with AES-256-GCM (the `sub` as associated data). When the account is
/// deleted, the token goes to the revocation outbox and `revocations` sends it to Apple's `/auth/revoke`.
/// `account-delete` deletes an account that nothing else signs in to; one that also has a password or a passkey
/// loses its Apple link and token and its sessions end.
public final class AppleSessionService: Sendable {
    public let auth: AuthService
    let verifier: AppleIdentityTokenVerifier
    let notifications: AppleNotificationVerifier
    let client: AppleAuthClient?
    let refreshTokenKey: SymmetricKey?
    /// Sends the revocations of deleted accounts' Apple tokens (nil without a client secret or a token key: then no
    /// token is ever stored). `run()` it for the life of the server; a deletion wakes it.
    public let revocations: AppleRevocationOutbox?
    var database: any Database { auth.database }

    /// `configuration.clientIDs` are the accepted audiences; a code exchange needs team/key id/private key
    /// in it (otherwise codes are ignored).
    public init(auth: AuthService, configuration: AppleSignInConfiguration,
                http: any AppleHTTPClient = URLSessionAppleHTTPClient(), refreshTokenKey: SymmetricKey? = nil,
                revocationPolicy: AppleRevocationOutbox.Policy = AppleRevocationOutbox.Policy()) {
        self.auth = auth
        let clock = auth.clock
        let keys = AppleKeyStore(url: configuration.keysURL, client: http, lifetime: configuration.keyCacheLifetime,
                                 minimumRefetchInterval: configuration.minimumRefetchInterval, now: { clock.now() })
        verifier = AppleIdentityTokenVerifier(configuration: configuration, keys: keys, now: { clock.now() })
        notifications = AppleNotificationVerifier(configuration: configuration, keys: keys,
                                                  ledger: DatabaseAppleNotificationLedger(database: auth.database),
                                                  now: { clock.now() })
        let client = configuration.privateKey == nil ? nil
            : AppleAuthClient(configuration: configuration, http: http, now: { clock.now() })
        self.client = client
        self.refreshTokenKey = refreshTokenKey
        if let client, let refreshTokenKey {
            let outbox = AppleRevocationOutbox(database: auth.database, client: client, key: refreshTokenKey, clock: clock,
                                               policy: revocationPolicy)
            revocations = outbox
            auth.onAccountDeletion { deletion in
                if deletion.appleRevocationsQueued > 0 { outbox.wake() }
            }
        } else {
            revocations = nil
        }
    }

    /// Verifies the identity token and starts a session, creating the account (`apple:<sub>`) on first sign-in.
    /// With a Bearer token (`authorization`) of a live session — which may have expired up to its lifetime ago — it
    /// re-authenticates that session instead (a step-up: same `sid`, new `auth_time`, `amr` ["fed"]): the Apple ID
    /// must be linked to that account, or linked to none, in which case it is linked to it first, which needs a
    /// recent sign-in of the session (`insufficientUserAuthentication`; adding a sign-in method is a step-up action).
    /// An Apple ID of another account is `linkedElsewhere`.
    public func signIn(_ request: AppleSignInRequest, authorization: String?, ip: String? = nil, userAgent: String? = nil)
        async throws(AppleSessionError) -> TokenResponse {
        var context = SignInContext(userAgent: userAgent, clientAddress: ip)
        if let name = request.deviceName {
            do { context.deviceName = try DeviceName.validated(name) } catch { throw .invalidRequest(error.englishText) }
        }
        do { context.reauthenticating = try auth.stepUpClaims(authorization) } catch { throw .storage(error) }
        let linkTo = context.reauthenticating?.sub
        let identity: AppleIdentity
        do { identity = try await verifier.verify(request.identityToken, rawNonce: request.rawNonce) } catch {
            try? database.appendAudit(AuditEvent(at: auth.clock.seconds, accountID: nil, event: "apple_login_failed", ip: ip,
                                                 detail: String(String(describing: error).prefix { $0 != "(" })))
            throw .invalidGrant(error.localizedDescription)
        }
        let now = auth.clock.seconds
        do {
            let accountID: String
            if let existing = try database.appleIdentity(subject: identity.subject) {
                if let linkTo, linkTo != existing.accountID { throw AppleSessionError.linkedElsewhere }
                try database.updateAppleEmail(subject: identity.subject, email: identity.email,
                                              emailVerified: identity.emailVerified ?? existing.emailVerified,
                                              isPrivateEmail: identity.isPrivateEmail ?? existing.isPrivateEmail, now: now)
                accountID = existing.accountID
            } else {
                var account: AccountRecord?
                if let bearer = context.reauthenticating {
                    try auth.requireRecentAuthentication(bearer)
                } else {
                    let username = "apple:" + identity.subject
                    account = AccountRecord(id: UUID().uuidString.lowercased(), username: username,
                                            usernameKey: Username.key(username), passwordHash: AccountRecord.noPassword, createdAt: now)
                }
                guard let id = linkTo ?? account?.id else { throw AppleSessionError.serverError }
                let record = AppleIdentityRecord(
                    subject: identity.subject, accountID: id, email: identity.email ?? request.user?.email,
                    emailVerified: identity.emailVerified ?? false, isPrivateEmail: identity.isPrivateEmail ?? false,
                    emailEnabled: true, firstName: request.user?.name?.firstName, lastName: request.user?.name?.lastName,
                    refreshTokenSealed: nil, createdAt: now, clientID: identity.audience)
                do { try database.insertAppleIdentity(record, createAccount: account) } catch DatabaseError.uniqueViolation {
                    throw AppleSessionError.linkedElsewhere
                }
                try? database.appendAudit(AuditEvent(at: now, accountID: id, event: account == nil ? "apple_linked" : "account_created",
                                                     ip: ip, detail: "apple"))
                accountID = id
            }
            if let code = request.authorizationCode, !code.isEmpty {
                await exchange(code: code, identity: identity, accountID: accountID, ip: ip)
            }
            return try auth.signIn(accountID: accountID, proof: .apple, context: context, now: now,
                                   audit: AuditEvent(at: now, accountID: accountID, event: "apple_login", ip: ip))
        } catch {
            throw .storage(error)
        }
    }

    /// Exchanges the authorization code and keeps Apple's refresh token sealed (when a key is configured).
    /// A failed exchange does not fail the sign-in (the identity token already verified); it is audited.
    func exchange(code: String, identity: AppleIdentity, accountID: String, ip: String?) async {
        guard let client else { return }
        let now = auth.clock.seconds
        do {
            let tokens = try await client.exchange(code: code, clientID: identity.audience)
            guard let refresh = tokens.refreshToken, let key = refreshTokenKey else { return }
            let sealed = try AES.GCM.seal(Data(refresh.utf8), using: key, authenticating: Data(identity.subject.utf8))
            guard let combined = sealed.combined else { throw CryptoError.libraryFailure("AES.GCM.seal") }
            try database.updateAppleRefreshToken(subject: identity.subject, sealed: combined.base64URLEncodedString(),
                                                 clientID: identity.audience, now: now)
        } catch {
            try? database.appendAudit(AuditEvent(at: now, accountID: accountID, event: "apple_code_exchange_failed", ip: ip,
                                                 detail: String(String(describing: error).prefix { $0 != "(" })))
        }
    }

    /// Apple's refresh token of a `sub`, unsealed (nil when none is stored or no key is configured).
    public func appleRefreshToken(subject: String) throws -> String? {
        guard let key = refreshTokenKey, let sealed = try database.appleIdentity(subject: subject)?.refreshTokenSealed,
              let combined = Data(base64URLEncoded: sealed) else { return nil }
        let data = try AES.GCM.open(try AES.GCM.SealedBox(combined: combined), using: key,
                                    authenticating: Data(subject.utf8))
        return String(decoding: data, as: UTF8.self)
    }

    /// Outcome of a notification.
    public enum NotificationOutcome: Sendable, Equatable {
        case applied(AppleServerNotification.EventType)
        /// A redelivery (same `jti`) or an Apple ID nobody here uses: nothing to do.
        case ignored
    }

    /// Verifies and applies a server-to-server notification (`{"payload": JWS}`).
    public func handleNotification(body: Data, ip: String? = nil) async throws(AppleSessionError) -> NotificationOutcome {
        let event: AppleServerNotification
        do { event = try await notifications.verify(body: body) } catch {
            if error == .duplicateNotification { return .ignored }
            throw .invalidRequest(error.localizedDescription)
        }
        let now = auth.clock.seconds
        do {
            guard let link = try database.appleIdentity(subject: event.subject) else { return .ignored }
            switch event.type {
            case .consentRevoked:
                try database.revokeAllSessions(accountID: link.accountID, now: now)
            case .accountDelete:
                // Apple deleted the Apple ID: its token needs no revocation. An account nothing else signs in to is
                // deleted; another loses the link and its sessions. A user's own deletion running at the same moment
                // locks the account row first, so the two end in one state (see `removeAppleID`).
                switch try database.removeAppleID(subject: event.subject, now: now) {
                case .accountDeleted(let deletion)?:
                    auth.accountDeleted(deletion)
                    return .applied(event.type)
                case .unlinked?:
                    break
                case nil:
                    return .ignored // the account was deleted meanwhile: nothing of it may be written again
                }
            case .emailDisabled:
                try database.updateAppleEmailEnabled(subject: event.subject, enabled: false, email: event.email,
                                                     isPrivateEmail: event.isPrivateEmail, now: now)
            case .emailEnabled:
                try database.updateAppleEmailEnabled(subject: event.subject, enabled: true, email: event.email,
                                                     isPrivateEmail: event.isPrivateEmail, now: now)
            }
            try? database.appendAudit(AuditEvent(at: now, accountID: link.accountID, event: "apple_notification", ip: ip,
                                                 detail: event.type.rawValue))
            return .applied(event.type)
        } catch {
            throw .storage(error)
        }
    }

    /// `POST /v1/session/apple` and `POST /v1/apple/notifications`.
    public func routes() -> [Route] {
        [
            Route("POST", "/v1/session/apple") { [self] in await handleSignIn($0) },
            Route("POST", "/v1/apple/notifications") { [self] in await handleNotificationRequest($0) },
        ]
    }

    func handleSignIn(_ request: HTTPRequest) async -> HTTPResponse {
        let body: AppleSignInRequest
        do { body = try request.decodeJSON(AppleSignInRequest.self) } catch { return error.response }
        do {
            return AuthService.tokenResponse(try await signIn(body, authorization: request.header("authorization"),
                                                              ip: request.remoteAddress, userAgent: request.header("user-agent")))
        } catch {
            return Self.response(error)
        }
    }

    func handleNotificationRequest(_ request: HTTPRequest) async -> HTTPResponse {
        do {
            _ = try await handleNotification(body: request.body, ip: request.remoteAddress)
            return HTTPResponse(status: 200)
        } catch {
            return Self.response(error)
        }
    }

    static func response(_ error: AppleSessionError) -> HTTPResponse {
        var response = HTTPResponse.error(status: error.status, code: error.code, description: error.protocolDescription)
        if error == .invalidToken {
            response.headers.append((name: "WWW-Authenticate", value: "Bearer error=\"invalid_token\""))
        }
        if error == .temporarilyUnavailable { response.headers.append((name: "Retry-After", value: "2")) }
        if case .insufficientUserAuthentication(let maxAge) = error { return StepUpChallenge.response(maxAge: maxAge) }
        return response
    }
}
