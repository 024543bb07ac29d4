import Foundation

/// Cryptographically secure random bytes from the operating system's CSPRNG (`SecRandomCopyBytes` where Apple's
/// frameworks are used, libsodium `randombytes_buf` on Linux).
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
        guard buffer.baseAddress != nil, buffer.count > 0 else { return }
        CryptoBackend.fillRandom(buffer)
    }
}
