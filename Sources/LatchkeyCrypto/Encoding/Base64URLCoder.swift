import CSodium
import Foundation

/// base64url (RFC 4648 §5, unpadded) on bytes: the alphabet only, no padding, no impossible lengths, and only
/// the canonical spelling (zero bits after the last byte).
/// The one implementation behind `Data(base64URLEncoded:)` and the JWS parser (no String rewriting).
enum Base64URLCoder {
    /// Decodes a contiguous buffer with libsodium's `sodium_base642bin` (one pass, into the result's own
    /// storage). Text it refuses (also canonical-form checks libsodium makes) is decoded by the general path
    /// below, so what is accepted does not change.
    static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> Data? {
        guard text.count % 4 != 1 else { return nil }
        // libsodium (1.0.18) decodes bytes ≥ 0x80 as if they were symbols (found by the jwt fuzz target: a token
        // with invalid UTF-8 in its payload parsed): only text in the alphabet goes to it.
        guard text.allSatisfy(isSymbol) else { return nil }
        let capacity = text.count / 4 * 3 + 2
        var decoded = 0
        var ok = false
        let data = DataOutput.make(count: capacity) { out in
            guard let base = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            ok = text.withMemoryRebound(to: CChar.self) { chars in
                sodium_base642bin(base, capacity, chars.baseAddress,
                                  chars.count, nil, &decoded, nil, sodium_base64_VARIANT_URLSAFE_NO_PADDING) == 0
            }
        }
        if ok { return decoded == capacity ? data : data.prefix(decoded) }
        return decode(Array(text))
    }

    static func decode(_ text: some Collection<UInt8>) -> Data? {
        guard text.count % 4 != 1 else { return nil }
        var standard = [UInt8]()
        standard.reserveCapacity(text.count + 3)
        for byte in text {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.append(byte)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        // RFC 4648 §3.5: the bits of the last symbol past the final byte must be zero, so that each byte string
        // has one spelling (otherwise a JWS signature or a WebAuthn challenge could be re-spelled and still match).
        if standard.count % 4 != 0, let last = standard.last {
            let mask: UInt8 = standard.count % 4 == 2 ? 0x0f : 0x03
            guard sextet(last) & mask == 0 else { return nil }
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard))
    }

    /// Whether `byte` is in the base64url alphabet.
    private static func isSymbol(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
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
    static func encode(_ data: Data) -> String {
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
