import Foundation
import LatchkeyCrypto

/// `CollectedClientData` (WebAuthn §5.8.1), decoded from the exact clientDataJSON bytes.
public struct CollectedClientData: Sendable, Hashable, Decodable {
    public var type: String
    /// The challenge as the client wrote it (base64url).
    public var challenge: String
    public var origin: String
    public var crossOrigin: Bool?
    public var topOrigin: String?

    /// Largest clientDataJSON accepted.
    public static let maxSize = 16 * 1024

    public static func parse(_ json: Data) throws(WebAuthnError) -> CollectedClientData {
        guard json.count <= maxSize else { throw .malformedClientData("larger than \(maxSize) bytes") }
        do {
            return try JSONDecoder().decode(CollectedClientData.self, from: json)
        } catch {
            throw .malformedClientData("not the expected JSON object")
        }
    }

    /// The challenge bytes, or nil when the client did not send valid base64url.
    public var challengeBytes: Data? { Data(base64URLEncoded: challenge) }
}
