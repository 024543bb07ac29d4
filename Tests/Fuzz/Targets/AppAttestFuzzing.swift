import Foundation
import LatchkeyCrypto
import LatchkeyServer
import LatchkeyWebAuthn

/// App Attest: the first byte chooses (mod 3): 0 → the rest is an attestation object, verified as the server verifies
/// one (Apple's root, the development environment, the app of the real captures in the seeds, at their capture time,
/// with the key identifier the object names); 1 → an assertion, verified with a fixed software key; 2 → an
/// `X-App-Attest-Assertion` header value. Properties: an accepted attestation stores a P-256 key whose SHA-256 is the key
/// identifier, with counter 0; a parsed assertion re-encodes to one that parses the same, and one that verifies has a
/// counter above the stored one; a parsed header re-reads the same from its own spelling.
enum AppAttestFuzzing {
    static let appID = "6MURL8TA57.de.vincent-haupert.apple-appattest-poc"
    /// The instant of the iOS 14.4 capture (Tests/AppAttestCaptures), when its certificates were valid.
    static let instant = Date(timeIntervalSince1970: 1_611_404_013)
    static let configuration = AppAttestConfiguration(appIDs: (try? AppleAppID(appID)).map { [$0] } ?? [],
                                                      environment: .development)
    static let clientDataHash = AppAttestClientData.attestationHash(challenge: Data("wurzelpfropf".utf8))
    /// The software key assertions are checked against (the seeds' assertions are its).
    static let key = P256.Signing.PrivateKey.fuzzingKey
    static let keyRecord: AppAttestKeyRecord = {
        let point = key.publicKey.x963Representation
        return AppAttestKeyRecord(keyID: Data(SHA256.hash(data: point)), appID: appID, environment: .development,
                                  publicKey: COSEKey.ec2(algorithm: .es256, curve: .p256, x: point[1..<33],
                                                         y: point[33..<65]).encoded,
                                  counter: 1, receipt: Data(), createdAt: 0)
    }()
    static let clientData = AppAttestClientData.request(method: "POST", path: "/v1/token", body: Data("a=b".utf8),
                                                        challenge: Data(repeating: 1, count: 32))

    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        guard let mode = data.first else { return }
        let body = Data(data.dropFirst())
        // A verifier per input: its key cache must not carry one input's keys into the next (an input's outcome would
        // depend on the inputs before it, and LeakSanitizer reads the cached keys as leaks, as it did the relying
        // party's: the first 10 s run of this target ended in such a report).
        let verifier = AppAttestVerifier(configuration: configuration)
        switch mode % 3 {
        case 0:
            let keyID = (try? AttestationObject(body))?.authenticatorData.attestedCredential?.credentialID ?? Data()
            guard let record = try? verifier.verifyAttestation(body, keyID: keyID, clientDataHash: clientDataHash,
                                                               at: instant) else { return }
            let cose = try? COSEKey(cbor: CBORDecoder(requireCanonical: false).decode(record.publicKey))
            guard case let .ec2(.es256, .p256, x, y)? = cose else {
                throw FuzzPropertyViolation(.appAttest, "an accepted attestation stores no P-256 key")
            }
            try require(Data(SHA256.hash(data: Data([4]) + x + y)) == record.keyID && record.counter == 0, .appAttest,
                        "an accepted attestation's key is not its key identifier's, or its counter is not 0")
        case 1:
            guard let assertion = try? AppAttestAssertion(body) else { return }
            let again = try? AppAttestAssertion(assertion.encoded)
            try require(again == assertion, .appAttest, "encode → parse gives another assertion")
            if let counter = try? verifier.verifyAssertion(assertion, clientData: clientData, key: keyRecord) {
                try require(counter > keyRecord.counter && counter == assertion.counter, .appAttest,
                            "a verified assertion's counter is not above the stored one")
            }
        default:
            guard let header = try? AppAttestRequestAssertion(headerValue: String(decoding: body, as: UTF8.self)) else { return }
            let again = try? AppAttestRequestAssertion(headerValue: header.headerValue)
            try require(again == header, .appAttest, "a header re-read from its own spelling differs")
        }
    }

    /// An attestation object in App Attest's layout (its x5c not a chain), assertions of the fixed key, headers.
    static func seeds() -> [Data] {
        let point = key.publicKey.x963Representation
        let keyID = Data(SHA256.hash(data: point))
        var authData = Data(SHA256.hash(data: Data(appID.utf8)))
        authData.append(0x40)
        authData += [0, 0, 0, 0]
        authData += AppAttestEnvironment.development.aaguid + [0x00, 0x20] + keyID
        authData += COSEKey.ec2(algorithm: .es256, curve: .p256, x: point[1..<33], y: point[33..<65]).encoded
        let attestation = CBOR.map(["fmt": "apple-appattest",
                                    "attStmt": .map(["x5c": .array([.byteString(Data([0x30, 0x00]))]),
                                                     "receipt": .byteString(Data([1, 2, 3]))]),
                                    "authData": .byteString(authData)]).encoded
        var seeds = [Data([0]) + attestation]
        for counter: UInt8 in [2, 0] {
            var assertionData = Data(SHA256.hash(data: Data(appID.utf8)))
            assertionData += [0x40, 0, 0, 0, counter]
            let nonce = Data(AppAttestAssertion.nonce(authenticatorData: assertionData,
                                                      clientDataHash: Data(SHA256.hash(data: clientData))))
            guard let signature = try? key.signature(for: nonce).derRepresentation,
                  let assertion = try? AppAttestAssertion(signature: signature, authenticatorData: assertionData) else { continue }
            seeds.append(Data([1]) + assertion.encoded)
            let header = AppAttestRequestAssertion(keyID: keyID, challenge: Data(repeating: 1, count: 32),
                                                   assertion: assertion.encoded)
            seeds.append(Data([2]) + Data(header.headerValue.utf8))
        }
        return seeds
    }
}

extension P256.Signing.PrivateKey {
    /// A fixed key, so that seeds written once keep verifying (its scalar is public: this is test data).
    static var fuzzingKey: P256.Signing.PrivateKey {
        (try? P256.Signing.PrivateKey(rawRepresentation: Data(repeating: 0x11, count: 32))) ?? P256.Signing.PrivateKey()
    }
}
