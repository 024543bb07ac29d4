import CSodium
import Foundation

/// Cryptographically secure random bytes from the operating system's CSPRNG (libsodium `randombytes_buf`).
public enum SecureRandom {
    /// Returns `count` random bytes (an empty value for a count of zero or less).
    public static func bytes(count: Int) -> Data {
        guard count > 0 else { return Data() }
        var data = Data(count: count)
        data.withUnsafeMutableBytes { fill($0) }
        return data
    }

    /// Fills `buffer` with random bytes.
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        SodiumRuntime.ensureInitialized()
        randombytes_buf(base, buffer.count)
    }
}
