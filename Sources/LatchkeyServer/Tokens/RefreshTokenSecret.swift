import Foundation
import LatchkeyCrypto

/// Opaque refresh tokens: 256 random bits, base64url (43 characters). Only `hash(of:)` is stored.
public enum RefreshTokenSecret {
    /// The byte length of a token's randomness.
    public static let byteCount = 32

    /// A new token.
    public static func generate() -> String {
        SecureRandom.bytes(count: byteCount).base64URLEncodedString()
    }

    /// The stored form: SHA-256 of the token's text, lowercase hex. A database leak does not yield
    /// usable tokens, and a 256-bit random input needs no salt or slow hash.
    public static func hash(of token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexString
    }

    /// True when `token` has the shape of one of ours (cheap rejection of garbage before any lookup).
    public static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 43 && Data(base64URLEncoded: token)?.count == byteCount
    }
}
