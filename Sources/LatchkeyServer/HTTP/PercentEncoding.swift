import Foundation
import LatchkeyCrypto

/// Percent-decoding (RFC 3986 §2.1) on UTF-8 bytes, shared by the request path and the form parser. Working on
/// bytes, never on grapheme clusters: a `%`, `/`, `&` or `=` followed by a combining mark is still that byte.
enum PercentEncoding {
    /// `text` with each `%XX` replaced by its byte, and `+` by a space when `plusIsSpace` (form encoding); nil when a
    /// `%` is not followed by two hex digits or the bytes are not UTF-8 (what Foundation's `removingPercentEncoding`
    /// refuses too). Copies only when there is something to decode.
    static func decode(_ text: Substring, plusIsSpace: Bool) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || plusIsSpace && $0 == UInt8(ascii: "+") }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            utf8.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = HexDigit.value(utf8[index]) else { return nil }
                utf8.formIndex(after: &index)
                guard index != utf8.endIndex, let low = HexDigit.value(utf8[index]) else { return nil }
                utf8.formIndex(after: &index)
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The segments of a request path: what lies between two `/` bytes after the leading one, each percent-decoded
    /// after splitting (so `%2F` is part of a segment, not a separator). `/` is one empty segment, `/a/` is `a` and an
    /// empty one. Nil when the path does not start with `/`, or a segment's encoding is invalid, is not UTF-8 or
    /// decodes to a NUL.
    static func pathSegments(_ path: String) -> [String]? {
        let utf8 = path.utf8
        guard utf8.first == UInt8(ascii: "/") else { return nil }
        var segments: [String] = []
        for part in utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let segment = decode(Substring(part), plusIsSpace: false), !segment.utf8.contains(0) else { return nil }
            segments.append(segment)
        }
        return segments
    }
}
