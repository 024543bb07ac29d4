import Foundation

/// Writes one JSON object — string, string-array, integer, boolean members and arrays of objects written the same
/// way, in the order given — as the exact bytes the
/// server's `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`) writes for the same members, so a
/// hot response can skip Codable. Callers give the members in sorted order and leave out absent optionals
/// (what the synthesized `encodeIfPresent` does); tests compare the bytes with `JSONEncoder`'s.
///
/// Used for the access-token claims and the token endpoint's answer: `JSONEncoder` was a tenth of a refresh
/// request's CPU.
struct JSONObjectWriter {
    private(set) var bytes: [UInt8] = []
    private var empty = true

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// `"name":"text"`, escaped as `JSONEncoder` escapes (quote, backslash, control characters; not `/`).
    mutating func member(_ name: StaticString, _ text: String) {
        key(name)
        string(text)
    }

    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Copies `utf8` in runs, escaping the bytes between them (a JWT or a token has none: one copy).
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for (offset, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<offset]))
            start = offset + 1
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0c: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0a: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0d: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            default:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          Self.hexDigit(byte >> 4), Self.hexDigit(byte & 0xf)])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }

    /// `"name":["text",...]`, each element escaped as `member(_:_:)` escapes a string.
    mutating func member(_ name: StaticString, _ texts: [String]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(text)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// `"name":true` or `"name":false`.
    mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        append(value ? "true" : "false")
    }

    /// `"name":[{…},{…}]`, each element's object written by `write` into the same buffer.
    mutating func member<Element>(_ name: StaticString, objects elements: [Element],
                                  _ write: (Element, inout JSONObjectWriter) -> Void) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var nested = JSONObjectWriter(continuing: &bytes)
            write(element, &nested)
            nested.bytes.append(UInt8(ascii: "}"))
            swap(&bytes, &nested.bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A writer of an object that continues `buffer` (which it takes over; give it back with `swap`).
    private init(continuing buffer: inout [UInt8]) {
        swap(&bytes, &buffer)
        bytes.append(UInt8(ascii: "{"))
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `"name":number`.
    mutating func member(_ name: StaticString, _ value: Int64) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// The object, closed.
    consuming func finish() -> Data {
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }

    private mutating func key(_ name: StaticString) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        bytes.append(UInt8(ascii: "\""))
        append(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
