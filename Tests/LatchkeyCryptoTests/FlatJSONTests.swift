import Foundation
@testable import LatchkeyCrypto
import Testing

/// The JWT fast path (`FlatJSONObject`) must give exactly what `JSONDecoder` gives, and hand every document it
/// does not fully understand to `JSONDecoder`.
@Suite struct FlatJSONTests {
    static let documents: [String] = [
        #"{"iss":"https://issuer.example","sub":"user-1","aud":["app","other"],"exp":1700000900,"iat":1700000000,"jti":"j","scope":"read write","n":-42,"b":true,"z":null}"#,
        #"{"aud":"app","exp":1700000900}"#,
        #" { "iss" : "a" , "aud" : [ ] , "x" : [1, "two", false, null] } "#,
        #"{"iss":"caf\u00e9"}"#,                 // escape: decoder path
        #"{"iss":"café ✓"}"#,                     // UTF-8 without escapes: fast path
        #"{"exp":1700000900.5,"nbf":1.7e9,"iat":-1E-2}"#, // fractional NumericDates: fast path
        #"{"x":1.5,"y":[2.0]}"#,                  // a fraction outside the dates: decoder path
        #"{"x":{"nested":1}}"#,                   // nested object: decoder path
        #"{"x":[[1]]}"#,                          // nested array: decoder path
        #"{"x":9223372036854775807,"y":-9223372036854775808}"#,
        #"{"x":9223372036854775808}"#,            // beyond Int64: decoder path
        #"{"x":-0}"#,
        #"{}"#,
        #"{"iss":"a",}"#,                         // a trailing comma JSONDecoder tolerates: decoder path
    ]

    static let malformed: [String] = [
        #"{"iss":1}"#, #"{"aud":[1]}"#, #"{"exp":"soon"}"#, #"{"iss":"a"} x"#, #"["iss"]"#,
        #"{"x":01}"#, #"{"x":tru}"#, #"{"exp":1.}"#, #"{"exp":-}"#, #"{"exp":1e}"#, #"{"iss":"a""#, "", #"{"exp":null}"#,
    ]

    @Test(arguments: documents)
    func sameClaimsAsJSONDecoder(_ text: String) throws {
        let data = Data(text.utf8)
        let expected = try JSONDecoder().decode(JWTClaims.self, from: data)
        #expect(try JWTClaims(json: data) == expected)
    }

    @Test(arguments: malformed)
    func malformedStaysMalformed(_ text: String) {
        let data = Data(text.utf8)
        #expect((try? JSONDecoder().decode(JWTClaims.self, from: data)) == nil)
        #expect(throws: CryptoError.self) { try JWTClaims(json: data) }
    }

    @Test func fastPathTakesOnlySimpleShapes() {
        #expect(FlatJSONObject(Data(Self.documents[0].utf8))?.members.count == 10)
        #expect(FlatJSONObject(Data(#"{"iss":"caf\u00e9"}"#.utf8)) == nil)
        #expect(FlatJSONObject(Data(#"{"a":1,"a":2}"#.utf8)) == nil) // duplicates: the decoder path, which refuses them
        #expect(FlatJSONObject(Data(#"{"x":1.5}"#.utf8))?.members.first?.value == .number(1.5))
        #expect(FlatJSONObject(Data(#"{"x":01}"#.utf8)) == nil)
    }

    /// A repeated member name is refused (RFC 7515 §4 and RFC 7519 §4: reject it or keep the last; Foundation's decoder
    /// would keep the first), at any depth and however the name is spelled.
    @Test func repeatedMemberNamesAreRefused() {
        for text in [#"{"iss":"a","iss":"b"}"#, #"{"iss":"a","\u0069ss":"b"}"#, #"{"exp":1,"x":{"k":1,"k":2}}"#] {
            #expect(throws: CryptoError.self, "\(text)") { try JWTClaims(json: Data(text.utf8)) }
        }
        #expect(throws: CryptoError.self) { try JWSHeader(json: Data(#"{"alg":"ES256","alg":"HS256"}"#.utf8)) }
        #expect(throws: CryptoError.self) { try JWSHeader(json: Data(#"{"alg":"ES256","kid":"a","kid":"b"}"#.utf8)) }
        #expect(throws: Never.self) { try JWSHeader(json: Data(#"{"alg":"ES256","kid":"a"}"#.utf8)) }
    }

    @Test func registeredClaimsBySubscript() throws {
        let claims = try JWTClaims(json: Data(Self.documents[0].utf8))
        #expect(claims[claim: "iss"] == .string("https://issuer.example"))
        #expect(claims[claim: "exp"] == .integer(1_700_000_900))
        #expect(claims[claim: "aud"] == .array([.string("app"), .string("other")]))
        #expect(claims[claim: "scope"] == .string("read write"))
        #expect(claims[claim: "nbf"] == nil)
        #expect(claims[claim: "missing"] == nil)
    }
}
