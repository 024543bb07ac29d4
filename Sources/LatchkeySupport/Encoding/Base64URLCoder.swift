import Foundation

/// base64url (RFC 4648 §5, unpadded) on bytes: the alphabet only, no padding, no impossible lengths, and only
/// the canonical spelling (zero bits after the last byte).
/// The one implementation behind `Data(base64URLEncoded:)` and the JWS parser (no String rewriting).
package enum Base64URLCoder {
    /// Decodes a contiguous buffer in one pass: each symbol's value from a table (the alphabet is checked on the
    /// way), four symbols written as three bytes straight into the result, and the last symbol's spare bits checked.
    /// (Translating to the standard alphabet for Foundation's decoder cost twice the instructions; libsodium's
    /// `sodium_base642bin`, used before that, is constant-time, ≈ 55 instructions a symbol — a token is public.)
    package static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> Data? {
        let remainder = text.count % 4
        guard remainder != 1 else { return nil }
        guard !text.isEmpty else { return Data() }
        var decoded = Data(count: text.count / 4 * 3 + (remainder == 0 ? 0 : remainder - 1))
        let valid = decoded.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Bool in
            sextets.withUnsafeBufferPointer { table -> Bool in
                var symbol = 0, byte = 0
                var invalid: UInt8 = 0
                while symbol + 4 <= text.count {
                    let a = table[Int(text[symbol])], b = table[Int(text[symbol + 1])]
                    let c = table[Int(text[symbol + 2])], d = table[Int(text[symbol + 3])]
                    invalid |= a | b | c | d
                    out[byte] = a << 2 | b >> 4
                    out[byte + 1] = b << 4 | c >> 2
                    out[byte + 2] = c << 6 | d
                    symbol += 4
                    byte += 3
                }
                switch remainder {
                case 2:
                    let a = table[Int(text[symbol])], b = table[Int(text[symbol + 1])]
                    invalid |= a | b
                    // RFC 4648 §3.5: the bits of the last symbol past the final byte must be zero, so that each byte
                    // string has one spelling (otherwise a JWS signature or a WebAuthn challenge could be re-spelled).
                    guard b & 0x0f == 0 else { return false }
                    out[byte] = a << 2 | b >> 4
                case 3:
                    let a = table[Int(text[symbol])], b = table[Int(text[symbol + 1])], c = table[Int(text[symbol + 2])]
                    invalid |= a | b | c
                    guard c & 0x03 == 0 else { return false }
                    out[byte] = a << 2 | b >> 4
                    out[byte + 1] = b << 4 | c >> 2
                default:
                    break
                }
                return invalid & 0x80 == 0
            }
        }
        return valid ? decoded : nil
    }

    /// The 6-bit value of each base64url symbol, 0xff for every other byte.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (value, symbol) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(symbol)] = UInt8(value)
        }
        return table
    }()

    package static func decode(_ text: some Collection<UInt8>) -> Data? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    /// base64url without padding: Foundation's base64, translated to the URL alphabet while it is copied into the
    /// string's own storage (libsodium's `sodium_bin2base64` is constant-time and cost twice as much here).
    package static func encode(_ data: Data) -> String {
        let standard = data.base64EncodedData()
        return standard.withUnsafeBytes { (text: UnsafeRawBufferPointer) -> String in
            var count = text.count
            while count > 0, text[count - 1] == UInt8(ascii: "=") { count -= 1 }
            guard count > 0 else { return "" }
            return String(unsafeUninitializedCapacity: count) { out in
                for i in 0..<count {
                    let byte = text[i]
                    out[i] = byte == UInt8(ascii: "+") ? UInt8(ascii: "-") : byte == UInt8(ascii: "/") ? UInt8(ascii: "_") : byte
                }
                return count
            }
        }
    }
}
