import Foundation
import LatchkeyCrypto
import LatchkeySupport

/// The verifying auth server's logic: accounts, password login with throttling and lockout, rotating
/// refresh tokens with reuse detection, ES256 access tokens, revocation and logout. `routes()` exposes it
/// over HTTP; the methods can also be called directly.
public final class AuthService: Sendable {
    public let database: any Database
    public let configuration: AuthConfiguration
    public let clock: any ServerClock
    /// The signing keys (rotate with `keyRing.rotate()` or `rotateSigningKey()`).
    public let keyRing: SigningKeyRing
    let hasher: any PasswordHasher
    /// A hash of a random password with the current parameters: unknown user names are verified against it,
    /// so they cost the same time as a wrong password. Made in the background at start.
    private let dummy = Locked<String?>(nil)
    /// Told after each committed account deletion (`onAccountDeletion`).
    let deletionObservers = Locked<[@Sendable (AccountDeletion) -> Void]>([])

    /// Migrates the database, loads (or creates) the signing key and starts preparing the dummy hash.
    public init(database: any Database, configuration: AuthConfiguration = AuthConfiguration(),
                clock: any ServerClock = SystemClock(), passwordHasher: any PasswordHasher = Argon2PasswordHasher(),
                signingKeyEncryptionKey: SymmetricKey? = nil) throws {
        self.database = database
        self.configuration = configuration
        self.clock = clock
        self.hasher = passwordHasher
        try SchemaMigrations.migrate(database, now: clock.seconds)
        keyRing = try SigningKeyRing(database: database, clock: clock, accessTokenLifetime: configuration.accessTokenLifetime,
                                     clockSkew: configuration.clockSkew,
                                     rotationInterval: configuration.signingKeyRotationInterval,
                                     encryptionKey: signingKeyEncryptionKey,
                                     reloadInterval: configuration.signingKeyReloadInterval)
        Task.detached { [self] in _ = await dummyHash() }
    }

    func dummyHash() async -> String {
        if let hash = dummy.withLock({ $0 }) { return hash }
        let made = (try? await hasher.hash(SecureRandom.bytes(count: 24).base64URLEncodedString())) ?? ""
        return dummy.withLock { stored in
            if let stored { return stored }
            stored = made
            return made
        }
    }

    // MARK: Accounts

    /// Creates an account after checking the name and the password policy.
    public func createAccount(username: String, password: String, ip: String? = nil) async throws(AccountCreationError) -> AccountInfo {
        guard Username.isValid(username) else { throw .invalidUsername }
        if let violation = configuration.passwordPolicy.violation(password: password, username: username) {
            throw .weakPassword(violation)
        }
        let key = Username.key(username)
        do {
            if try database.account(usernameKey: key) != nil { throw AccountCreationError.usernameTaken }
            let hash = try await hasher.hash(password)
            let record = AccountRecord(id: UUID().uuidString.lowercased(), username: username, usernameKey: key,
                                       passwordHash: hash, createdAt: clock.seconds)
            try database.insertAccount(record)
            try? database.appendAudit(AuditEvent(at: clock.seconds, accountID: record.id, event: "account_created", ip: ip))
            return AccountInfo(record)
        } catch let error as AccountCreationError {
            throw error
        } catch DatabaseError.uniqueViolation {
            throw .usernameTaken
        } catch let error as DatabaseError where error.isTransient {
            throw .temporarilyUnavailable
        } catch {
            throw .serverError
        }
    }

    // MARK: Password login

