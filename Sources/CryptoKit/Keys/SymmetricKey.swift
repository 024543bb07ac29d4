import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// The sizes that a symmetric cryptographic key can take.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct SymmetricKeySize: Sendable {
    /// The number of bits in the key.
    public let bitCount: Int

    /// A size of 128 bits.
    public static var bits128: SymmetricKeySize { SymmetricKeySize(bitCount: 128) }
    /// A size of 192 bits.
    public static var bits192: SymmetricKeySize { SymmetricKeySize(bitCount: 192) }
    /// A size of 256 bits.
    public static var bits256: SymmetricKeySize { SymmetricKeySize(bitCount: 256) }

    /// Creates a new key size of the given length (a positive multiple of 8).
    public init(bitCount: Int) {
        precondition(bitCount > 0 && bitCount % 8 == 0, "a key size must be a positive multiple of 8 bits")
        self.bitCount = bitCount
    }
}

/// A symmetric cryptographic key: its bytes live in an allocation of their own, zeroed when the last copy of the
/// key is released. `==` compares in constant time. Printing it shows the size only: Apple's `SymmetricKey` declares no
/// `description` or mirror, so neither does this one, and the default reflection reaches only its storage's redacted
/// text (`SymmetricKey(secret: SecretBytes(32 bytes))`).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct SymmetricKey: ContiguousBytes, Sendable {
    /// The bytes (and the OpenSSL contexts keyed with them), shared by the copies of this key.
    package let secret: SecretBytes

    /// A key over engine bytes (the KDFs, key agreement and unwrapping make keys this way).
    package init(secret: SecretBytes) { self.secret = secret }

    /// Creates a key from the given data (the caller should zero its own copy when done with it).
    public init<D: ContiguousBytes>(data: D) {
        secret = data.withUnsafeBytes { SecretBytes(copying: $0) }
    }

    /// Generates a new random key of the given size (libsodium CSPRNG).
    public init(size: SymmetricKeySize) {
        secret = SecretBytes(randomByteCount: size.bitCount / 8)
    }

    /// The number of bits in the key.
    public var bitCount: Int { secret.byteCount * 8 }

    /// Invokes the given closure with a buffer pointer covering the raw bytes of the key.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(secret.bytes)
    }
}

extension SymmetricKey: Equatable {
    /// Constant-time comparison of the key bytes.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.secret.hasSameBytes(as: rhs.secret) }
}

/// A key agreement result from which you can derive a symmetric cryptographic key.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct SharedSecret: ContiguousBytes, Sendable {
    /// The secret bytes.
    package let secret: SecretBytes

    package init(secret: SecretBytes) { self.secret = secret }

    /// Invokes the given closure with a buffer pointer covering the raw bytes of the shared secret.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(secret.bytes)
    }

    /// Derives a symmetric key with the ANSI X9.63 key derivation function.
    public func x963DerivedSymmetricKey<H: HashFunction, SI: DataProtocol>(
        using hashFunction: H.Type, sharedInfo: SI, outputByteCount: Int
    ) -> SymmetricKey {
        let digest = openSSLDigest(of: H.self)
        let derived = ContiguousInput.with(sharedInfo) { info in
            Result { () throws(CryptoError) in
                try X963KDFEngine.deriveKey(secret: secret.bytes, sharedInfo: info, outputByteCount: outputByteCount,
                                            digest: digest)
            }
        }
        switch derived {
        case let .success(key): return SymmetricKey(secret: key)
        case let .failure(error): preconditionFailure("X9.63 key derivation failed: \(error)")
        }
    }

    /// Derives a symmetric key with HKDF (RFC 5869).
    public func hkdfDerivedSymmetricKey<H: HashFunction, Salt: DataProtocol, SI: DataProtocol>(
        using hashFunction: H.Type, salt: Salt, sharedInfo: SI, outputByteCount: Int
    ) -> SymmetricKey {
        HKDF<H>.deriveKey(inputKeyMaterial: SymmetricKey(secret: secret), salt: salt, info: sharedInfo,
                          outputByteCount: outputByteCount)
    }
}

extension SharedSecret: Hashable {
    /// Constant-time comparison of the secret bytes.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.secret.hasSameBytes(as: rhs.secret) }

    /// Constant-time comparison with bytes held elsewhere.
    public static func == <D: DataProtocol>(lhs: Self, rhs: D) -> Bool {
        ContiguousInput.with(rhs) { MemoryCompare.equals(lhs.secret.bytes, $0) }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(bytes: secret.bytes) }
}

extension SharedSecret: CustomStringConvertible {
    /// "SharedSecret(32 bytes)": the size only, never the bytes.
    public var description: String { "SharedSecret(\(secret.byteCount) bytes)" }
}

/// A Diffie-Hellman key agreement key.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public protocol DiffieHellmanKeyAgreement: Sendable {
    /// The public key share type.
    associatedtype PublicKey: Sendable
    /// The corresponding public key.
    var publicKey: PublicKey { get }
    /// Computes a shared secret with the provided public key from another party.
    func sharedSecretFromKeyAgreement(with publicKeyShare: PublicKey) throws -> SharedSecret
}
