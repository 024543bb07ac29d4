import Foundation

/// A JWK Set (RFC 7517 §5). Entries with an unknown `kty` (for example "oct") or that do not decode
/// are skipped rather than failing the whole set, as RFC 7517 §5 asks.
public struct JWKSet: Codable, Sendable, Hashable {
    /// The usable keys.
    public var keys: [JWK]

    /// A set of keys.
    public init(keys: [JWK]) { self.keys = keys }

    /// Parses a JWK Set document.
    public init(jsonData: Data) throws(CryptoError) {
        self = try JSONCoding.decode(JWKSet.self, from: jsonData)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode([Entry].self, forKey: .keys)
        keys = entries.compactMap(\.jwk).filter { Self.knownTypes.contains($0.kty) }
    }

    /// The first key whose `kid` is `id`.
    public func key(withID id: String) -> JWK? { keys.first { $0.kid == id } }

    static let knownTypes: Set<String> = ["EC", "RSA", "OKP"]

    private struct Entry: Decodable {
        let jwk: JWK?
        init(from decoder: any Decoder) throws { jwk = try? JWK(from: decoder) }
    }
}
