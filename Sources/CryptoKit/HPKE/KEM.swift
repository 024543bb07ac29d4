import Foundation

/// Key encapsulation mechanisms: a public key encapsulates a fresh shared secret that only its private key recovers.
@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
public enum KEM: Sendable {
    /// What encapsulating produced: the shared secret, and the bytes to send to the private key's holder.
    public struct EncapsulationResult: Sendable {
        /// The shared secret.
        public let sharedSecret: SymmetricKey
        /// The encapsulated secret, for `KEMPrivateKey.decapsulate(_:)`.
        public let encapsulated: Data

        /// A result of a shared secret and its encapsulation.
        public init(sharedSecret: SymmetricKey, encapsulated: Data) {
            self.sharedSecret = sharedSecret
            self.encapsulated = encapsulated
        }
    }
}

/// A public key that encapsulates shared secrets.
@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
@preconcurrency public protocol KEMPublicKey: Sendable {
    /// A fresh shared secret and its encapsulation to this key.
    func encapsulate() throws -> KEM.EncapsulationResult
}

/// A private key that recovers the shared secrets encapsulated to its public key.
@available(iOS 17.0, macOS 14.0, watchOS 10.0, tvOS 17.0, macCatalyst 17.0, *)
@preconcurrency public protocol KEMPrivateKey: Sendable {
    /// The public key type.
    associatedtype PublicKey: KEMPublicKey
    /// A new random private key.
    static func generate() throws -> Self
    /// The shared secret `encapsulated` carries.
    func decapsulate(_ encapsulated: Data) throws -> SymmetricKey
    /// The corresponding public key.
    var publicKey: PublicKey { get }
}
