import Foundation

extension Data {
    /// Decodes lowercase or uppercase hexadecimal; whitespace is ignored. Nil on any other character or odd length.
    public init?(hexString: some StringProtocol) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hexString.utf8.count / 2)
        var high: UInt8?
        for c in hexString.utf8 {
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): continue
            default: return nil
            }
            if let h = high { bytes.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        guard high == nil else { return nil }
        self.init(bytes)
    }

    /// Lowercase hexadecimal.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for b in self { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0x0f)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
