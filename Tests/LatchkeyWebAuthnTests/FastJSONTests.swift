import Foundation
import Testing
@testable import LatchkeyWebAuthn

/// The fast paths of WebAuthn's JSON (`FastJSON` over `FlatJSONObject`) must give exactly what `JSONDecoder` gives —
/// the same value, or the same error — and leave every document they do not fully understand to `JSONDecoder`.
@Suite struct FastJSONTests {
    static let b64 = "AQIDBA" // 01 02 03 04
    static let assertionFields = #""clientDataJSON":"\#(b64)","authenticatorData":"\#(b64)","signature":"\#(b64)""#
    static let attestationFields = #""clientDataJSON":"\#(b64)","attestationObject":"\#(b64)""#

    static func assertion(_ response: String = assertionFields, extra: String = "") -> String {
        #"{"id":"\#(b64)","rawId":"\#(b64)","type":"public-key","response":{\#(response)}\#(extra)}"#
    }

    static func registration(_ response: String = attestationFields, extra: String = "") -> String {
        #"{"id":"\#(b64)","rawId":"\#(b64)","type":"public-key","response":{\#(response)}\#(extra)}"#
    }

    /// (document, whether the fast path should take it).
    static let assertions: [(String, Bool)] = [
        (assertion(), true),
        (assertion(assertionFields + #","userHandle":"\#(b64)""#,
                   extra: #","authenticatorAttachment":"platform","clientExtensionResults":{}"#), true),
        (assertion(assertionFields + #","userHandle":null"#, extra: #","authenticatorAttachment":null"#), true),
        (assertion(extra: #","clientExtensionResults":{"credProps":{"rk":true},"other":[1,"x"]}"#), true),
        (assertion(extra: #","clientExtensionResults":{"credProps":null}"#), true),
        (assertion(extra: #","clientExtensionResults":null,"unknown":42,"more":[true,null]"#), true),
        (" \n" + assertion() + "\t ", true),
        (assertion(extra: #","clientExtensionResults":{"prf":{"results":{"first":"AA"}}}"#), false), // deeper: decoder
        (assertion(extra: #","note":"caf\u00e9""#), false),   // an escape: decoder
        (assertion(extra: #","n":1.5e3"#), true),             // a number in a member neither path reads
        (assertion(extra: #","x":[[1]]"#), false),            // an array in an array: decoder
        (assertion(extra: #","x":[{"a":1}]"#), false),        // an object in an array: decoder
    ]

    static let registrations: [(String, Bool)] = [
        (registration(), true),
        (registration(attestationFields + #","transports":["internal","hybrid"],"publicKeyAlgorithm":-7,"#
                      + #""publicKey":"\#(b64)","authenticatorData":"\#(b64)""#,
                      extra: #","authenticatorAttachment":"cross-platform","clientExtensionResults":{"credProps":{"rk":false}}"#), true),
        (registration(attestationFields + #","transports":[],"publicKeyAlgorithm":null,"publicKey":null"#), true),
        (registration(attestationFields + #","publicKeyAlgorithm":-7.0"#), false), // JSONDecoder's call
        (registration(attestationFields + #","publicKeyAlgorithm":1e1"#), false),
    ]

    /// Documents that fail: each must fail through `init(json:)` exactly as through `JSONDecoder`.
    static let malformed: [String] = [
        "", "[]", "{}", #"{"id":1}"#,
        assertion(#""clientDataJSON":"\#(b64)","authenticatorData":"\#(b64)""#),        // no signature
        assertion(assertionFields + #","userHandle":"not base64url!""#),
        assertion(#""clientDataJSON":"***","authenticatorData":"\#(b64)","signature":"\#(b64)""#),
        assertion(assertionFields + #","userHandle":7"#),
        assertion(extra: #","clientExtensionResults":{"credProps":{"rk":"yes"}}"#),
        assertion(extra: #","clientExtensionResults":[]"#),
        assertion(extra: #","authenticatorAttachment":false"#),
        #"{"id":"\#(b64)","rawId":"\#(b64)","type":null,"response":{\#(assertionFields)}}"#,
        #"{"id":"\#(b64)","rawId":"\#(b64)","type":"public-key","response":"x"}"#,
        #"{"id":"\#(b64)","rawId":"\#(b64)","type":"public-key","response":{\#(assertionFields)}"#, // unterminated
        assertion() + "x",
        assertion(extra: #","rawId":"\#(b64)""#),             // a repeated member: refused on both paths
        assertion(#""clientDataJSON":"\#(b64)","authenticatorData":"\#(b64)","signature":"\#(b64)","signature":"AA""#),
    ]

    static let registrationsMalformed: [String] = [
        registration(attestationFields + #","transports":["usb",1]"#),
        registration(attestationFields + #","transports":"usb""#),
        registration(attestationFields + #","publicKeyAlgorithm":"-7""#),
        registration(attestationFields + #","publicKeyAlgorithm":99999999999999999999"#),
        registration(#""clientDataJSON":"\#(b64)""#),
        registration(extra: #","type":"public-key""#),        // a repeated member
    ]

    /// Decodes `document` both ways: whether the fast path took it, and that `init(json:)` ends as JSONDecoder does.
    static func check<T: CredentialResponseJSON & Equatable>(_ type: T.Type, _ document: String, fast: Bool,
                                                              decodes: Bool) {
        let data = Data(document.utf8)
        #expect((T.fast(data) != nil) == fast)
        let expected: Result<T, WebAuthnError>, actual: Result<T, WebAuthnError>
        do { expected = .success(try T.decoded(data)) } catch { expected = .failure(error) }
        do { actual = .success(try T(json: data)) } catch { actual = .failure(error) }
        #expect(actual == expected)
        #expect(((try? expected.get()) != nil) == decodes)
    }

    @Test(arguments: assertions)
    func assertionsAsJSONDecoderReadsThem(_ document: String, fast: Bool) {
        Self.check(AuthenticationResponse.self, document, fast: fast, decodes: true)
    }

    @Test(arguments: registrations)
    func registrationsAsJSONDecoderReadsThem(_ document: String, fast: Bool) {
        Self.check(RegistrationResponse.self, document, fast: fast, decodes: true)
    }

    @Test(arguments: malformed)
    func malformedAssertionsFailAsBefore(_ document: String) {
        Self.check(AuthenticationResponse.self, document, fast: false, decodes: false)
    }

    @Test(arguments: registrationsMalformed)
    func malformedRegistrationsFailAsBefore(_ document: String) {
        Self.check(RegistrationResponse.self, document, fast: false, decodes: false)
    }

    /// A registration document is not an assertion and the other way round, on either path.
    @Test func theOtherCeremonysDocumentIsRefused() {
        let data = Data(Self.registration().utf8)
        #expect(AuthenticationResponse.fast(data) == nil)
        #expect(throws: WebAuthnError.self) { try AuthenticationResponse(json: data) }
        #expect(throws: WebAuthnError.self) { try RegistrationResponse(json: Data(Self.assertion().utf8)) }
    }

    static let clientData: [(String, Bool)] = [
        (#"{"type":"webauthn.get","challenge":"AQID","origin":"https://example.com","crossOrigin":false}"#, true),
        (#"{"type":"webauthn.create","challenge":"AQID","origin":"https://example.com"}"#, true),
        (#"{"type":"webauthn.get","challenge":"AQID","origin":"https://a.example","crossOrigin":true,"topOrigin":"https://b.example"}"#, true),
        (#"{"type":"webauthn.get","challenge":"AQID","origin":"https://example.com","crossOrigin":null,"topOrigin":null}"#, true),
        (#"{"type":"webauthn.get","challenge":"AQID","origin":"https://example.com","other_keys_can_be_added_here":"do not compare clientDataJSON against a template. See https://goo.gl/yabPex"}"#, true),
        (#"{"type":"webauthn.get","challenge":"AQID","origin":"https:\/\/example.com"}"#, false), // an escape
        (#"{"type":"webauthn.get","challenge":"AQID","origin":"https://example.com","tokenBinding":{"status":"present"}}"#, false),
    ]

    static let clientDataMalformed: [String] = [
        #"{"type":"webauthn.get","challenge":"AQID"}"#,
        #"{"type":"webauthn.get","challenge":"AQID","origin":"https://example.com","crossOrigin":"false"}"#,
        #"{"type":"webauthn.get","challenge":"AQID","origin":"https://example.com","topOrigin":1}"#,
        #"{"type":1,"challenge":"AQID","origin":"https://example.com"}"#,
        #"{"type":"webauthn.get","challenge":null,"origin":"https://example.com"}"#,
        #"["webauthn.get"]"#, "", "{",
    ]

    @Test(arguments: clientData)
    func clientDataAsJSONDecoderReadsIt(_ document: String, fast: Bool) throws {
        let data = Data(document.utf8)
        #expect((CollectedClientData.fast(data) != nil) == fast)
        #expect(try CollectedClientData.parse(data) == CollectedClientData.decoded(data))
    }

    /// A repeated member is refused, on the fast path (which hands it over) and in the decoder's: Foundation's decoder
    /// would keep the first `origin`, most other parsers the last.
    @Test func clientDataWithARepeatedMemberIsRefused() {
        for document in [#"{"type":"webauthn.get","challenge":"AQID","origin":"https://example.com","origin":"https://evil.example"}"#,
                         #"{"type":"webauthn.get","challenge":"AQID","origin":"https://example.com","\u006frigin":"https://evil.example"}"#] {
            let data = Data(document.utf8)
            #expect(CollectedClientData.fast(data) == nil)
            #expect(throws: WebAuthnError.malformedClientData("a member name appears twice in one object")) {
                try CollectedClientData.parse(data)
            }
        }
    }

    @Test(arguments: clientDataMalformed)
    func malformedClientDataFailsAsBefore(_ document: String) {
        let data = Data(document.utf8)
        #expect(CollectedClientData.fast(data) == nil)
        #expect(throws: WebAuthnError.malformedClientData("not the expected JSON object")) { try CollectedClientData.parse(data) }
    }
}
