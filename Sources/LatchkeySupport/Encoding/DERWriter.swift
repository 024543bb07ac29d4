import Foundation

/// The DER encodings the package writes (definite lengths): RSA key formats, certificates a TPM signs, App Attest
/// extensions and receipts. Parsing is `DERReader` (LatchkeyCrypto).
package enum DERWriter {
    /// Tag, length (short or long form), contents.
    package static func tlv(_ tag: UInt8, _ contents: Data) -> Data {
        var out = Data([tag])
        let count = contents.count
        if count < 0x80 {
            out.append(UInt8(count))
        } else {
            let length = withUnsafeBytes(of: UInt64(count).bigEndian) { Array($0.drop { $0 == 0 }) }
            out.append(0x80 | UInt8(length.count))
            out.append(contentsOf: length)
        }
        out.append(contents)
        return out
    }

    package static func sequence(_ contents: Data) -> Data { tlv(0x30, contents) }
    package static func octetString(_ contents: Data) -> Data { tlv(0x04, contents) }
    package static func utf8String(_ text: String) -> Data { tlv(0x0c, Data(text.utf8)) }
    /// A BIT STRING with no unused bits.
    package static func bitString(_ contents: Data) -> Data { tlv(0x03, Data([0]) + contents) }
    /// `[number] EXPLICIT` (constructed, context-specific; number < 31).
    package static func explicit(_ number: UInt8, _ contents: Data) -> Data { tlv(0xa0 | number, contents) }

    /// An INTEGER of the unsigned big-endian `magnitude` (leading zeros dropped, one added when the top bit is set).
    package static func integer(unsigned magnitude: Data) -> Data {
        var bytes = Data(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[bytes.startIndex] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }
}
