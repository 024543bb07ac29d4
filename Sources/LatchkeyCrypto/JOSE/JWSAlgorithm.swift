/// The JWS algorithms LatchkeyCrypto signs and verifies (RFC 7518, RFC 8037).
///
/// `none` and the HMAC algorithms (HS256...) are deliberately not cases: a token that names them
/// is rejected when it is parsed, so a public key can never be used as an HMAC secret.
public enum JWSAlgorithm: String, Codable, Sendable, Hashable, CaseIterable {
    /// ECDSA P-256 with SHA-256, raw r||s signature.
    case ES256
    /// ECDSA P-384 with SHA-384, raw r||s signature.
    case ES384
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case RS256
    /// RSASSA-PSS with SHA-256 and MGF1-SHA-256.
    case PS256
    /// Ed25519.
    case EdDSA
}
