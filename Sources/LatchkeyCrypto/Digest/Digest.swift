import COpenSSL
import Foundation

/// A SHA-2 digest as CryptoKit has it: a value with its bytes inline (no heap allocation per hash), readable as
/// bytes (`ContiguousBytes`, `Sequence` of `UInt8`), `Hashable`, and turned into `Data` by `Data(digest)`.
///
/// `==` compares in constant time (OpenSSL `CRYPTO_memcmp`), against another digest or any bytes, because
/// digests are compared as secrets (a token's hash against the stored one). `description` names the type and
/// size only — unlike CryptoKit, it does not print the bytes (a digest of a secret is not logged by accident);
/// `hexString` gives them in hexadecimal.
public protocol Digest: Hashable, ContiguousBytes, CustomStringConvertible, Sequence, Sendable where Element == UInt8 {
    /// The length of the digest in bytes.
    static var byteCount: Int { get }
}

extension Digest {
    /// Constant-time comparison (the lengths are equal by type).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in ConstantTime.equals(a, b) } }
    }

    /// Constant-time comparison with bytes held elsewhere (false when the lengths differ).
    public static func == (lhs: Self, rhs: some DataProtocol) -> Bool {
        guard rhs.count == Self.byteCount else { return false }
        return lhs.withUnsafeBytes { a in ContiguousInput.with(rhs) { b in ConstantTime.equals(a, b) } }
    }

    /// Constant-time comparison with bytes held elsewhere (false when the lengths differ).
    public static func != (lhs: Self, rhs: some DataProtocol) -> Bool { !(lhs == rhs) }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public func makeIterator() -> DigestIterator<Self> { DigestIterator(digest: self) }

    public var underestimatedCount: Int { Self.byteCount }

    /// The bytes, contiguous (so `Data(digest)` and `Array(digest)` copy them in one go).
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try withUnsafeBytes { try body($0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// The length of the digest in bytes (the same as `byteCount`).
    public var count: Int { Self.byteCount }

    /// Lowercase hexadecimal of the bytes.
    public var hexString: String {
        withUnsafeBytes(HexDigit.lowercaseHex)
    }

    /// "SHA256Digest(32 bytes)": the size only, never the bytes.
    public var description: String { "\(Self.self)(\(Self.byteCount) bytes)" }

    /// Typed-throws access to the bytes inside the module.
    func withUnsafeDigestBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeBytes { bytes in
            do throws(E) { return .success(try body(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// Iterates over the bytes of a digest.
public struct DigestIterator<D: Digest>: IteratorProtocol {
    let digest: D
    var index = 0

    public mutating func next() -> UInt8? {
        guard index < D.byteCount else { return nil }
        defer { index += 1 }
        return digest.withUnsafeBytes { $0[index] }
    }
}

/// A SHA256 digest (32 bytes), held inline: making one allocates nothing. CryptoKit's `SHA256Digest`.
public struct SHA256Digest: Digest, HashOutput {
    /// 32.
    public static var byteCount: Int { 32 }
    static let name = "SHA256"

    private var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// Lets `body` write all 32 bytes (see `HashOutput`).
    init(writing body: (UnsafeMutableRawBufferPointer) -> Bool) {
        if !Swift.withUnsafeMutableBytes(of: &bytes, body) { HashOutputFailure.trap(Self.name) }
    }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: bytes, body)
    }
}

/// A SHA384 digest (48 bytes), held inline: making one allocates nothing. CryptoKit's `SHA384Digest`.
public struct SHA384Digest: Digest, HashOutput {
    /// 48.
    public static var byteCount: Int { 48 }
    static let name = "SHA384"

    private var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// Lets `body` write all 48 bytes (see `HashOutput`).
    init(writing body: (UnsafeMutableRawBufferPointer) -> Bool) {
        if !Swift.withUnsafeMutableBytes(of: &bytes, body) { HashOutputFailure.trap(Self.name) }
    }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: bytes, body)
    }
}

/// A SHA512 digest (64 bytes), held inline: making one allocates nothing. CryptoKit's `SHA512Digest`.
public struct SHA512Digest: Digest, HashOutput {
    /// 64.
    public static var byteCount: Int { 64 }
    static let name = "SHA512"

    private var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// Lets `body` write all 64 bytes (see `HashOutput`).
    init(writing body: (UnsafeMutableRawBufferPointer) -> Bool) {
        if !Swift.withUnsafeMutableBytes(of: &bytes, body) { HashOutputFailure.trap(Self.name) }
    }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: bytes, body)
    }
}

/// The digest types LatchkeyCrypto makes, filled in place by OpenSSL.
protocol HashOutput: Digest {
    static var name: String { get }
    /// Lets `body` write all `byteCount` bytes; `body` returns false only when OpenSSL failed.
    init(writing body: (UnsafeMutableRawBufferPointer) -> Bool)
}

enum HashOutputFailure {
    /// OpenSSL's SHA-2 with an already fetched digest fails only when it cannot allocate its context (no input
    /// makes it fail), where Swift itself would stop too. A digest value that silently held zeros would compare
    /// equal to the next failure, so the process stops instead.
    static func trap(_ name: String) -> Never {
        fatalError("OpenSSL could not compute a \(name) digest (out of memory)")
    }
}
