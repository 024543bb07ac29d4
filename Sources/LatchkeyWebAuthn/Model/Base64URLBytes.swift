import Foundation
import LatchkeyCrypto

/// Bytes that travel in WebAuthn JSON as base64url without padding (challenges, ids, signatures).
public struct Base64URLBytes: Sendable, Hashable, Codable, CustomStringConvertible {
    public var data: Data

    public init(_ data: Data) { self.data = data }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let data = Data(base64URLEncoded: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not base64url"))
        }
        self.data = data
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(data.base64URLEncodedString())
    }

    public var base64URL: String { data.base64URLEncodedString() }
    public var description: String { base64URL }
}
