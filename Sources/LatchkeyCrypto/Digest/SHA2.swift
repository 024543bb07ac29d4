import Foundation

/// A hash function with a fixed algorithm, so that `SHA256.hash(data:)` and `SHA256.Hasher` read like CryptoKit.
public protocol FixedHashFunction {
    /// The algorithm this type stands for.
    static var algorithm: HashAlgorithm { get }
}

extension FixedHashFunction {
    /// Length of a digest in bytes.
    public static var byteCount: Int { algorithm.outputByteCount }

    /// Hashes `data` in one call.
    public static func hash(data: some DataProtocol) -> Data { algorithm.hash(data) }

    /// Hashes `data` in one call (fast path for `Data`).
    public static func hash(data: Data) -> Data { algorithm.hash(data) }
}

/// SHA-256 (FIPS 180-4).
public enum SHA256: FixedHashFunction {
    /// `.sha256`.
    public static var algorithm: HashAlgorithm { .sha256 }
    /// Incremental SHA-256.
    public typealias Hasher = StreamingHasher<SHA256>
}

/// SHA-384 (FIPS 180-4).
public enum SHA384: FixedHashFunction {
    /// `.sha384`.
    public static var algorithm: HashAlgorithm { .sha384 }
    /// Incremental SHA-384.
    public typealias Hasher = StreamingHasher<SHA384>
}

/// SHA-512 (FIPS 180-4).
public enum SHA512: FixedHashFunction {
    /// `.sha512`.
    public static var algorithm: HashAlgorithm { .sha512 }
    /// Incremental SHA-512.
    public typealias Hasher = StreamingHasher<SHA512>
}
