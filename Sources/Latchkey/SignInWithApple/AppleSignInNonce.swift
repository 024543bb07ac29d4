import Foundation
import LatchkeyCrypto

/// The nonce of one Sign in with Apple request. Send `hashed` in the request (`request.nonce`)
/// and `raw` to your server, which checks that the identity token carries SHA-256(raw).
public struct AppleSignInNonce: Sendable, Hashable, CustomStringConvertible {
    /// 32 random bytes, base64url (43 characters). Keep until the server has verified the token.
    public let raw: String
    /// Lowercase hex SHA-256 of `raw`, as Apple echoes it in the token's `nonce` claim.
    public var hashed: String { SHA256.hash(data: Data(raw.utf8)).hexString }

    /// A fresh nonce from the system CSPRNG.
    public init() { raw = SecureRandom.bytes(count: 32).base64URLEncodedString() }

    public init(raw: String) { self.raw = raw }

    public var description: String { "AppleSignInNonce(hashed: \(hashed))" }
}
