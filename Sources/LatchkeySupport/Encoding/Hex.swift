import Foundation

extension Data {
    /// Decodes lowercase or uppercase hexadecimal; whitespace is ignored. Nil on any other character or odd length.
    public init?(hexString: some StringProtocol) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hexString.utf8.count / 2)
        var high: UInt8?
        for c in hexString.utf8 {
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") { continue }
            guard let nibble = HexDigit.value(c) else { return nil }
            if let h = high { bytes.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        guard high == nil else { return nil }
        self.init(bytes)
    }

    /// Lowercase hexadecimal.
    public var hexString: String { withUnsafeBytes(HexDigit.lowercaseHex) }
}

/// One hexadecimal digit.
public enum HexDigit {
    /// The value of an ASCII hexadecimal digit, either case; nil for any other byte.
    @inlinable
    public static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Lowercase hexadecimal of `bytes`, written straight into the string's storage.
    package static func lowercaseHex(_ bytes: UnsafeRawBufferPointer) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 2 * bytes.count) { out in
            for (i, byte) in bytes.enumerated() {
                out[2 * i] = digits.utf8Start[Int(byte >> 4)]
                out[2 * i + 1] = digits.utf8Start[Int(byte & 0x0f)]
            }
            return 2 * bytes.count
        }
    }
}
