import Foundation

/// One pass over a JSON text for what `JSONDecoder` would accept but a JSON reader here must not: text that is not
/// UTF-8, nesting deeper than a limit, and an object with the same member name twice.
///
/// - RFC 8259 §8.1: JSON exchanged between systems is UTF-8, and a byte order mark must not be sent. Foundation's
///   decoder reads UTF-16 and UTF-32 (with or without a byte order mark) and skips a UTF-8 one; here a byte order
///   mark at the start, or any zero byte (which UTF-16 and UTF-32 have for every ASCII character, and UTF-8 JSON
///   never has), is `notUTF8`.
/// - RFC 8259 §4: names within an object should be unique, and receivers differ on duplicates — Foundation keeps the
///   first value, most other parsers the last. A proxy that validated one value would pass the other through, so a
///   repeated name is refused. Names are compared as decoded text (`"a"` and `"\u0061"` are one name) and as Swift
///   compares strings (canonically equivalent names are one name, as they would be one key of a decoded dictionary).
/// - Nesting is bounded so that the decoder's recursion is (brackets inside strings do not count).
///
/// It does not validate the rest of the grammar: what it lets through still goes to the decoder. On text that is not
/// JSON at all it may report nothing or anything; the caller refuses such text either way.
package enum JSONTextCheck {
    package enum Problem: Equatable, Sendable {
        /// A byte order mark, or a zero byte (UTF-16 or UTF-32 text).
        case notUTF8
        /// Arrays and objects nest deeper than the limit.
        case tooDeep(limit: Int)
        /// An object has this member name twice.
        case duplicateMember(String)

        /// A short English reason for an error message (never the name: it is content of the text).
        package var summary: String {
            switch self {
            case .notUTF8: "not UTF-8 JSON"
            case .tooDeep(let limit): "nested deeper than \(limit) levels"
            case .duplicateMember: "a member name appears twice in one object"
            }
        }
    }

    /// The nesting allowed in tokens and WebAuthn's JSON (their objects are a few levels deep).
    package static let joseDepth = 64

    /// The first problem of `text`, or nil.
    package static func problem(in text: Data, maximumDepth: Int) -> Problem? {
        text.withUnsafeBytes { problem(in: $0.bindMemory(to: UInt8.self), maximumDepth: maximumDepth) }
    }

    /// The names seen so far in one open object (a set once there are many, so a large object costs linear time).
    private struct Names {
        var list: [String] = []
        var set: Set<String>?

        /// Adds `name`; false when it was there already.
        mutating func insert(_ name: String) -> Bool {
            if set != nil { return set!.insert(name).inserted }
            if list.contains(name) { return false }
            list.append(name)
            if list.count > 16 {
                set = Set(list)
                list = []
            }
            return true
        }
    }

    package static func problem(in bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Problem? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return .notUTF8
        }
        if let decided = simpleProblem(in: bytes, maximumDepth: maximumDepth) { return decided }
        return generalProblem(in: bytes, maximumDepth: maximumDepth)
    }

    /// The usual request body — a few levels, a few dozen names, each ASCII without escapes — checked without
    /// allocating: names are byte ranges compared byte for byte (for such names that is the same as comparing them
    /// as text). `.some(nil)` when the text has no problem, `.some(problem)` for one, nil when the text is not of
    /// that shape (the general pass decides).
    static func simpleProblem(in bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Problem?? {
        let maximumFrames = 16, maximumNames = 48
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: maximumFrames + 2 * maximumNames) { storage -> Problem?? in
            // storage[0..<maximumFrames]: per open container, where its names start in `names` (-1 for an array);
            // names: (start, end) byte offsets of each name of the open objects, innermost last.
            let frames = UnsafeMutableBufferPointer(rebasing: storage[0..<maximumFrames])
            let names = UnsafeMutableBufferPointer(rebasing: storage[maximumFrames...])
            var depth = 0, nameCount = 0
            var expectingName = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0:
                    return .some(.notUTF8)
                case UInt8(ascii: "\""):
                    let start = index + 1
                    guard let string = scanString(bytes, from: start) else { return .some(.notUTF8) }
                    index = string.end
                    guard expectingName, depth > 0, frames[depth - 1] >= 0 else { break }
                    guard !string.hasEscape, string.isASCII, index < bytes.count, nameCount < maximumNames else { return nil }
                    let end = index
                    var other = frames[depth - 1]
                    while other < nameCount {
                        let otherStart = names[2 * other], otherEnd = names[2 * other + 1]
                        if otherEnd - otherStart == end - start,
                           memcmp(bytes.baseAddress! + otherStart, bytes.baseAddress! + start, end - start) == 0 {
                            return .some(.duplicateMember(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)))
                        }
                        other += 1
                    }
                    names[2 * nameCount] = start
                    names[2 * nameCount + 1] = end
                    nameCount += 1
                    expectingName = false
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if depth == maximumDepth { return .some(.tooDeep(limit: maximumDepth)) }
                    guard depth < maximumFrames else { return nil }
                    frames[depth] = byte == UInt8(ascii: "{") ? nameCount : -1
                    depth += 1
                    expectingName = byte == UInt8(ascii: "{")
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth > 0 {
                        depth -= 1
                        if frames[depth] >= 0 { nameCount = frames[depth] }
                    }
                    expectingName = false
                case UInt8(ascii: ","):
                    expectingName = depth > 0 && frames[depth - 1] >= 0
                default:
                    break
                }
                index += 1
            }
            return .some(nil)
        }
    }

    /// Any text: names decoded and compared as Swift strings, any depth up to the limit, any number of names.
    static func generalProblem(in bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Problem? {
        // One entry per open array (nil) or object (its names).
        var open: [Names?] = []
        var expectingName = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0:
                return .notUTF8
            case UInt8(ascii: "\""):
                let start = index + 1
                guard let string = scanString(bytes, from: start) else { return .notUTF8 }
                index = string.end
                if expectingName, let last = open.indices.last, open[last] != nil {
                    let raw = UnsafeBufferPointer(rebasing: bytes[start..<min(index, bytes.count)])
                    let name = (string.hasEscape ? unescaped(raw) : nil) ?? String(decoding: raw, as: UTF8.self)
                    if !open[last]!.insert(name) { return .duplicateMember(name) }
                    expectingName = false
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if open.count == maximumDepth { return .tooDeep(limit: maximumDepth) }
                open.append(byte == UInt8(ascii: "{") ? Names() : nil)
                expectingName = byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !open.isEmpty { open.removeLast() }
                expectingName = false
            case UInt8(ascii: ","):
                expectingName = open.last.map { $0 != nil } ?? false
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The string whose content starts at `start` (just after its opening quote), for both passes: the index of its
    /// closing quote (`bytes.count` when there is none), whether it holds an escape, whether its bytes outside escapes
    /// are all ASCII; nil when it holds a zero byte, escaped or not.
    @inline(__always)
    static func scanString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int)
        -> (end: Int, hasEscape: Bool, isASCII: Bool)? {
        var index = start
        var hasEscape = false, isASCII = true
        while index < bytes.count {
            let inner = bytes[index]
            if inner == UInt8(ascii: "\"") { break }
            if inner == 0 { return nil }
            if inner == UInt8(ascii: "\\") {
                hasEscape = true
                index += 1 // the escaped byte, which cannot end the string
                if index < bytes.count, bytes[index] == 0 { return nil }
            } else if inner >= 0x80 {
                isASCII = false
            }
            index += 1
        }
        return (index, hasEscape, isASCII)
    }

    /// A string's content with its escapes decoded; nil when an escape is not valid JSON (the decoder refuses it).
    static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        var scalars = String.UnicodeScalarView()
        var bytes: [UInt8] = []
        func flush() -> Bool {
            guard !bytes.isEmpty else { return true }
            guard let text = String(validatingUTF8Bytes: bytes) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            bytes.removeAll(keepingCapacity: true)
            return true
        }
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= raw.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<4 {
                guard let digit = HexDigit.value(raw[at + offset]) else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                index += 1
                continue
            }
            guard index + 1 < raw.count, flush() else { return nil }
            let kind = raw[index + 1]
            index += 2
            let simple: Unicode.Scalar?
            switch kind {
            case UInt8(ascii: "\""): simple = "\""
            case UInt8(ascii: "\\"): simple = "\\"
            case UInt8(ascii: "/"): simple = "/"
            case UInt8(ascii: "b"): simple = "\u{08}"
            case UInt8(ascii: "f"): simple = "\u{0C}"
            case UInt8(ascii: "n"): simple = "\n"
            case UInt8(ascii: "r"): simple = "\r"
            case UInt8(ascii: "t"): simple = "\t"
            case UInt8(ascii: "u"): simple = nil
            default: return nil
            }
            if let simple {
                scalars.append(simple)
                continue
            }
            guard let unit = hex4(index) else { return nil }
            index += 4
            if (0xD800...0xDBFF).contains(unit) {
                // A high surrogate must be followed by an escaped low one.
                guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u"),
                      let low = hex4(index + 2), (0xDC00...0xDFFF).contains(low),
                      let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) else { return nil }
                scalars.append(scalar)
                index += 6
            } else {
                guard let scalar = Unicode.Scalar(unit) else { return nil }
                scalars.append(scalar)
            }
        }
        guard flush() else { return nil }
        return String(scalars)
    }
}
