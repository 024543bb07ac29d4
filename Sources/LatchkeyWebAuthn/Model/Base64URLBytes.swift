import Foundation
import LatchkeyCrypto

/// Bytes that travel in WebAuthn JSON as base64url without padding (challenges, ids, signatures).
public struct Base64URLBytes: Sendable, Hashable, Codable, CustomStringConvertible {
    public var data: Data

    public init(_ data: Data) { self.data = data }

    /// Decodes a base64url string; text that is not base64url throws `WebAuthnError.invalidBase64URL` naming the
    /// field's path (`response.clientDataJSON`), not a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let data = Data(base64URLEncoded: text) else {
            throw WebAuthnError.invalidBase64URL(field: Self.path(decoder.codingPath))
        }
        self.data = data
    }

    /// A coding path as dotted text (`excludeCredentials.0.id`).
    static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(data.base64URLEncodedString())
    }

    public var base64URL: String { data.base64URLEncodedString() }
    public var description: String { base64URL }
}