    /// Logs in with a user name and password and starts a session — or, when `context.reauthenticating` holds a
    /// step-up's Bearer claims (`stepUpClaims(_:)`), re-authenticates that session (`accountMismatch` when the
    /// password is another account's). An unknown name and a wrong password give the same error (`invalidGrant`)
    /// after the same work (one Argon2id verification).
    /// Throttled or locked-out names and addresses get `slowDown(retryAfter:)` without a verification.
    public func loginWithPassword(username: String, password: String, clientID: String? = nil, scope: String? = nil,
                                  ip: String, context: SignInContext = SignInContext()) async throws(OAuthError) -> TokenResponse {
        // Bounds on what is looked up and hashed, in Unicode code points (JSON Schema's `maxLength`, as the API
        // document states them): no stored name or password is longer, in bytes even, so nothing that could sign in
        // is refused here; longer inputs within the bytes are simply not found.
        guard !username.isEmpty, username.unicodeScalars.count <= Username.maximumBytes else {
            throw .invalidRequest("username is missing or too long.")
        }
        guard !password.isEmpty, password.unicodeScalars.count <= configuration.passwordPolicy.maximumBytes else {
            throw .invalidRequest("password is missing or too long.")
        }
        let now = clock.seconds
        let userKey = "user:" + Username.key(username)
        let ipKey = "ip:" + ip
        do {
            let blocked = max(try database.throttleState(key: userKey)?.blockedUntil ?? 0,
                              try database.throttleState(key: ipKey)?.blockedUntil ?? 0)
            if blocked > now { throw OAuthError.slowDown(retryAfter: blocked - now) }

            let account = try database.account(usernameKey: Username.key(username))
            let phc: String
            if let account { phc = account.passwordHash } else { phc = await dummyHash() }
            let valid = await hasher.verify(password, against: phc) && account != nil
            guard valid, let account else {
                try recordFailure(account: account, userKey: userKey, ipKey: ipKey, ip: ip, now: clock.seconds)
                throw OAuthError.invalidGrant
            }
            let done = clock.seconds
            try await passwordVerified(account, password: password, userKey: userKey, ip: ip, now: done)
            let grantedScope = try grant(scope, allowed: configuration.allowedScopes.sorted().joined(separator: " "),
                                         fallback: configuration.defaultScope)
            var context = context
            context.clientAddress = context.clientAddress ?? ip
            return try signIn(accountID: account.id, proof: .password, context: context, now: done,
                              clientID: clientID ?? configuration.defaultClientID, scope: grantedScope,
                              audit: AuditEvent(at: done, accountID: account.id, event: "login_success", ip: ip))
        } catch {
            throw OAuthError.storage(error)
        }
    }

    /// After a password verified: clears the name's throttle and the lockout mirror, and rehashes a verifier made
    /// with older parameters.
    func passwordVerified(_ account: AccountRecord, password: String, userKey: String, ip: String?, now: Int64) async throws {
        try database.clearThrottle(key: userKey)
        if account.failedCount != 0 || account.lockedUntil != nil {
            try database.updateAccountLockState(accountID: account.id, failedCount: 0, lockedUntil: nil)
        }
        if hasher.needsRehash(account.passwordHash), let rehashed = try? await hasher.hash(password) {
            try database.updatePasswordHash(accountID: account.id, passwordHash: rehashed)
            try database.appendAudit(AuditEvent(at: now, accountID: account.id, event: "password_rehashed", ip: ip))
        }
    }

    func recordFailure(account: AccountRecord?, userKey: String, ipKey: String, ip: String, now: Int64) throws {
        let accountPolicy = configuration.accountThrottle
        let ipPolicy = configuration.ipThrottle
        let user = try database.recordFailure(key: userKey, now: now, resetAfter: accountPolicy.resetAfter) {
            accountPolicy.blockedUntil(failures: $0, now: now)
        }
        _ = try database.recordFailure(key: ipKey, now: now, resetAfter: ipPolicy.resetAfter) {
            ipPolicy.blockedUntil(failures: $0, now: now)
        }
        let lockedOut = accountPolicy.isLockedOut(failures: user.failures)
        // The account row mirrors the lockout only when it starts (the throttle row above counts every
        // failure): a write on every failure would make a wrong password slower than an unknown name.
        if let account, lockedOut {
            try database.updateAccountLockState(accountID: account.id, failedCount: user.failures,
                                                lockedUntil: user.blockedUntil)
        }
        try database.appendAudit(AuditEvent(at: now, accountID: account?.id, event: "login_failure", ip: ip,
                                            detail: account == nil ? "unknown user" : "wrong password"),
                                 durability: .relaxed)
        if lockedOut, user.failures == accountPolicy.lockoutThreshold {
            try database.appendAudit(AuditEvent(at: now, accountID: account?.id, event: "account_locked", ip: ip,
                                                detail: "until \(user.blockedUntil)"))
        }
    }

