import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// A container for Advanced Encryption Standard (AES) ciphers.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum AES: Sendable {}

extension AES {
    /// The Advanced Encryption Standard (AES) Galois Counter Mode (GCM) cipher suite (NIST SP 800-38D), by OpenSSL:
    /// 128-, 192- or 256-bit keys, nonces of 12 bytes (the default) to 128 bytes (OpenSSL 3's limit), a 16-byte tag.
    public enum GCM: Sendable {
        static let defaultNonceByteCount = 12
        static let tagByteCount = 16

        /// A value used once during a cryptographic operation and then discarded.
        public struct Nonce: ContiguousBytes, Sequence, Sendable {
            let bytes: Data

            /// Creates a new random nonce (libsodium CSPRNG).
            public init() { bytes = SodiumRandom.bytes(count: GCM.defaultNonceByteCount) }

            /// Creates a nonce from the given data (12 bytes or more).
            public init<D: DataProtocol>(data: D) throws {
                guard data.count >= GCM.defaultNonceByteCount else { throw CryptoKitError.incorrectParameterSize }
                bytes = Data(data)
            }

            public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
                try bytes.withUnsafeBytes(body)
            }

            public func makeIterator() -> Array<UInt8>.Iterator { Array(bytes).makeIterator() }
        }

        /// A secure container for your data that you can access using a cipher.
        public struct SealedBox: Sendable {
            /// nonce || ciphertext || tag.
            let combinedRepresentation: Data
            let nonceByteCount: Int

            /// The combined representation (nonce, ciphertext, tag) — nil unless the nonce is the default 12 bytes.
            public var combined: Data? { nonceByteCount == GCM.defaultNonceByteCount ? combinedRepresentation : nil }

            /// The authentication tag.
            public var tag: Data { Data(combinedRepresentation.suffix(GCM.tagByteCount)) }

            /// The encrypted data.
            public var ciphertext: Data {
                Data(combinedRepresentation.dropFirst(nonceByteCount).dropLast(GCM.tagByteCount))
            }

            /// The nonce used to encrypt the data.
            public var nonce: Nonce { Nonce(unchecked: combinedRepresentation.prefix(nonceByteCount)) }

            /// Creates a sealed box from a combined representation (a 12-byte nonce, ciphertext, a 16-byte tag).
            public init<D: DataProtocol>(combined: D) throws {
                guard combined.count >= GCM.defaultNonceByteCount + GCM.tagByteCount else {
                    throw CryptoKitError.incorrectParameterSize
                }
                combinedRepresentation = Data(combined)
                nonceByteCount = GCM.defaultNonceByteCount
            }

            /// Creates a sealed box from the given nonce, ciphertext and tag.
            public init<C: DataProtocol, T: DataProtocol>(nonce: Nonce, ciphertext: C, tag: T) throws {
                combinedRepresentation = try AEADSealing.combined(nonce: nonce.bytes, ciphertext: ciphertext, tag: tag,
                                                                  tagByteCount: GCM.tagByteCount)
                nonceByteCount = nonce.bytes.count
            }

            init(sealed: Data, nonceByteCount: Int) {
                combinedRepresentation = sealed
                self.nonceByteCount = nonceByteCount
            }
        }

        // The generic entry points are inlinable: the caller's module specializes them for its data types and calls
        // the byte-buffer forms below, with no generic metadata lookups per call.

        /// Secures the given plaintext message with encryption and an authentication tag that covers both the
        /// encrypted data and additional data.
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
            let nonce = nonce ?? Nonce()
            let sealed = try AEADSealing.seal(plaintext, key: key, nonce: nonce.bytes, aad: aad, cipher: .aesGCM)
            return SealedBox(sealed: sealed, nonceByteCount: nonce.bytes.count)
        }

        @usableFromInline
        static func open(_ sealedBox: SealedBox, using key: SymmetricKey,
                         authenticatingBytes aad: UnsafeRawBufferPointer) throws -> Data {
            try AEADSealing.open(sealedBox.combinedRepresentation, nonceByteCount: sealedBox.nonceByteCount, key: key,
                                 aad: aad, cipher: .aesGCM)
        }

        /// Seals with associated data the caller holds in its own buffer (the vault's row identity): `nonce ||
        /// ciphertext || tag` with a fresh 12-byte nonce, no copy of the AAD made.
        package static func seal(_ plaintext: UnsafeRawBufferPointer, using key: SymmetricKey,
                                 authenticatingBytes aad: UnsafeRawBufferPointer) throws(CryptoError) -> Data {
            var nonce = (UInt64(0), UInt32(0))
            return try withUnsafeMutableBytes(of: &nonce) { (nonceBytes) throws(CryptoError) in
                SodiumRandom.fill(nonceBytes)
                return try AEADEngine.seal(plaintext, key: key.secret, nonce: UnsafeRawBufferPointer(nonceBytes), aad: aad,
                                           cipher: .aesGCM)
            }
        }

        /// Opens a `nonce || ciphertext || tag` buffer held by the caller (a database row), with associated data in
        /// its own buffer too: no copy of either is made.
        package static func open(combinedBytes combined: UnsafeRawBufferPointer, using key: SymmetricKey,
                                 authenticatingBytes aad: UnsafeRawBufferPointer) throws(CryptoError) -> Data {
            try AEADEngine.open(combined, key: key.secret, aad: aad, cipher: .aesGCM)
        }
    }
}

extension AES.GCM.Nonce {
    init(unchecked bytes: Data) { self.bytes = Data(bytes) }
}
