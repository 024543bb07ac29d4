import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// An implementation of the ChaCha20-Poly1305 cipher (RFC 8439), by OpenSSL: a 256-bit key, a 12-byte nonce and a
/// 16-byte tag.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum ChaChaPoly: Sendable {
    static let nonceByteCount = 12
    static let tagByteCount = 16

    /// A value used once during a cryptographic operation and then discarded.
    public struct Nonce: ContiguousBytes, Sequence, Sendable {
        let bytes: Data

        /// Creates a new random nonce (libsodium CSPRNG).
        public init() { bytes = SodiumRandom.bytes(count: ChaChaPoly.nonceByteCount) }

        /// Creates a nonce from the given data (exactly 12 bytes).
        public init<D: DataProtocol>(data: D) throws {
            guard data.count == ChaChaPoly.nonceByteCount else { throw CryptoKitError.incorrectParameterSize }
            bytes = Data(data)
        }

        public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try bytes.withUnsafeBytes(body)
        }

        public func makeIterator() -> Array<UInt8>.Iterator { Array(bytes).makeIterator() }
    }

    /// A secure container for your data that you access using a cipher.
    public struct SealedBox: Sendable {
        /// A combined element composed of the nonce, encrypted data, and authentication tag.
        public let combined: Data

        /// The authentication tag.
        public var tag: Data { Data(combined.suffix(ChaChaPoly.tagByteCount)) }

        /// The encrypted data.
        public var ciphertext: Data { Data(combined.dropFirst(ChaChaPoly.nonceByteCount).dropLast(ChaChaPoly.tagByteCount)) }

        /// The nonce used to encrypt the data.
        public var nonce: Nonce { Nonce(unchecked: combined.prefix(ChaChaPoly.nonceByteCount)) }

        /// Creates a sealed box from a combined bytes representation.
        public init<D: DataProtocol>(combined: D) throws {
            guard combined.count >= ChaChaPoly.nonceByteCount + ChaChaPoly.tagByteCount else {
                throw CryptoKitError.incorrectParameterSize
            }
            self.combined = Data(combined)
        }

        /// Creates a sealed box from the given tag, nonce, and ciphertext.
        public init<C: DataProtocol, T: DataProtocol>(nonce: Nonce, ciphertext: C, tag: T) throws {
            combined = try AEADSealing.combined(nonce: nonce.bytes, ciphertext: ciphertext, tag: tag,
                                                tagByteCount: ChaChaPoly.tagByteCount)
        }

        init(sealed: Data) { combined = sealed }
    }

    // The generic entry points are inlinable: the caller's module specializes them for its data types and calls the
    // byte-buffer forms below, with no generic metadata lookups per call.

    /// Secures the given plaintext message with encryption and an authentication tag that covers both the encrypted
    /// data and additional data.
    @inlinable
    public static func seal<Plaintext: DataProtocol, AuthenticatedData: DataProtocol>(
        _ message: Plaintext, using key: SymmetricKey, nonce: Nonce? = nil, authenticating authenticatedData: AuthenticatedData
    ) throws -> SealedBox {
        try ContiguousBytesInput.with(message) { plaintext in
            try ContiguousBytesInput.with(authenticatedData) { aad in
                try seal(bytes: plaintext, using: key, nonce: nonce, authenticatingBytes: aad)
            }
        }
    }

    /// Secures the given plaintext message with encryption and an authentication tag.
    @inlinable
    public static func seal<Plaintext: DataProtocol>(
        _ message: Plaintext, using key: SymmetricKey, nonce: Nonce? = nil
    ) throws -> SealedBox {
        try ContiguousBytesInput.with(message) { plaintext in
            try seal(bytes: plaintext, using: key, nonce: nonce, authenticatingBytes: UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// Decrypts the message and verifies the authenticity of both the encrypted message and additional data.
    @inlinable
    public static func open<AuthenticatedData: DataProtocol>(
        _ sealedBox: SealedBox, using key: SymmetricKey, authenticating authenticatedData: AuthenticatedData
    ) throws -> Data {
        try ContiguousBytesInput.with(authenticatedData) { aad in try open(sealedBox, using: key, authenticatingBytes: aad) }
    }

    /// Decrypts the message and verifies its authenticity.
    public static func open(_ sealedBox: SealedBox, using key: SymmetricKey) throws -> Data {
        try open(sealedBox, using: key, authenticatingBytes: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    @usableFromInline
    static func seal(bytes plaintext: UnsafeRawBufferPointer, using key: SymmetricKey, nonce: Nonce?,
                     authenticatingBytes aad: UnsafeRawBufferPointer) throws -> SealedBox {
        let sealed = try AEADSealing.seal(plaintext, key: key, nonce: (nonce ?? Nonce()).bytes, aad: aad, cipher: .chaChaPoly)
        return SealedBox(sealed: sealed)
    }

    @usableFromInline
    static func open(_ sealedBox: SealedBox, using key: SymmetricKey,
                     authenticatingBytes aad: UnsafeRawBufferPointer) throws -> Data {
        try AEADSealing.open(sealedBox.combined, key: key, aad: aad, cipher: .chaChaPoly)
    }
}

extension ChaChaPoly.Nonce {
    init(unchecked bytes: Data) { self.bytes = Data(bytes) }
}
