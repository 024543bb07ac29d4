import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// A type that represents the output of a hash (CryptoKit's `Digest`).
///
/// Digests hold their bytes inline (making one allocates nothing), read as bytes (`ContiguousBytes`, a `Sequence`
/// of `UInt8`, so `Data(digest)` copies them), and compare in constant time, with another digest or with any
/// bytes. `description` prints the bytes in hexadecimal, as CryptoKit does (`SHA256 digest: ba7816bf…`): do not log
/// a digest of a secret.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Digest: Hashable, Sendable, ContiguousBytes, CustomStringConvertible, Sequence where Element == UInt8 {
    /// The number of bytes in the digest.
    static var byteCount: Int { get }
}

extension Digest {
    /// Constant-time comparison (the lengths are equal by type).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in MemoryCompare.equals(a, b) } }
    }

    /// Constant-time comparison with bytes held elsewhere (false when the lengths differ).
    public static func == <D: DataProtocol>(lhs: Self, rhs: D) -> Bool {
        guard rhs.count == Self.byteCount else { return false }
        return lhs.withUnsafeBytes { a in ContiguousInput.with(rhs) { b in MemoryCompare.equals(a, b) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public func makeIterator() -> Array<UInt8>.Iterator {
        withUnsafeBytes { Array($0).makeIterator() }
    }

    public var underestimatedCount: Int { Self.byteCount }

    /// The bytes, contiguous (so `Data(digest)` and `Array(digest)` copy them in one go).
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try withUnsafeBytes { try body($0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// The type's name and the bytes in lowercase hexadecimal (this module's digests print "SHA256 digest: …").
    public var description: String { "\(Self.self): " + withUnsafeBytes(HexDigit.lowercaseHex) }
}

/// The digest types this module makes, filled in place by OpenSSL.
protocol InlineDigest: Digest {
    /// Lets `body` write all `byteCount` bytes; `body` returns false only when OpenSSL failed.
    init(writing body: (UnsafeMutableRawBufferPointer) -> Bool)
}

extension InlineDigest {
    /// A digest holding a copy of `bytes` (exactly `byteCount` of them).
    init?(copying bytes: UnsafeRawBufferPointer) {
        guard bytes.count == Self.byteCount else { return nil }
        self.init { out in
            out.copyMemory(from: bytes)
            return true
        }
    }
}

enum DigestFailure {
    /// OpenSSL's digests with an already fetched algorithm fail only when they cannot allocate a context (no input
    /// makes them fail), where Swift itself would stop too. A digest value that silently held zeros would compare
    /// equal to the next failure, so the process stops instead.
    static func trap(_ name: String) -> Never {
        fatalError("OpenSSL could not compute a \(name) digest (out of memory)")
    }
}
