import Foundation

/// base64url (RFC 4648 §5, unpadded) on bytes: the alphabet only, no padding, no impossible lengths.
/// The one implementation behind `Data(base64URLEncoded:)` and the JWS parser (no String rewriting).
enum Base64URLCoder {
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
