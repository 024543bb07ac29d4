import Foundation

/// A small parser for the shape JOSE headers and JWT claims nearly always have: one JSON object whose members
/// are strings without escapes, numbers, booleans, null, or arrays of those. It exists so that verifying a
/// token does not pay for `JSONDecoder` (most of a JWT verification's cost besides the signature).
///
/// It never decides that a document is *invalid*: anything it does not handle — an escape sequence, a
/// fraction or exponent, a nested object, a duplicate member, trailing bytes, a control character — makes
/// it return nil, and the caller decodes the same bytes with `JSONDecoder` exactly as before. So the fast
/// path can only accept what the full decoder accepts, with the same values. A number with a fraction or
/// exponent comes back as `.number`; callers use it only where it is read as a Double (NumericDates) and
/// defer to JSONDecoder elsewhere, where its integer-or-double classification is JSONDecoder's to make.
struct FlatJSONObject {
    private(set) var members: [(name: String, value: JSONValue)] = []

    /// Parses `data`, or returns nil when it is not of the simple shape described above.
    init?(_ data: Data) {
        guard let members = data.withUnsafeBytes({ Self.parse($0) }) else { return nil }
        self.members = members
    }

    private static func parse(_ raw: UnsafeRawBufferPointer) -> [(name: String, value: JSONValue)]? {
        var p = Scanner(bytes: raw.bindMemory(to: UInt8.self))
        var members: [(name: String, value: JSONValue)] = []
        members.reserveCapacity(12)
        p.skipSpace()
        guard p.take(UInt8(ascii: "{")) else { return nil }
        p.skipSpace()
        if !p.take(UInt8(ascii: "}")) {
            while true {
                p.skipSpace()
                guard let name = p.string() else { return nil }
                p.skipSpace()
                guard p.take(UInt8(ascii: ":")) else { return nil }
                p.skipSpace()
                guard let value = p.value(allowArray: true) else { return nil }
                // A repeated member: leave the decision to JSONDecoder.
                if members.contains(where: { $0.name == name }) { return nil }
                members.append((name, value))
                p.skipSpace()
                if p.take(UInt8(ascii: ",")) { continue }
                guard p.take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        p.skipSpace()
        return p.atEnd ? members : nil
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0a, 0x0d: index += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func take(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for i in 0..<count where bytes[index + i] != word.utf8Start[i] { return false }
            index += count
            return true
        }

        /// A string with no escapes and no control characters, as valid UTF-8.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var ascii = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let utf8 = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    // ASCII is valid UTF-8 as it is: only other text goes through the (generic, slower) validation.
                    let text = ascii ? String(decoding: utf8, as: UTF8.self) : String(validatingUTF8Bytes: utf8)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            return nil
        }

        /// A number in JSON's grammar: `.integer` when it has no fraction or exponent and fits in 64 bits,
        /// else `.number` (Swift's `Double(String)` rounds correctly, as JSONDecoder does). Nil for anything
        /// outside the grammar (a leading zero followed by digits, a bare "-", "1.", ...).
        mutating func number() -> JSONValue? {
            let start = index
            let negative = take(UInt8(ascii: "-"))
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            var magnitude: UInt64 = 0
            var overflow = false
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if index < bytes.count, isDigit(bytes[index]) { return nil }
            } else {
                while index < bytes.count, isDigit(bytes[index]) {
                    let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                    overflow = overflow || o1 || o2
                    magnitude = sum
                    index += 1
                }
            }
            var integral = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                integral = false
                index += 1
                guard digits() else { return nil }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                integral = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() else { return nil }
            }
            if integral {
                guard !overflow else { return nil }
                if negative { return magnitude <= UInt64(Int64.max) + 1 ? .integer(Int64(truncatingIfNeeded: 0 &- magnitude)) : nil }
                return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : nil
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { return nil }
            return .number(value)
        }

        /// One or more digits.
        mutating func digits() -> Bool {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index > start
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        mutating func value(allowArray: Bool) -> JSONValue? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return take("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return take("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return take("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            case UInt8(ascii: "[") where allowArray:
                index += 1
                var elements: [JSONValue] = []
                skipSpace()
                if take(UInt8(ascii: "]")) { return .array(elements) }
                while true {
                    skipSpace()
                    guard let element = value(allowArray: false) else { return nil }
                    elements.append(element)
                    skipSpace()
                    if take(UInt8(ascii: ",")) { continue }
                    return take(UInt8(ascii: "]")) ? .array(elements) : nil
                }
            default: return nil
            }
        }
    }
}