    // MARK: Tokens

    /// Refreshes (RFC 6749 §6): rotates `refreshToken` and returns a new access and refresh token.
    /// A token used twice revokes its whole session (reuse detection) and fails with `invalidGrant`.
    public func refresh(refreshToken: String, clientID: String? = nil, scope: String? = nil,
                        ip: String? = nil) throws(OAuthError) -> TokenResponse {
        guard RefreshTokenSecret.isWellFormed(refreshToken) else { throw .invalidGrant }
        let presented = RefreshTokenSecret.hash(of: refreshToken)
        do {
            var requestedScope: String?
            if clientID != nil || scope != nil {
                guard let stored = try database.refreshToken(hash: presented) else { throw OAuthError.invalidGrant }
                if let clientID, clientID != stored.clientID { throw OAuthError.invalidGrant }
                requestedScope = try grant(scope, allowed: stored.scope)
            }
            let now = clock.seconds
            let next = RefreshTokenSecret.generate()
            let outcome = try database.rotateRefreshToken(
                presentedHash: presented, successorHash: RefreshTokenSecret.hash(of: next), now: now,
                successorExpiresAt: now + configuration.refreshTokenLifetime,
                graceSeconds: configuration.refreshGraceSeconds, ip: ip)
            guard case .rotated(_, let successor) = outcome else { throw OAuthError.invalidGrant }
            return try issue(accountID: successor.accountID, sessionID: successor.familyID, clientID: successor.clientID,
                             scope: requestedScope ?? successor.scope, refreshToken: next, authTime: successor.authTime,
                             amr: successor.amr, now: now)
        } catch {
            throw OAuthError.storage(error)
        }
    }

    /// Revokes a refresh or access token (RFC 7009): the whole session it belongs to ends. Unknown and
    /// malformed tokens are ignored (the endpoint answers 200 regardless).
    public func revoke(token: String, tokenTypeHint: String? = nil, ip: String? = nil) {
        let now = clock.seconds
        var sessionID: String?
        var accountID: String?
        if RefreshTokenSecret.isWellFormed(token), let stored = try? database.refreshToken(hash: RefreshTokenSecret.hash(of: token)) {
            sessionID = stored.familyID
            accountID = stored.accountID
        } else if let claims = try? verifiedClaims(token, allowExpired: true) {
            sessionID = claims.sid
            accountID = claims.sub
        }
        guard let sessionID, (try? database.revokeSession(id: sessionID, now: now)) == true else { return }
        try? database.appendAudit(AuditEvent(at: now, accountID: accountID, event: "session_revoked", ip: ip,
                                             detail: "session \(sessionID)"))
    }

    /// Ends the session of a Bearer access token (`Authorization` header value).
    public func logout(authorization: String?, ip: String? = nil) throws(OAuthError) {
        let claims = try authenticate(authorization)
        do {
            try database.revokeSession(id: claims.sid, now: clock.seconds)
            try database.appendAudit(AuditEvent(at: clock.seconds, accountID: claims.sub, event: "logout", ip: ip,
                                                detail: "session \(claims.sid)"))
        } catch {
            throw OAuthError.storage(error)
        }
    }

    /// The account of a Bearer access token, after checking that its session is still active on the server, with
    /// its sign-in methods and the token's `auth_time` (how and whether the client must step up).
    public func me(authorization: String?) throws(OAuthError) -> AccountInfo {
        let claims = try authenticate(authorization)
        do {
            guard let account = try database.account(id: claims.sub) else { throw OAuthError.invalidToken }
            var info = AccountInfo(account)
            info.signInMethods = try database.signInMethods(of: account)
            info.authTime = claims.authTime
            return info
        } catch {
            throw OAuthError.storage(error)
        }
    }

