import Foundation

/// Where libmicrohttpd left the parts of a request head in its read buffer, checked for bytes it hid.
///
/// libmicrohttpd 0.9.75 parses the head in place: it writes a zero byte over the space after the method, the space
/// before the version, every line end (CR and LF) and every header's colon, and hands out C strings that point into
/// that buffer. A NUL byte *inside* a method, target or header value therefore ends that string early: `X-A: a\0b`
/// reaches the application as `a`, the rest of the line unseen, and a handler cannot tell. The parts are laid out in
/// order, so their addresses show it: the target starts one byte after the method's end, the version one byte after
/// the target's, each header line one or two bytes (LF or CRLF) after the previous value's end, and the head ends
/// two to four bytes (this line's and the empty line's ends) after the last value. Any other distance means bytes the
/// strings do not cover — a NUL, or a folded header line (obsolete line folding, which RFC 9112 §5.2 lets a server
/// refuse with 400). The one NUL this cannot see is a NUL that is the last byte of a line ended by a bare LF: it and
/// the LF take two bytes, as CRLF does, and it hides nothing.
///
/// Only addresses are compared (no byte is read), so a layout other than the expected one can only lead to a 400.
struct RequestHeadLayout {
    /// One past the head's last byte (the method's address plus libmicrohttpd's header size).
    let end: UInt
    /// One past the last part seen (the version, then each header value).
    var lastEnd: UInt
    /// Whether every part was where it should be so far.
    private(set) var isIntact: Bool

    /// The layout of a head whose method, target (as the URI callback saw it, address and length) and version are
    /// these, `headerSize` bytes long from the method on.
    init(method: UnsafePointer<CChar>, target: (start: UInt, length: Int), version: UnsafePointer<CChar>, headerSize: Int) {
        let methodStart = UInt(bitPattern: method)
        let versionStart = UInt(bitPattern: version)
        end = methodStart &+ UInt(headerSize)
        lastEnd = versionStart &+ UInt(strlen(version))
        isIntact = headerSize > 0 && target.start != 0
            && target.start == methodStart &+ UInt(strlen(method)) &+ 1
            && versionStart == target.start &+ UInt(target.length) &+ 1
            && lastEnd < end
    }

    /// The next header, in the order libmicrohttpd received them.
    mutating func follow(name: UnsafeRawPointer, nameCount: Int, value: UnsafeRawPointer?, valueCount: Int) {
        guard isIntact else { return }
        let nameStart = UInt(bitPattern: name)
        let gap = nameStart &- lastEnd
        // A value starts after the name and its colon (and any optional whitespace); an empty one may be absent.
        let valueStart = value.map { UInt(bitPattern: $0) } ?? (nameStart &+ UInt(nameCount) &+ 1)
        let valueEnd = valueStart &+ UInt(valueCount)
        guard nameStart > lastEnd, gap <= 2, valueStart > nameStart &+ UInt(nameCount), valueEnd < end else {
            isIntact = false
            return
        }
        lastEnd = valueEnd
    }

    /// Whether the head ended where its last part says (call after the last header).
    var endsWhereExpected: Bool {
        isIntact && (2...4).contains(end &- lastEnd)
    }
}
