import Foundation
import LatchkeyCrypto

/// Randomness and digests for LatchkeyAuth, through LatchkeyCrypto (OpenSSL / libsodium).
package enum AuthRandom {
    /// `count` bytes from the system CSPRNG.
    package static func bytes(_ count: Int = 32) -> Data { SecureRandom.bytes(count: count) }

    /// SHA-256 of `data`.
    package static func digest(_ data: Data) -> Data { Data(SHA256.hash(data: data)) }
}
