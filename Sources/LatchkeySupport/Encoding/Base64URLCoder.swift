import Foundation

/// base64url (RFC 4648 §5, unpadded) on bytes: the alphabet only, no padding, no impossible lengths, and only
/// the canonical spelling (zero bits after the last byte).
/// The one implementation behind `Data(base64URLEncoded:)` and the JWS parser (no String rewriting).
package enum Base64URLCoder {
    /// Decodes a contiguous buffer: one pass checks the alphabet and writes the standard-alphabet, padded text,
    /// the last symbol's spare bits are checked, and Foundation's decoder does the rest. (libsodium's
    /// `sodium_base642bin` did this before: it is constant-time, ≈ 55 instructions a symbol, and a token is
    /// public — 27 k of a JWT verification's instructions went to it.)
    package static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> Data? {
        guard text.count % 4 != 1 else { return nil }
        guard !text.isEmpty else { return Data() }
        let padded = (text.count + 3) / 4 * 4
        var standard = Data(count: padded)
        let valid = standard.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Bool in
            for i in 0..<text.count {
                let byte = text[i]
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"):
                    out[i] = byte
                case UInt8(ascii: "-"): out[i] = UInt8(ascii: "+")
                case UInt8(ascii: "_"): out[i] = UInt8(ascii: "/")
                default: return false
                }
            }
            // RFC 4648 §3.5: the bits of the last symbol past the final byte must be zero, so that each byte
            // string has one spelling (otherwise a JWS signature or a WebAuthn challenge could be re-spelled).
            if text.count % 4 != 0 {
                let mask: UInt8 = text.count % 4 == 2 ? 0x0f : 0x03
                guard sextet(out[text.count - 1]) & mask == 0 else { return false }
            }
            for i in text.count..<padded { out[i] = UInt8(ascii: "=") }
            return true
        }
        guard valid else { return nil }
        return Data(base64Encoded: standard)
    }

    package static func decode(_ text: some Collection<UInt8>) -> Data? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    /// The 6-bit value of a standard base64 symbol (the alphabet was checked by the caller).
    private static func sextet(_ symbol: UInt8) -> UInt8 {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): symbol - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        default: 63
        }
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
