import Foundation

/// Test vectors are written in hex, as their sources print them.
extension Data {
    /// The bytes of a hex string (whitespace ignored); stops the test run on a malformed literal.
    init(hex: String) {
        let digits = hex.unicodeScalars.filter { !$0.properties.isWhitespace }.map { Character($0) }
        precondition(digits.count % 2 == 0, "odd number of hex digits in a test vector")
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else {
                preconditionFailure("bad hex digit in a test vector")
            }
            bytes.append(byte)
            index += 2
        }
        self.init(bytes)
    }

    /// Lower-case hex.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hex of any byte sequence (digests, MACs).
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}

/// A `DataProtocol` value made of two regions, so the non-contiguous input paths are exercised too.
func split(_ data: Data) -> DispatchData {
    let middle = data.count / 2
    var result = DispatchData.empty
    data.prefix(middle).withUnsafeBytes { result.append($0) }
    data.dropFirst(middle).withUnsafeBytes { result.append($0) }
    return result
}
