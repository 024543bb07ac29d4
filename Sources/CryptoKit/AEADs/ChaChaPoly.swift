import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// An implementation of the ChaCha20-Poly1305 cipher (RFC 8439), by OpenSSL: a 256-bit key, a 12-byte nonce and a
/// 16-byte tag.
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
            guard tag.count == ChaChaPoly.tagByteCount else { throw CryptoKitError.incorrectParameterSize }
            var combined = Data(capacity: nonce.bytes.count + ciphertext.count + tag.count)
            combined.append(nonce.bytes)
            combined.append(contentsOf: ciphertext)
            combined.append(contentsOf: tag)
            self.combined = combined
        }

        init(sealed: Data) { combined = sealed }
    }

    /// Secures the given plaintext message with encryption and an authentication tag that covers both the encrypted
    /// data and additional data.
    public static func seal<Plaintext: DataProtocol, AuthenticatedData: DataProtocol>(
        _ message: Plaintext, using key: SymmetricKey, nonce: Nonce? = nil, authenticating authenticatedData: AuthenticatedData
    ) throws -> SealedBox {
        let nonce = nonce ?? Nonce()
        let sealed = try ContiguousInput.with(message) { plaintext in
            try ContiguousInput.with(authenticatedData) { aad in
                try nonce.bytes.withUnsafeBytes { nonceBytes in
                    try engine { () throws(CryptoError) in
                        try AEADEngine.seal(plaintext, key: key.secret, nonce: nonceBytes, aad: aad, cipher: .chaChaPoly)
                    }
                }
            }
        }
        return SealedBox(sealed: sealed)
    }

    /// Secures the given plaintext message with encryption and an authentication tag.
    public static func seal<Plaintext: DataProtocol>(
        _ message: Plaintext, using key: SymmetricKey, nonce: Nonce? = nil
    ) throws -> SealedBox {
        try seal(message, using: key, nonce: nonce, authenticating: [UInt8]())
    }

    /// Decrypts the message and verifies the authenticity of both the encrypted message and additional data.
    public static func open<AuthenticatedData: DataProtocol>(
        _ sealedBox: SealedBox, using key: SymmetricKey, authenticating authenticatedData: AuthenticatedData
    ) throws -> Data {
        try sealedBox.combined.withUnsafeBytes { box in
            try ContiguousInput.with(authenticatedData) { aad in
                try engine { () throws(CryptoError) in
                    try AEADEngine.open(box, key: key.secret, aad: aad, cipher: .chaChaPoly)
                }
            }
        }
    }

    /// Decrypts the message and verifies its authenticity.
    public static func open(_ sealedBox: SealedBox, using key: SymmetricKey) throws -> Data {
        try open(sealedBox, using: key, authenticating: [UInt8]())
    }
}

extension ChaChaPoly.Nonce {
    init(unchecked bytes: Data) { self.bytes = Data(bytes) }
}
