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

    /// The client data of `json`. The usual flat object (strings without escapes, booleans) is read by
    /// `FlatJSONObject`; anything else goes to `JSONDecoder`, which accepts and refuses exactly as before.
    public static func parse(_ json: Data) throws(WebAuthnError) -> CollectedClientData {
        guard json.count <= maxSize else { throw .malformedClientData("larger than \(maxSize) bytes") }
        if let fast = fast(json) { return fast }
        return try decoded(json)
    }

    /// The fast path's value, or nil when `JSONDecoder` must decide.
    static func fast(_ json: Data) -> CollectedClientData? {
        guard let object = FlatJSONObject(json) else { return nil }
        return try? CollectedClientData(fast: object)
    }

    /// `JSONDecoder`'s value, or `malformedClientData` (also for a member given twice, UTF-16 or deep nesting:
    /// `JSONTextCheck`; the fast path leaves a repeated member to this one).
    static func decoded(_ json: Data) throws(WebAuthnError) -> CollectedClientData {
        if let problem = JSONTextCheck.problem(in: json, maximumDepth: JSONTextCheck.joseDepth) {
            throw .malformedClientData(problem.summary)
        }
        do {
            return try JSONDecoder().decode(CollectedClientData.self, from: json)
        } catch {
            throw .malformedClientData("not the expected JSON object")
        }
    }

    /// The challenge bytes, or nil when the client did not send valid base64url.
    public var challengeBytes: Data? { Data(base64URLEncoded: challenge) }
}
