import Foundation

/// A small parser for the shape JOSE headers, JWT claims and WebAuthn's JSON nearly always have: one JSON object
/// whose members are strings without escapes, numbers, booleans, null, or arrays of those — and, up to
/// `objectDepth` levels down, objects of the same. It exists so that verifying a token or a passkey response does
/// not pay for `JSONDecoder` (most of their cost besides the signature).
///
/// It never decides that a document is *invalid*: anything it does not handle — an escape sequence, a
/// fraction or exponent, an object nested deeper than asked (or inside an array), an array in an array, a duplicate
/// member, trailing bytes, a control character — makes it return nil, and the caller decodes the same bytes with
/// `JSONDecoder` exactly as before. So the fast path can only accept what the full decoder accepts, with the same
/// values. A number with a fraction or exponent comes back as `.number`; callers use it only where it is read as a
/// Double (NumericDates) and defer to JSONDecoder elsewhere, where its integer-or-double classification is
/// JSONDecoder's to make.
package struct FlatJSONObject {
    package private(set) var members: [(name: String, value: JSONValue)] = []

    /// Parses `data`, or returns nil when it is not of the simple shape described above. With `objectDepth` 0 (JOSE)
    /// a nested object is not read; with 1 or more, objects that deep are read as `.object`.
    package init?(_ data: Data, objectDepth: Int = 0) {
        guard let members = data.withUnsafeBytes({ Self.parse($0, objectDepth: objectDepth) }) else { return nil }
        self.members = members
    }

    /// The value of the member `name`, if there is one.
    package subscript(name: String) -> JSONValue? {
        members.first { $0.name == name }?.value
    }

    private static func parse(_ raw: UnsafeRawBufferPointer, objectDepth: Int) -> [(name: String, value: JSONValue)]? {
        var p = Scanner(bytes: raw.bindMemory(to: UInt8.self))
        p.skipSpace()
        guard let members = p.object(depth: objectDepth) else { return nil }
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

        /// An object whose members are read by `value`, with objects `depth` levels further down; nil for a
        /// repeated member.
        mutating func object(depth: Int) -> [(name: String, value: JSONValue)]? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [(name: String, value: JSONValue)] = []
            members.reserveCapacity(12)
            skipSpace()
            if take(UInt8(ascii: "}")) { return members }
            while true {
                skipSpace()
                guard let name = string() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard let value = value(allowArray: true, objectDepth: depth) else { return nil }
                // A repeated member: leave the decision to JSONDecoder.
                if members.contains(where: { $0.name == name }) { return nil }
                members.append((name, value))
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}")) ? members : nil
            }
        }

        mutating func value(allowArray: Bool, objectDepth: Int = 0) -> JSONValue? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{") where objectDepth > 0:
                guard let members = object(depth: objectDepth - 1) else { return nil }
                return .object(Dictionary(uniqueKeysWithValues: members.lazy.map { ($0.name, $0.value) }))
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
