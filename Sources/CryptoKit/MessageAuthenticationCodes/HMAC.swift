import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// A type that represents a message authentication code.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol MessageAuthenticationCode: Hashable, ContiguousBytes, Sendable, CustomStringConvertible, Sequence
    where Element == UInt8 {
    /// The number of bytes in the message authentication code.
    var byteCount: Int { get }
}

extension MessageAuthenticationCode {
    /// Constant-time comparison.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in MemoryCompare.equals(a, b) } }
    }

    /// Constant-time comparison with bytes held elsewhere (false when the lengths differ).
    public static func == <D: DataProtocol>(lhs: Self, rhs: D) -> Bool {
        lhs.withUnsafeBytes { a in ContiguousInput.with(rhs) { b in MemoryCompare.equals(a, b) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public func makeIterator() -> Array<UInt8>.Iterator {
        withUnsafeBytes { Array($0).makeIterator() }
    }

    /// The bytes, contiguous (so `Data(code)` copies them in one go).
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try withUnsafeBytes { try body($0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// The type's name and the bytes in lowercase hexadecimal (`HMAC` codes print "HMAC with SHA256: …").
    public var description: String { "\(Self.self): " + withUnsafeBytes(HexDigit.lowercaseHex) }
}

/// A hash-based message authentication code (the output of `HMAC`).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct HashedAuthenticationCode<H: HashFunction>: MessageAuthenticationCode, Sendable {
    let digest: H.Digest

    init(digest: H.Digest) { self.digest = digest }

    /// A code holding `bytes` (exactly the digest's size), computed by OpenSSL.
    init(writing body: (UnsafeMutableRawBufferPointer) -> Bool) {
        guard let type = H.Digest.self as? any InlineDigest.Type, let made = type.init(writing: body) as? H.Digest else {
            preconditionFailure("\(H.self) is not one of CryptoKit's hash functions")
        }
        digest = made
    }

    /// The number of bytes in the message authentication code.
    public var byteCount: Int { H.Digest.byteCount }

    /// "HMAC with SHA256: " and the code in lowercase hexadecimal, as CryptoKit prints it.
    public var description: String { "HMAC with \(H.self): " + withUnsafeBytes(HexDigit.lowercaseHex) }

    /// Feeds the code's bytes to `hasher` (the `Hashable` hash, not a cryptographic one).
    public func hash(into hasher: inout Hasher) { withUnsafeBytes { hasher.combine(bytes: $0) } }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try digest.withUnsafeBytes(body)
    }
}

/// A hash-based message authentication algorithm (RFC 2104), by OpenSSL `EVP_MAC`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct HMAC<H: HashFunction>: @unchecked Sendable {
    // @unchecked Sendable: the OpenSSL state is changed only through `update`, which first makes it unique.
    public typealias Key = SymmetricKey
    public typealias MAC = HashedAuthenticationCode<H>

    private var state: HMACState

    /// Creates a message authentication code generator.
    public init(key: SymmetricKey) {
        state = HMACState(key: key.secret, digest: openSSLDigest(of: H.self))
    }

    /// Updates the MAC with data.
    public mutating func update<D: DataProtocol>(data: D) {
        if !isKnownUniquelyReferenced(&state) { state = state.copy() }
        for region in data.regions { region.withUnsafeBytes { state.update($0) } }
    }

    /// Finalizes the message authentication computation and returns the computed code (the generator can go on).
    public func finalize() -> MAC {
        MAC { state.finish(into: $0) }
    }

    /// Computes a message authentication code for the given data, with the key's kept OpenSSL context (inlinable: the
    /// caller's module specializes it for its data type).
    @inlinable
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> MAC {
        ContiguousBytesInput.with(data) { authenticationCode(bytes: $0, using: key) }
    }

    /// Returns a Boolean value indicating whether the given message authentication code is valid for a block of data.
    public static func isValidAuthenticationCode<D: DataProtocol>(
        _ authenticationCode: MAC, authenticating authenticatedData: D, using key: SymmetricKey
    ) -> Bool {
        Self.authenticationCode(for: authenticatedData, using: key) == authenticationCode
    }

    /// Returns a Boolean value indicating whether the given message authentication code, given as bytes, is valid for
    /// a block of data (constant-time comparison; a truncated code is refused).
    public static func isValidAuthenticationCode<C: ContiguousBytes, D: DataProtocol>(
        _ authenticationCode: C, authenticating authenticatedData: D, using key: SymmetricKey
    ) -> Bool {
        let expected = Self.authenticationCode(for: authenticatedData, using: key)
        return authenticationCode.withUnsafeBytes { code in
            expected.withUnsafeBytes { MemoryCompare.equals($0, code) }
        }
    }

    /// Returns a Boolean value indicating whether the given message authentication code is valid for the bytes in a
    /// buffer.
    public static func isValidAuthenticationCode(
        _ mac: MAC, authenticating bufferPointer: UnsafeRawBufferPointer, using key: SymmetricKey
    ) -> Bool {
        Self.authenticationCode(bytes: bufferPointer, using: key) == mac
    }

    /// The code of raw `bytes` (for callers that build the message in their own buffer).
    @usableFromInline
    package static func authenticationCode(bytes: UnsafeRawBufferPointer, using key: SymmetricKey) -> MAC {
        let digest = openSSLDigest(of: H.self)
        return MAC { HMACEngine.compute(bytes, key: key.secret, digest: digest, into: $0) }
    }
}
