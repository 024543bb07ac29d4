/// A SHA-2 hash function chosen at run time (JOSE `alg`, COSE, PBKDF2 and HMAC parameters). Where the function
/// is known at compile time, CryptoKit's `SHA256`, `SHA384` and `SHA512` are the names to use.
public enum HashAlgorithm: String, Sendable, Hashable, Codable, CaseIterable {
    case sha256
    case sha384
    case sha512

    /// Digest length in bytes.
    public var outputByteCount: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }
}
