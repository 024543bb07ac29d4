import Foundation

extension Data {
    /// Decodes base64url (RFC 4648 §5) without padding, as JOSE and WebAuthn use it.
    /// Returns nil for characters outside the alphabet, for padding, and for impossible lengths.
    public init?(base64URLEncoded string: some StringProtocol) {
        guard let data = Base64URLCoder.decode(string.utf8) else { return nil }
        self = data
    }

    /// base64url without padding.
    public func base64URLEncodedString() -> String { Base64URLCoder.encode(self) }

    /// Standard base64 without padding (the PHC string format of password hashes).
    public init?(unpaddedBase64Encoded string: some StringProtocol) {
        let text = String(string)
        guard !text.contains("="), text.utf8.count % 4 != 1 else { return nil }
        guard let data = Data(base64Encoded: text + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4))
        else { return nil }
        self = data
    }

    /// Standard base64 without padding.
    public func unpaddedBase64EncodedString() -> String {
        var text = base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
