import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// A type that performs cryptographically secure hashing (CryptoKit's `HashFunction`).
///
/// The conformances are the ones CryptoKit ships — `SHA256`, `SHA384`, `SHA512`, `Insecure.SHA1`, `Insecure.MD5` —
/// computed by OpenSSL. `HMAC`, `HKDF` and `SharedSecret`'s derivations accept those; a hash function of your own
/// can hash, but cannot key them (they stop with a message naming it).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol HashFunction: Sendable {
    /// The number of bytes that represents the hash function's internal state.
    @available(iOS 13.2, tvOS 13.2, watchOS 6.1, *)
    static var blockByteCount: Int { get }
    /// The type of the digest returned by the hash function.
    associatedtype Digest: CryptoKit.Digest
    /// Creates a hash function.
    init()
    /// Incrementally updates the hash function with the contents of the buffer.
    mutating func update(bufferPointer: UnsafeRawBufferPointer)
    /// Finalizes the hash function and returns the computed digest.
    func finalize() -> Digest
}

extension HashFunction {
    /// Computes a digest of the data.
    @inlinable
    public static func hash<D: DataProtocol>(data: D) -> Self.Digest {
        var hasher = Self()
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// Computes a digest of the bytes in a buffer. Package API: Apple's CryptoKit has this member `@inlinable internal`.
    @inlinable
    package static func hash(bufferPointer: UnsafeRawBufferPointer) -> Self.Digest {
        var hasher = Self()
        hasher.update(bufferPointer: bufferPointer)
        return hasher.finalize()
    }

    /// Incrementally updates the hash function with the given data.
    @inlinable
    public mutating func update<D: DataProtocol>(data: D) {
        for region in data.regions {
            region.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }
}

/// The hash functions OpenSSL computes (every `HashFunction` of this module): what `HMAC`, `HKDF` and the key
/// derivations of `SharedSecret` need to name the digest to OpenSSL.
protocol OpenSSLHashFunction: HashFunction {
    static var openSSLDigest: OpenSSLDigest { get }
}

/// The OpenSSL digest of a hash function type; stops with a message for a hash function of the caller's own.
func openSSLDigest<H: HashFunction>(of _: H.Type) -> OpenSSLDigest {
    // CryptoKit's own hash functions by identity first: a metadata pointer comparison, where the conformance cast
    // below searches the conformance tables on every call.
    if H.self == SHA256.self { return .sha256 }
    if H.self == SHA384.self { return .sha384 }
    if H.self == SHA512.self { return .sha512 }
    guard let known = H.self as? any OpenSSLHashFunction.Type else {
        preconditionFailure("\(H.self) is not one of CryptoKit's hash functions; HMAC and HKDF need SHA256, SHA384, "
                            + "SHA512, Insecure.SHA1 or Insecure.MD5 on Linux")
    }
    return known.openSSLDigest
}

/// The incremental state shared by every hash function of this module: an OpenSSL digest context, copied before a
/// change when the value holding it was copied.
struct HashState: @unchecked Sendable {
    // @unchecked Sendable: the context is mutated only through `update`, which first makes it unique.
    private var context: DigestContext

    init(_ digest: OpenSSLDigest) { context = DigestContext(digest: digest) }

    mutating func update(_ buffer: UnsafeRawBufferPointer) {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        context.update(buffer)
    }

    func finalize<D: InlineDigest>(as _: D.Type) -> D {
        D { context.finish(into: $0) }
    }
}
