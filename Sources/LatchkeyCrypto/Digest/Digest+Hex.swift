import Foundation

extension Digest {
    /// Lowercase hexadecimal of the digest's bytes.
    public var hexString: String { withUnsafeBytes(HexDigit.lowercaseHex) }
}

extension MessageAuthenticationCode {
    /// Lowercase hexadecimal of the code's bytes.
    public var hexString: String { withUnsafeBytes(HexDigit.lowercaseHex) }
}
