import COpenSSL
import Foundation
import LatchkeySupport

/// PBKDF2 (RFC 8018 §5.2) with HMAC, by OpenSSL `PKCS5_PBKDF2_HMAC`. Parameters are checked by the caller
/// (LatchkeyCrypto's `PBKDF2`, CommonCrypto's `CCKeyDerivationPBKDF`).
package enum PBKDF2Engine {
    /// Derives `outputByteCount` bytes; throws `.libraryFailure` only when OpenSSL fails.
    package static func deriveKey(password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, iterations: Int,
                                  digest: OpenSSLDigest, outputByteCount: Int) throws(CryptoError) -> SecretBytes {
        guard iterations >= 1, iterations <= Int(Int32.max), password.count <= Int(Int32.max),
              salt.count <= Int(Int32.max), outputByteCount >= 1, outputByteCount <= Int(Int32.max)
        else { throw .invalidParameter("PBKDF2 parameters out of range") }
        return try SecretBytes(uninitializedByteCount: outputByteCount) { (out) throws(CryptoError) in
            let result = PKCS5_PBKDF2_HMAC(
                ContiguousInput.pointer(password).assumingMemoryBound(to: CChar.self), Int32(password.count),
                ContiguousInput.pointer(salt).assumingMemoryBound(to: UInt8.self), Int32(salt.count),
                Int32(iterations), digest.evpMD, Int32(out.count), out.baseAddress?.assumingMemoryBound(to: UInt8.self))
            guard result == 1 else { ERR_clear_error(); throw .libraryFailure("PKCS5_PBKDF2_HMAC") }
        }
    }
}
