import CSodium
import Foundation

/// base64url (RFC 4648 §5, unpadded) on bytes: the alphabet only, no padding, no impossible lengths.
/// The one implementation behind `Data(base64URLEncoded:)` and the JWS parser (no String rewriting).
enum Base64URLCoder {
    /// Decodes a contiguous buffer with libsodium's `sodium_base642bin` (one pass, into the result's own
    /// storage). Text it refuses (also canonical-form checks libsodium makes) is decoded by the general path
    /// below, so what is accepted does not change.
    static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> Data? {
        guard text.count % 4 != 1 else { return nil }
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
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard))
    }

    static func encode(_ data: Data) -> String {
        var bytes = Array(data.base64EncodedData())
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        for i in bytes.indices {
            if bytes[i] == UInt8(ascii: "+") { bytes[i] = UInt8(ascii: "-") } else if bytes[i] == UInt8(ascii: "/") { bytes[i] = UInt8(ascii: "_") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