    /// Verifies a Bearer token (signature, claims) AND that its session is active (not logged out,
    /// revoked, or killed by reuse detection).
    public func authenticate(_ authorization: String?) throws(OAuthError) -> AccessTokenClaims {
        guard let authorization, let token = Self.bearerToken(authorization) else { throw .invalidToken }
        guard let claims = try? verifiedClaims(token, allowExpired: false) else { throw .invalidToken }
        do {
            guard try database.isSessionActive(id: claims.sid, now: clock.seconds) else { throw OAuthError.invalidToken }
        } catch {
            throw OAuthError.storage(error)
        }
        return claims
    }

    /// A verifier for resource servers, over the currently published keys.
    public func tokenVerifier() throws -> TokenVerifier {
        try keyRing.verifier(issuer: configuration.issuer, audience: configuration.audience,
                             leeway: configuration.clockSkew, forKID: nil)
    }

    /// The JWKS document.
    public func publishedKeys() throws -> PublishedKeySet { try keyRing.publishedKeySet() }

    /// Starts using a new signing key; the old one stays published until its tokens expire.
    public func rotateSigningKey() throws { try keyRing.rotate() }

    /// Periodic upkeep (call every few minutes, from one or all processes): rotates the signing key when it
    /// is older than the rotation interval and deletes refresh tokens and sessions that expired more than
    /// a day ago (kept that long so a late replay is still recognised and audited as reuse).
    /// Returns the number of refresh tokens deleted.
    @discardableResult
    public func housekeeping() throws -> Int {
        try keyRing.rotateIfDue()
        return try database.deleteExpiredTokens(before: clock.seconds - 86_400)
    }

    // MARK: Internals

    /// The token of an `Authorization: Bearer <token>` value (RFC 6750 §2.1: the scheme, case-insensitive, then
    /// spaces). Split at the first space byte, never by grapheme cluster.
    static func bearerToken(_ header: String) -> String? {
        let utf8 = header.utf8
        guard let space = utf8.firstIndex(of: UInt8(ascii: " ")),
              asciiCaseInsensitiveEquals(String(Substring(utf8[..<space])), "bearer") else { return nil }
        let token = trimmingOptionalWhitespace(Substring(utf8[space...]))
        return token.isEmpty ? nil : token
    }

    func verifiedClaims(_ token: String, allowExpired: Bool) throws -> AccessTokenClaims {
        let leeway = allowExpired ? configuration.accessTokenLifetime + configuration.clockSkew * 2 : configuration.clockSkew
        do {
            return try keyRing.verifier(issuer: configuration.issuer, audience: configuration.audience, leeway: leeway,
                                        forKID: nil).verify(token)
        } catch TokenVerificationError.unknownKey {
            // Another instance may have rotated: reload the keys (at most once a second) and try once more.
            let kid = AccessTokenCodec.split(token)?.header.kid
            return try keyRing.verifier(issuer: configuration.issuer, audience: configuration.audience, leeway: leeway,
                                        forKID: kid).verify(token)
        }
    }

