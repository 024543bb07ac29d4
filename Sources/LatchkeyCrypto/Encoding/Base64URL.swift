import Foundation

extension Data {
    /// Decodes base64url (RFC 4648 §5) without padding, as JOSE and WebAuthn use it.
    /// Returns nil for characters outside the alphabet, for padding, and for impossible lengths.
    public init?(base64URLEncoded string: some StringProtocol) {
        var text = String(string)
        guard text.utf8.allSatisfy({ Data.isBase64URLByte($0) }), text.utf8.count % 4 != 1 else { return nil }
        text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: text) else { return nil }
        self = data
    }

    /// base64url without padding.
    public func base64URLEncodedString() -> String {
        var text = base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

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

    private static func isBase64URLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
