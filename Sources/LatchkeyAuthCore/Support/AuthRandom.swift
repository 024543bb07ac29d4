import Foundation
import CryptoKit
import LatchkeySupport

/// Randomness and digests for LatchkeyAuth, through CryptoKit (Apple's, or the Linux module over OpenSSL and
/// libsodium).
package enum AuthRandom {
    /// `count` bytes from the system CSPRNG.
    package static func bytes(_ count: Int = 32) -> Data {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Data($0) }
    }

    /// SHA-256 of `data`.
    package static func digest(_ data: Data) -> Data { Data(SHA256.hash(data: data)) }
}