    /// The scope to grant: the requested one if every item is allowed (else `invalidScope`), or `fallback`
    /// / everything allowed when none is asked for.
    private func grant(_ requested: String?, allowed: String?, fallback: String? = nil) throws(OAuthError) -> String {
        guard let requested, !requested.isEmpty else { return fallback ?? allowed ?? configuration.defaultScope }
        let items = Self.scopeItems(requested)
        guard items.allSatisfy({ item in item.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f && $0 != 0x22 && $0 != 0x5c } })
        else { throw .invalidScope }
        if let allowed {
            let allowedSet = Set(Self.scopeItems(allowed))
            guard items.allSatisfy(allowedSet.contains) else { throw .invalidScope }
        }
        return items.joined(separator: " ")
    }

    /// The items of a scope string (RFC 6749 §3.3: separated by spaces), split at space bytes: a space followed by a
    /// combining mark still separates two items.
    static func scopeItems(_ scope: String) -> [String] {
        scope.utf8.split(separator: UInt8(ascii: " ")).map { String(Substring($0)) }
    }

    /// Starts a session for `accountID` — or, when `context.reauthenticating` holds a step-up's Bearer claims,
    /// re-authenticates that session (same `sid`, `auth_time` now, `amr` of `proof`, a new refresh token of its family;
    /// `accountMismatch` when the claims are another account's, `invalidToken` when the session ended meanwhile).
    /// `audit` is written in the same transaction (for a step-up as `session_reauthenticated`).
    func signIn(accountID: String, proof: SignInProof, context: SignInContext, now: Int64, clientID: String? = nil,
                scope: String? = nil, audit: AuditEvent? = nil) throws -> TokenResponse {
        let refresh = RefreshTokenSecret.generate()
        if let bearer = context.reauthenticating {
            guard bearer.sub == accountID else { throw OAuthError.accountMismatch }
            var event = audit
            event?.event = "session_reauthenticated"
            event?.detail = "session \(bearer.sid), \(proof.method.rawValue)"
            guard let token = try database.reauthenticateSession(
                id: bearer.sid, accountID: accountID, proof: proof, context: context,
                successorHash: RefreshTokenSecret.hash(of: refresh), now: now,
                refreshTokenLifetime: configuration.refreshTokenLifetime, defaultScope: configuration.defaultScope,
                audit: event) else { throw OAuthError.invalidToken }
            return try issue(accountID: accountID, sessionID: bearer.sid, clientID: token.clientID, scope: token.scope,
                             refreshToken: refresh, authTime: now, amr: token.amr, now: now)
        }
        let clientID = clientID ?? configuration.defaultClientID
        let scope = scope ?? configuration.defaultScope
        let sessionID = UUID().uuidString.lowercased()
        let sessionEnd = now + configuration.sessionLifetime
        try database.createSession(
            SessionRecord(id: sessionID, accountID: accountID, clientID: clientID, createdAt: now, expiresAt: sessionEnd,
                          deviceName: context.deviceName, userAgent: context.userAgent, clientAddress: context.clientAddress,
                          signInMethod: proof.method, authTime: now, amr: proof.methods),
            firstToken: RefreshTokenRecord(tokenHash: RefreshTokenSecret.hash(of: refresh), familyID: sessionID, parentHash: nil,
                                           accountID: accountID, clientID: clientID, scope: scope, createdAt: now,
                                           expiresAt: min(now + configuration.refreshTokenLifetime, sessionEnd),
                                           authTime: now, amr: proof.methods),
            audit: audit)
        return try issue(accountID: accountID, sessionID: sessionID, clientID: clientID, scope: scope, refreshToken: refresh,
                         authTime: now, amr: proof.methods, now: now)
    }

    /// Signs an access token for the session (its `auth_time` and stored `amr`) and answers it with `refreshToken`.
    private func issue(accountID: String, sessionID: String, clientID: String, scope: String, refreshToken: String,
                       authTime: Int64, amr: AuthenticationMethods, now: Int64) throws -> TokenResponse {
        let claims = AccessTokenClaims(iss: configuration.issuer, sub: accountID, aud: configuration.audience,
                                       exp: now + configuration.accessTokenLifetime, iat: now,
                                       jti: SecureRandom.bytes(count: 16).base64URLEncodedString(), clientID: clientID,
                                       scope: scope, sid: sessionID, authTime: authTime,
                                       amr: amr.isEmpty ? nil : amr.references)
        return TokenResponse(accessToken: try keyRing.sign(claims), expiresIn: Int(configuration.accessTokenLifetime),
                             refreshToken: refreshToken, scope: scope)
    }
}
