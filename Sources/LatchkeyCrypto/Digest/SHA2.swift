import COpenSSL
import Foundation

/// A hash function with a fixed algorithm, so that `SHA256.hash(data:)` and `SHA256.Hasher` read like CryptoKit.
/// `SHA256`, `SHA384` and `SHA512` are the conformances; another one must use one of their digest types.
public protocol FixedHashFunction {
    /// The digest type, with its bytes inline (`SHA256Digest`, ...).
    associatedtype Digest: LatchkeyCrypto.Digest
    /// The algorithm this type stands for.
    static var algorithm: HashAlgorithm { get }
}

extension FixedHashFunction {
    /// Length of a digest in bytes.
    public static var byteCount: Int { algorithm.outputByteCount }

    /// Hashes `data` in one call.
    public static func hash(data: some DataProtocol) -> Digest {
        ContiguousInput.with(data) { makeDigest($0) }
    }

    /// Hashes `data` in one call (fast path for `Data`).
    public static func hash(data: Data) -> Digest {
        data.withUnsafeBytes { makeDigest($0) }
    }

    /// One `EVP_Digest` into a new digest value (generic form; `SHA256` and its siblings have direct ones).
    static func makeDigest(_ input: UnsafeRawBufferPointer) -> Digest {
        guard let type = Digest.self as? any HashOutput.Type,
              let digest = type.init(hashing: input, algorithm: algorithm) as? Digest
        else { HashOutputFailure.trap("\(Self.self)") }
        return digest
    }
}

extension HashOutput {
    /// One `EVP_Digest` of `input` with `algorithm` (whose size is this type's), written into the value.
    @inline(__always)
    init(hashing input: UnsafeRawBufferPointer, algorithm: HashAlgorithm) {
        self.init { out in
            out.count == algorithm.outputByteCount
                && EVP_Digest(ContiguousInput.pointer(input), input.count,
                              out.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, algorithm.evpMD, nil) == 1
        }
    }
}

/// SHA-256 (FIPS 180-4).
public enum SHA256: FixedHashFunction {
    public typealias Digest = SHA256Digest
    /// `.sha256`.
    public static var algorithm: HashAlgorithm { .sha256 }
    /// Incremental SHA-256.
    public typealias Hasher = StreamingHasher<SHA256>

    /// Hashes `data` in one call: one `EVP_Digest` straight into the digest's inline bytes (no allocation).
    public static func hash(data: some DataProtocol) -> SHA256Digest {
        ContiguousInput.with(data) { SHA256Digest(hashing: $0, algorithm: .sha256) }
    }

    /// Hashes `data` in one call (fast path for `Data`).
    public static func hash(data: Data) -> SHA256Digest {
        data.withUnsafeBytes { SHA256Digest(hashing: $0, algorithm: .sha256) }
    }
}

/// SHA-384 (FIPS 180-4).
public enum SHA384: FixedHashFunction {
    public typealias Digest = SHA384Digest
    /// `.sha384`.
    public static var algorithm: HashAlgorithm { .sha384 }
    /// Incremental SHA-384.
    public typealias Hasher = StreamingHasher<SHA384>

    /// Hashes `data` in one call (no allocation).
    public static func hash(data: some DataProtocol) -> SHA384Digest {
        ContiguousInput.with(data) { SHA384Digest(hashing: $0, algorithm: .sha384) }
    }

    /// Hashes `data` in one call (fast path for `Data`).
    public static func hash(data: Data) -> SHA384Digest {
        data.withUnsafeBytes { SHA384Digest(hashing: $0, algorithm: .sha384) }
    }
}

/// SHA-512 (FIPS 180-4).
public enum SHA512: FixedHashFunction {
    public typealias Digest = SHA512Digest
    /// `.sha512`.
    public static var algorithm: HashAlgorithm { .sha512 }
    /// Incremental SHA-512.
    public typealias Hasher = StreamingHasher<SHA512>

    /// Hashes `data` in one call (no allocation).
    public static func hash(data: some DataProtocol) -> SHA512Digest {
        ContiguousInput.with(data) { SHA512Digest(hashing: $0, algorithm: .sha512) }
    }

    /// Hashes `data` in one call (fast path for `Data`).
    public static func hash(data: Data) -> SHA512Digest {
        data.withUnsafeBytes { SHA512Digest(hashing: $0, algorithm: .sha512) }
    }
}
