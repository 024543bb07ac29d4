import Foundation

/// PBKDF2 (RFC 8018 §5.2) with HMAC-SHA-256/384/512: CommonCrypto's `CCKeyDerivationPBKDF` where Apple's frameworks
/// are used, OpenSSL `PKCS5_PBKDF2_HMAC` on Linux.
///
/// For new password storage prefer ``PasswordHash`` (Argon2id on Linux); PBKDF2 is here for interoperability and for
/// the password verifiers of Apple platforms.
public enum PBKDF2 {
    /// Largest accepted output (a PBKDF2 output longer than the hash only multiplies the work).
    public static let maximumOutputByteCount = 1024
    /// Largest accepted iteration count (CommonCrypto takes a 32-bit count).
    public static let maximumIterations = Int(Int32.max)

    /// Derives `outputByteCount` bytes from `password` and `salt` with `iterations` rounds (≥ 1).
    public static func deriveKey(
        password: some DataProtocol, salt: Data, iterations: Int, outputByteCount: Int,
        algorithm: HashAlgorithm = .sha256
    ) throws(CryptoError) -> SymmetricKey {
        guard iterations >= 1, iterations <= maximumIterations else {
            throw .invalidParameter("PBKDF2 iterations must be 1...\(maximumIterations)")
        }
        guard outputByteCount >= 1, outputByteCount <= maximumOutputByteCount else {
            throw .invalidParameter("PBKDF2 output length must be 1...\(maximumOutputByteCount) bytes")
        }
        guard password.count <= Int(Int32.max), salt.count <= Int(Int32.max) else {
            throw .inputTooLarge(limit: Int(Int32.max))
        }
        return try ContiguousBytesInput.with(password) { (pass) throws(CryptoError) in
            try ContiguousBytesInput.with(salt) { (saltBytes) throws(CryptoError) in
                try CryptoBackend.pbkdf2(password: pass, salt: saltBytes, iterations: iterations, hash: algorithm,
                                         outputByteCount: outputByteCount)
            }
        }
    }
}
