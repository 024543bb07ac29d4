import Foundation

/// What `JWT.verify` checks beyond the signature. The defaults are the safe ones.
public struct JWTValidationOptions: Sendable {
    /// The exact `iss` required (nil: not checked).
    public var issuer: String?
    /// The audiences this verifier answers to; `aud` must contain one of them. When nil, a token that
    /// carries an `aud` is rejected (RFC 7519 §4.1.3: a recipient that is not named must reject).
    public var audiences: Set<String>?
    /// The algorithms accepted; anything else is `.algorithmNotAllowed`.
    public var allowedAlgorithms: Set<JWSAlgorithm>
    /// Tolerance for `exp`, `nbf` and `iat`, in seconds.
    public var clockSkew: TimeInterval
    /// The time to check against; nil means the clock at verification time.
    public var now: Date?
    /// Reject tokens without `exp`.
    public var requireExpiration: Bool
    /// The required header `typ` (compared case-insensitively, "application/" prefix optional).
    public var expectedType: String?
    /// Claims that must be present (for example ["sub", "jti"]).
    public var requiredClaims: Set<String>

    public init(allowedAlgorithms: Set<JWSAlgorithm>, issuer: String? = nil, audiences: Set<String>? = nil,
                clockSkew: TimeInterval = 60, now: Date? = nil, requireExpiration: Bool = true,
                expectedType: String? = nil, requiredClaims: Set<String> = []) {
        self.allowedAlgorithms = allowedAlgorithms
        self.issuer = issuer
        self.audiences = audiences
        self.clockSkew = clockSkew
        self.now = now
        self.requireExpiration = requireExpiration
        self.expectedType = expectedType
        self.requiredClaims = requiredClaims
    }
}
