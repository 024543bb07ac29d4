import Foundation
import LatchkeyCrypto
import LatchkeyWebAuthn

/// `clientDataJSON`. Property: a challenge that decodes as base64url is in its one canonical spelling
/// (the relying party compares challenges; two spellings of the same bytes must not both be accepted).
enum ClientDataFuzzing {
    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        guard let clientData = try? CollectedClientData.parse(data) else { return }
        if let challenge = clientData.challengeBytes {
            try require(challenge.base64URLEncodedString() == clientData.challenge, .clientData,
                        "a non-canonical base64url challenge decodes")
        }
    }

    static func seeds() -> [Data] {
        let challenge = Data((0..<32).map { UInt8($0) }).base64URLEncodedString()
        return [
            #"{"type":"webauthn.create","challenge":"\#(challenge)","origin":"https://example.com","crossOrigin":false}"#,
            #"{"type":"webauthn.get","challenge":"\#(challenge)","origin":"https://example.com","crossOrigin":true,"topOrigin":"https://top.example"}"#,
            #"{"challenge":"AAEC","origin":"http://localhost:8080","type":"webauthn.get","other_keys_can_be_added_here":"do not compare clientDataJSON against a template"}"#,
        ].map { Data($0.utf8) }
    }
}
