import Foundation

/// Settings of the auth service. Every default is the safe choice.
public struct AuthConfiguration: Sendable {
    /// `iss` of access tokens (the server's public base URL).
    public var issuer: String
    /// `aud` of access tokens (the resource servers that accept them).
    public var audience: String
    /// The client id assumed when a login does not name one.
    public var defaultClientID: String
    /// Scope granted at login when none is asked for.
    public var defaultScope: String
    /// The scopes a login may ask for (space-separated items); anything else is `invalid_scope`.
    /// Defaults to the items of `defaultScope`.
    public var allowedScopes: Set<String>
    /// Access-token life in seconds (RFC 9068 tokens cannot be recalled offline: keep it short).
    public var accessTokenLifetime: Int64
    /// Life of each refresh token in seconds (renewed by every rotation, capped by `sessionLifetime`).
    public var refreshTokenLifetime: Int64
    /// Absolute life of a session in seconds: no rotation extends a session beyond it.
    public var sessionLifetime: Int64
    /// Seconds during which a refresh token's *latest* successor may be replaced by presenting the token
    /// again (a client whose response was lost). 0 — the default — treats every second use as reuse and
    /// revokes the family. A window lets an attacker who races the client win within it; never more than
    /// one generation back is accepted.
    public var refreshGraceSeconds: Int64
    /// Clock skew tolerated when verifying `exp`/`iat`, in seconds.
    public var clockSkew: Int64
    /// A signing key older than this is replaced by `rotateSigningKeyIfDue()`.
    public var signingKeyRotationInterval: Int64
    /// Seconds the signing keys are cached before they are read again, i.e. the longest a key rotated by
    /// another instance takes to be published (and used for signing) by this one. Tokens naming an unknown
    /// `kid` reload at once, so verification never waits for it.
    public var signingKeyReloadInterval: Int64 = 30
    /// The largest age in seconds of a Bearer token's `auth_time` that the routes needing a recent sign-in accept
    /// (`DELETE /v1/me`, a password change without the current password, adding a sign-in method); older ones get
    /// 401 `insufficient_user_authentication` with this `max_age` (RFC 9470). `latchkey serve --step-up-max-age`.
    public var stepUpMaxAge: Int64 = 300
    public var passwordPolicy: PasswordPolicy
    public var accountThrottle: LoginThrottlePolicy
    public var ipThrottle: LoginThrottlePolicy

    public init(issuer: String = "http://127.0.0.1:8080", audience: String = "latchkey",
                defaultClientID: String = "latchkey-app", defaultScope: String = "openid",
                accessTokenLifetime: Int64 = 900, refreshTokenLifetime: Int64 = 30 * 86_400,
                sessionLifetime: Int64 = 90 * 86_400, refreshGraceSeconds: Int64 = 0, clockSkew: Int64 = 60,
                signingKeyRotationInterval: Int64 = 30 * 86_400, passwordPolicy: PasswordPolicy = PasswordPolicy(),
                accountThrottle: LoginThrottlePolicy = .perAccount, ipThrottle: LoginThrottlePolicy = .perIP) {
        self.issuer = issuer; self.audience = audience; self.defaultClientID = defaultClientID
        self.defaultScope = defaultScope; self.accessTokenLifetime = accessTokenLifetime
        self.allowedScopes = Set(AuthService.scopeItems(defaultScope))
        self.refreshTokenLifetime = refreshTokenLifetime; self.sessionLifetime = sessionLifetime
        self.refreshGraceSeconds = max(0, refreshGraceSeconds); self.clockSkew = clockSkew
        self.signingKeyRotationInterval = signingKeyRotationInterval; self.passwordPolicy = passwordPolicy
        self.accountThrottle = accountThrottle; self.ipThrottle = ipThrottle
    }
}
