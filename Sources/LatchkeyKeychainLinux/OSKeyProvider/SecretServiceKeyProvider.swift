#if canImport(CSecret)
import Foundation
import LatchkeyKeychainCore

/// Keeps vault wrapping keys as secrets in the Secret Service's default (login) collection.
///
/// Durable: the login keyring is on disk, encrypted with the user's login password, and unlocked by the
/// desktop session at login. A locked keyring answers ``OSKeyProviderError/interactionNotAllowed(provider:)``
/// rather than prompting.
public struct SecretServiceKeyProvider: OSKeyProvider {
    public let name = "secret-service"
    /// The collection the keys live in.
    public let collection: SecretServiceClient.Collection

    static let schema = SecretServiceSchema(name: "org.latchkey.VaultKey", attributes: ["vault": .string])

    /// A provider over `collection` (the login keyring by default).
    public init(collection: SecretServiceClient.Collection = .default) {
        self.collection = collection
    }

    public var isAvailable: Bool { SecretServiceClient.isDaemonRunning() }

    public func loadKey(id: String) throws -> Data? {
        try mapErrors { try client().lookup(schema: Self.schema, attributes: ["vault": id]) }
    }

    public func storeKey(_ key: Data, id: String) throws {
        try mapErrors {
            try client().store(schema: Self.schema, attributes: ["vault": id],
                               label: "Latchkey vault key (\(id))", secret: key)
        }
    }

    public func deleteKey(id: String) throws {
        try mapErrors { _ = try client().clear(schema: Self.schema, attributes: ["vault": id]) }
    }

    private func client() throws -> SecretServiceClient {
        try SecretServiceClient(collection: collection)
    }

    private func mapErrors<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as SecretServiceError {
            switch error {
            case .locked, .dismissed: throw OSKeyProviderError.interactionNotAllowed(provider: name)
            case .unavailable(let reason): throw OSKeyProviderError.unavailable(provider: name, reason: reason)
            default: throw OSKeyProviderError.unavailable(provider: name, reason: error.localizedDescription)
            }
        }
    }
}
#endif
