import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyServer

/// The byte-level form decoder accepts and refuses exactly what Foundation's `removingPercentEncoding` (after
/// `+` → space), which it replaced, accepts and refuses.
@Suite(.offCooperativePool) struct HTTPFormDecodingTests {
    static let cases: [Substring] = [
        "", "plain", "a+b", "+", "%20", "%2B", "%2b", "a%3Db%26c", "%e2%82%ac", "%E2%82%AC", "caf%C3%A9", "한국어",
        "%", "%2", "%zz", "%g0", "a%", "%%41", "%C3", "%FF", "%C3%28", "%00", "%0a", "x+%2B+y", "~-._*",
        "eyJhbGciOi.J9-_", "%41%42%43",
    ]

    @Test(arguments: cases)
    func matchesFoundation(_ text: Substring) {
        let foundation = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        #expect(HTTPRequest.formDecode(text) == foundation)
    }

    @Test func decodesAFormBody() throws {
        let request = HTTPRequest(method: "POST", path: "/v1/token",
                                  headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                  body: Data("grant_type=refresh_token&refresh_token=a%2Bb+c&scope=".utf8))
        #expect(try request.decodeForm() == ["grant_type": "refresh_token", "refresh_token": "a+b c", "scope": ""])
        let bad = HTTPRequest(method: "POST", path: "/v1/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                              body: Data("refresh_token=%zz".utf8))
        #expect(throws: HTTPRequestError.malformedBody("The form encoding is invalid.")) { try bad.decodeForm() }
    }

    /// Pairs split at the `&` byte and names at the first `=` byte, as the WHATWG form parser does: an `&`
    /// followed by a combining mark (one grapheme cluster with it) still separates two pairs.
    @Test func splitsOnBytesNotGraphemeClusters() throws {
        func form(_ body: String) throws -> [String: String] {
            try HTTPRequest(method: "POST", path: "/", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                            body: Data(body.utf8)).decodeForm()
        }
        #expect(try form("a=b=c&&x&=y") == ["a": "b=c", "x": "", "": "y"])
        #expect(try form("a=1&\u{301}b=2") == ["a": "1", "\u{301}b": "2"])
        #expect(try form("") == [:])
        #expect(throws: HTTPRequestError.malformedBody("The parameter 'a' is repeated.")) { try form("a=1&a=2") }
    }

    /// Header names and media types: ASCII letters lowercased, other bytes kept; optional whitespace trimmed.
    @Test func headerNamesAndMediaTypes() {
        #expect(asciiLowercased("Content-Type") == "content-type")
        #expect(asciiLowercased("already-lower") == "already-lower")
        #expect(asciiLowercased("X-Ünïcode-ÄB") == "x-Ünïcode-Äb")
        #expect(asciiLowercased("") == "")
        #expect(trimmingOptionalWhitespace(" \t chunked\t ") == "chunked")
        #expect(trimmingOptionalWhitespace(" \t ") == "")
        #expect(trimmingOptionalWhitespace("a b") == "a b")
        let request = HTTPRequest(method: "POST", path: "/", headers: ["CONTENT-TYPE": " Application/X-WWW-Form-URLEncoded ; charset=UTF-8"])
        #expect(request.header("content-type") != nil && request.header("Content-Type") == request.header("CONTENT-type"))
        #expect(request.mediaType == "application/x-www-form-urlencoded")
        #expect(HTTPRequest(method: "POST", path: "/", headers: ["Content-Type": "text/plain"]).mediaType == "text/plain")
        #expect(HTTPRequest(method: "POST", path: "/", headers: ["Content-Type": ";x"]).mediaType == "")
        #expect(HTTPRequest(method: "POST", path: "/").mediaType == nil)
    }
}
