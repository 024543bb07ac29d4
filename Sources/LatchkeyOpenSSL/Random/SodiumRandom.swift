import CSodium
import Foundation
import LatchkeySupport

/// Cryptographically secure random bytes from the operating system's CSPRNG (libsodium `randombytes_buf`).
package enum SodiumRandom {
    /// Returns `count` random bytes (an empty value for a count of zero or less).
    package static func bytes(count: Int) -> Data {
        guard count > 0 else { return Data() }
        var data = Data(count: count)
        data.withUnsafeMutableBytes { fill($0) }
        return data
    }

    /// Fills `buffer` with random bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        SodiumRuntime.ensureInitialized()
        randombytes_buf(base, buffer.count)
    }
}
