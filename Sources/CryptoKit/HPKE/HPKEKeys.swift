import Foundation

/// A public key with the serialization a KEM of HPKE uses (`SerializePublicKey` / `DeserializePublicKey`).
@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
@preconcurrency public protocol HPKEPublicKeySerialization: Sendable {
    /// The key from its serialization under `kem`; `HPKE.Errors.inconsistentCiphersuiteAndKey` when `kem` is another
    /// curve's.
    init<D: ContiguousBytes>(_ serialization: D, kem: HPKE.KEM) throws
    /// The serialization under `kem` (NIST curves: uncompressed, 04‖x‖y; X25519: the 32 bytes).
    func hpkeRepresentation(kem: HPKE.KEM) throws -> Data
}

/// A Diffie-Hellman public key usable as an HPKE recipient key; its ephemeral keys are of `EphemeralPrivateKey`.
@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
@preconcurrency public protocol HPKEDiffieHellmanPublicKey: HPKEPublicKeySerialization where Self == EphemeralPrivateKey.PublicKey {
    /// The private key type of the sender's ephemeral keys.
    associatedtype EphemeralPrivateKey: HPKEDiffieHellmanPrivateKeyGeneration
}

/// A Diffie-Hellman private key usable by an HPKE recipient (or an authenticating sender).
@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
@preconcurrency public protocol HPKEDiffieHellmanPrivateKey: DiffieHellmanKeyAgreement where PublicKey: HPKEDiffieHellmanPublicKey {}

/// A Diffie-Hellman private key HPKE can generate (the sender's ephemeral keys).
@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
@preconcurrency public protocol HPKEDiffieHellmanPrivateKeyGeneration: HPKEDiffieHellmanPrivateKey {
    /// A new random key.
    init()
}

@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
extension Curve25519.KeyAgreement.PrivateKey: HPKEDiffieHellmanPrivateKeyGeneration {}

@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
extension Curve25519.KeyAgreement.PublicKey: HPKEDiffieHellmanPublicKey {
    public typealias EphemeralPrivateKey = Curve25519.KeyAgreement.PrivateKey
    public typealias HPKEEphemeralPrivateKey = Curve25519.KeyAgreement.PrivateKey

    /// The key from its 32 bytes; `kem` must be `.Curve25519_HKDF_SHA256`.
    public init<D: ContiguousBytes>(_ serialization: D, kem: HPKE.KEM) throws {
        try HPKE.DHKEM.require(kem, .Curve25519_HKDF_SHA256)
        try self.init(rawRepresentation: serialization)
    }

    /// The 32 bytes; `kem` must be `.Curve25519_HKDF_SHA256`.
    public func hpkeRepresentation(kem: HPKE.KEM) throws -> Data {
        try HPKE.DHKEM.require(kem, .Curve25519_HKDF_SHA256)
        return rawRepresentation
    }
}

/// A Secure Enclave (TPM) key-agreement key as an HPKE recipient key: its ECDH runs in the TPM.
@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
extension SecureEnclave.P256.KeyAgreement.PrivateKey: HPKEDiffieHellmanPrivateKey {}
