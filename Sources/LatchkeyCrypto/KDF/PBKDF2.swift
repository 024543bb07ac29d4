import COpenSSL
import Foundation

/// PBKDF2 (RFC 8018 §5.2) with HMAC-SHA-256/384/512, by OpenSSL `PKCS5_PBKDF2_HMAC`.
///
/// For new password storage prefer ``Argon2id``; PBKDF2 is here for interoperability.
public enum PBKDF2 {
    /// Largest accepted output (a PBKDF2 output longer than the hash only multiplies the work).
    public static let maximumOutputByteCount = 1024

    /// Derives `outputByteCount` bytes from `password` and `salt` with `iterations` rounds (≥ 1).
    public static func deriveKey(
        password: some DataProtocol, salt: Data, iterations: Int, outputByteCount: Int,
        algorithm: HashAlgorithm = .sha256
    ) throws(CryptoError) -> SymmetricKey {
        guard iterations >= 1, iterations <= Int(Int32.max) else {
            throw .invalidParameter("PBKDF2 iterations must be 1...\(Int32.max)")
        }
        guard outputByteCount >= 1, outputByteCount <= maximumOutputByteCount else {
            throw .invalidParameter("PBKDF2 output length must be 1...\(maximumOutputByteCount) bytes")
        }
        guard password.count <= Int(Int32.max), salt.count <= Int(Int32.max) else {
            throw .inputTooLarge(limit: Int(Int32.max))
        }
        return try SymmetricKey(uninitializedByteCount: outputByteCount) { (out) throws(CryptoError) in
            try ContiguousInput.with(password) { (pass) throws(CryptoError) in
                try ContiguousInput.with(salt) { (saltBytes) throws(CryptoError) in
                    let result = PKCS5_PBKDF2_HMAC(
                        ContiguousInput.pointer(pass).assumingMemoryBound(to: CChar.self), Int32(pass.count),
                        ContiguousInput.pointer(saltBytes).assumingMemoryBound(to: UInt8.self), Int32(saltBytes.count),
                        Int32(iterations), algorithm.evpMD, Int32(out.count),
                        out.baseAddress?.assumingMemoryBound(to: UInt8.self))
                    guard result == 1 else { throw .libraryFailure("PKCS5_PBKDF2_HMAC") }
                }
            }
        }
    }
}
