import Foundation
import LatchkeySupport
#if os(Linux)
import LatchkeyOpenSSL
#else
import CryptoKit
#endif

/// Randomness, digests and MACs for LatchkeyAuth: Apple's CryptoKit on Apple platforms; on Linux the engine under
/// the Linux `CryptoKit` (OpenSSL and libsodium), because that `CryptoKit` sits above `LocalAuthentication` there —
/// its `SecureEnclave` takes an `LAContext`, as Apple's does.
package enum AuthRandom {
    /// `count` bytes from the system CSPRNG.
    package static func bytes(_ count: Int = 32) -> Data {
        #if os(Linux)
        SodiumRandom.bytes(count: count)
        #else
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Data($0) }
        #endif
    }

    /// SHA-256 of `data`.
    package static func digest(_ data: Data) -> Data {
        #if os(Linux)
        data.withUnsafeBytes { OpenSSLDigest.sha256.hash($0) }
        #else
        Data(SHA256.hash(data: data))
        #endif
    }

    /// HMAC-SHA256 of `message` under `key`.
    package static func authenticationCode(for message: UnsafeRawBufferPointer, key: Data) -> Data {
        #if os(Linux)
        key.withUnsafeBytes { HMACEngine.compute(message, key: SecretBytes(copying: $0), digest: .sha256) }
        #else
        Data(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        #endif
    }

    /// Whether `code` is the HMAC-SHA256 of `message` under `key` (compared in constant time).
    package static func isValidAuthenticationCode(_ code: Data, for message: UnsafeRawBufferPointer, key: Data) -> Bool {
        #if os(Linux)
        MemoryCompare.equals(authenticationCode(for: message, key: key), code)
        #else
        HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: SymmetricKey(data: key))
        #endif
    }
}
