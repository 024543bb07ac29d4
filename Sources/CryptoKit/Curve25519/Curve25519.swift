import Foundation
import LatchkeyOpenSSL
import LatchkeySupport

/// An elliptic curve that enables X25519 key agreement and Ed25519 signatures, by OpenSSL.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum Curve25519: Sendable {
    /// A mechanism used to create or verify a cryptographic signature using Ed25519 (RFC 8032).
    public enum Signing: Sendable {
        /// A Curve25519 private key used to create cryptographic signatures. Its seed lives only inside OpenSSL.
        public struct PrivateKey: Sendable {
            let key: EVPKey
            /// The corresponding public key.
            public let publicKey: PublicKey

            /// Creates a random Curve25519 private key for signing.
            public init() { (key, publicKey) = Curve25519.generate(.ed25519) { PublicKey(key: $0, raw: $1) } }

            /// Creates a Curve25519 private key for signing from its 32-byte seed.
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws {
                (key, publicKey) = try Curve25519.privateKey(.ed25519, data) { PublicKey(key: $0, raw: $1) }
            }

            /// The 32-byte seed. Treat the result as a secret.
            public var rawRepresentation: Data { Curve25519.rawPrivate(.ed25519, key) }

            /// Generates an EdDSA signature over Curve25519 (64 bytes, deterministic).
            @inlinable
            public func signature<D: DataProtocol>(for data: D) throws -> Data {
                try ContiguousBytesInput.with(data) { try signature(forBytes: $0) }
            }

            @usableFromInline
            func signature(forBytes message: UnsafeRawBufferPointer) throws -> Data {
                try engine { () throws(CryptoError) in try EdwardsCurve.sign(key, message: message) }
            }
        }

        /// A Curve25519 public key used to verify cryptographic signatures.
        public struct PublicKey: Sendable {
            let key: EVPKey
            /// The 32 bytes of the key.
            public let rawRepresentation: Data

            init(key: EVPKey, raw: Data) {
                self.key = key
                rawRepresentation = raw
            }

            /// Creates a Curve25519 public key from its 32 bytes.
            public init<D: ContiguousBytes>(rawRepresentation: D) throws {
                (key, self.rawRepresentation) = try Curve25519.publicKey(.ed25519, rawRepresentation)
            }

            /// Verifies an EdDSA signature over Curve25519.
            @inlinable
            public func isValidSignature<S: DataProtocol, D: DataProtocol>(_ signature: S, for data: D) -> Bool {
                ContiguousBytesInput.with(signature) { sig in
                    ContiguousBytesInput.with(data) { isValidSignature(bytes: sig, forBytes: $0) }
                }
            }

            @usableFromInline
            func isValidSignature(bytes signature: UnsafeRawBufferPointer, forBytes message: UnsafeRawBufferPointer) -> Bool {
                EdwardsCurve.isValid(key, signature: signature, message: message)
            }
        }
    }

    /// A mechanism used to create a shared secret between two users by performing X25519 key agreement (RFC 7748).
    public enum KeyAgreement: Sendable {
        /// A Curve25519 private key used for key agreement.
        public struct PrivateKey: DiffieHellmanKeyAgreement, Sendable {
            let key: EVPKey
            /// The corresponding public key.
            public let publicKey: PublicKey

            /// Creates a random Curve25519 private key for key agreement.
            public init() { (key, publicKey) = Curve25519.generate(.x25519) { PublicKey(key: $0, raw: $1) } }

            /// Creates a Curve25519 private key for key agreement from its 32 bytes.
            public init<D: ContiguousBytes>(rawRepresentation: D) throws {
                (key, publicKey) = try Curve25519.privateKey(.x25519, rawRepresentation) { PublicKey(key: $0, raw: $1) }
            }

            /// The 32 bytes of the key. Treat the result as a secret.
            public var rawRepresentation: Data { Curve25519.rawPrivate(.x25519, key) }

            /// Computes a shared secret with the provided public key from another party (X25519).
            public func sharedSecretFromKeyAgreement(with publicKeyShare: PublicKey) throws -> SharedSecret {
                SharedSecret(secret: try engine { () throws(CryptoError) in try key.sharedSecret(with: publicKeyShare.key) })
            }
        }

        /// A Curve25519 public key used for key agreement.
        public struct PublicKey: Sendable {
            let key: EVPKey
            /// The 32 bytes of the key.
            public let rawRepresentation: Data

            init(key: EVPKey, raw: Data) {
                self.key = key
                rawRepresentation = raw
            }

            /// Creates a Curve25519 public key for key agreement from its 32 bytes.
            public init<D: ContiguousBytes>(rawRepresentation: D) throws {
                (key, self.rawRepresentation) = try Curve25519.publicKey(.x25519, rawRepresentation)
            }
        }
    }

    /// A new private key and its public key (OpenSSL's key generation fails only when out of memory).
    static func generate<P>(_ curve: EdwardsCurve, _ makePublic: (EVPKey, Data) -> P) -> (EVPKey, P) {
        guard let key = try? curve.generate(), let pub = try? publicPart(curve, key, makePublic) else {
            fatalError("OpenSSL could not generate a \(curve) key (out of memory)")
        }
        return (key, pub)
    }

    static func privateKey<P>(_ curve: EdwardsCurve, _ bytes: some ContiguousBytes,
                              _ makePublic: (EVPKey, Data) -> P) throws -> (EVPKey, P) {
        let key = try bytes.withUnsafeBytes { raw in
            guard raw.count == EdwardsCurve.keyByteCount else { throw CryptoKitError.incorrectKeySize }
            return try engine { () throws(CryptoError) in try curve.privateKey(raw: raw) }
        }
        return (key, try publicPart(curve, key, makePublic))
    }

    static func publicKey(_ curve: EdwardsCurve, _ bytes: some ContiguousBytes) throws -> (EVPKey, Data) {
        let raw = bytes.withUnsafeBytes { Data($0) }
        guard raw.count == EdwardsCurve.keyByteCount else { throw CryptoKitError.incorrectKeySize }
        let key = try raw.withUnsafeBytes { bytes in
            try engine { () throws(CryptoError) in try curve.publicKey(raw: bytes) }
        }
        return (key, raw)
    }

    private static func publicPart<P>(_ curve: EdwardsCurve, _ key: EVPKey, _ makePublic: (EVPKey, Data) -> P) throws -> P {
        let raw = try engine { () throws(CryptoError) in try curve.rawPublic(of: key) }
        let pub = try raw.withUnsafeBytes { bytes in try engine { () throws(CryptoError) in try curve.publicKey(raw: bytes) } }
        return makePublic(pub, raw)
    }

    static func rawPrivate(_ curve: EdwardsCurve, _ key: EVPKey) -> Data {
        (try? curve.rawPrivate(of: key)).map { Data($0.bytes) } ?? Data()
    }
}
