import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// One capture of Tests/AppAttestCaptures/captures.json (its README names the sources and their licenses).
struct AppAttestCapture: Decodable, Sendable, CustomTestStringConvertible {
    struct Attestation: Decodable, Sendable {
        var object: String
        var challenge: String
        var capturedAt: String

        enum CodingKeys: String, CodingKey {
            case object, challenge
            case capturedAt = "captured_at"
        }
    }
    struct Assertion: Decodable, Sendable {
        var object: String
        var clientData: String
        var challenge: String
        var counter: UInt32
        var capturedAt: String

        enum CodingKeys: String, CodingKey {
            case object, challenge, counter
            case clientData = "client_data"
            case capturedAt = "captured_at"
        }
    }
    var name: String
    var source: String
    var appID: String
    var environment: String
    var keyID: String
    var attestation: Attestation
    var assertion: Assertion

    var testDescription: String { name }

    enum CodingKeys: String, CodingKey {
        case name, source, environment, attestation, assertion
        case appID = "app_id"
        case keyID = "key_id"
    }

    static let all: [AppAttestCapture] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AppAttestCaptures/captures.json")
        struct File: Decodable { var captures: [AppAttestCapture] }
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else {
            return []
        }
        return file.captures
    }()

    static func bytes(_ base64: String) throws -> Data { try #require(Data(base64Encoded: base64)) }
    static func date(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return try #require(formatter.date(from: text))
    }

    var keyIDBytes: Data { get throws { try Self.bytes(keyID) } }
    var attestationObject: Data { get throws { try Self.bytes(attestation.object) } }
    var attestationClientDataHash: Data {
        get throws { AppAttestClientData.attestationHash(challenge: try Self.bytes(attestation.challenge)) }
    }
    var attestedAt: Date { get throws { try Self.date(attestation.capturedAt) } }

    /// A verifier for this capture's app and environment, over Apple's root.
    func verifier(environment: AppAttestEnvironment? = nil, appID: String? = nil,
                  roots: [Certificate] = AppAttestRoots.apple) throws -> AppAttestVerifier {
        let stated = AppAttestEnvironment(rawValue: self.environment)
        let configured = try #require(environment ?? stated)
        return AppAttestVerifier(configuration: AppAttestConfiguration(appIDs: [try AppleAppID(appID ?? self.appID)],
                                                                       environment: configured, trustAnchors: roots))
    }

    /// The attested key, verified at the capture time.
    func attestedKey() throws -> AppAttestKeyRecord {
        try verifier().verifyAttestation(try attestationObject, keyID: try keyIDBytes,
                                         clientDataHash: try attestationClientDataHash, at: try attestedAt)
    }
}

@Suite("App Attest: real iPhone captures against Apple's root", .offCooperativePool)
struct AppAttestCaptureTests {
    @Test func theCapturesAndApplesRootAreThere() throws {
        #expect(AppAttestCapture.all.count == 8)
        let root = try #require(AppAttestRoots.apple.first)
        #expect(AppAttestRoots.apple.count == 1)
        #expect(root.subjectAttribute("CN") == ["Apple App Attestation Root CA"])
        #expect(Data(SHA256.hash(data: root.derRepresentation)).hexString.uppercased()
            == "1CB9823BA28BA6AD2D33A006941DE2AE4F513EF1D4E831B9F7E0FA7B6242C932")
    }

    @Test(arguments: AppAttestCapture.all)
    func attestationVerifiesAtItsCaptureTime(_ capture: AppAttestCapture) throws {
        let key = try capture.attestedKey()
        #expect(key.keyID == (try capture.keyIDBytes))
        #expect(key.appID == capture.appID && key.environment == .development && key.counter == 0)
        #expect(!key.receipt.isEmpty)
        // The stored key is the certified one: its hash is the key identifier.
        let cose = try COSEKey(cbor: CBORDecoder(requireCanonical: false).decode(key.publicKey))
        guard case let .ec2(.es256, .p256, x, y) = cose else { Issue.record("not a P-256 key"); return }
        #expect(Data(SHA256.hash(data: Data([4]) + x + y)) == (try capture.keyIDBytes))
    }

    /// Each one-byte change of a field Apple's steps check is refused by the check that reads it.
    @Test(arguments: AppAttestCapture.all)
    func attestationMutationsAreRefusedByTheirStep(_ capture: AppAttestCapture) throws {
        let original = try capture.attestationObject
        let object = try AttestationObject(original)
        let verifier = try capture.verifier()
        let keyID = try capture.keyIDBytes, hash = try capture.attestationClientDataHash, at = try capture.attestedAt

        func step(_ data: Data, keyID: Data? = nil, clientDataHash: Data? = nil, at instant: Date? = nil,
                  verifier other: AppAttestVerifier? = nil) -> AppAttestError.Step? {
            do {
                _ = try (other ?? verifier).verifyAttestation(data, keyID: keyID ?? capture.keyIDBytes,
                                                             clientDataHash: clientDataHash ?? hash, at: instant ?? at)
                return nil
            } catch let error as AppAttestError {
                return error.step
            } catch {
                return nil
            }
        }
        /// The object with one byte of its authenticator data XOR-ed.
        func authData(flipping offset: Int) throws -> Data {
            var raw = [UInt8](object.authenticatorData.raw)
            raw[offset] ^= 0x01
            return AttestationObject(format: object.format, statement: object.statement,
                                     authenticatorData: try AuthenticatorData(Data(raw))).encoded
        }
        /// The object with one byte of x5c[index] XOR-ed, `fromEnd` bytes before its end.
        func certificate(_ index: Int, flippingByteAt position: (Data) -> Int) throws -> Data {
            var entries = try #require(object.statement[text: "x5c"]?.arrayValue)
            var der = [UInt8](try #require(entries[index].bytesValue))
            der[position(Data(der))] ^= 0x01
            entries[index] = .byteString(Data(der))
            let statement = CBOR.map(["x5c": .array(entries), "receipt": try #require(object.statement[text: "receipt"])])
            return AttestationObject(format: object.format, statement: statement, authenticatorData: object.authenticatorData).encoded
        }
        let credentialIDOffset = 37 + 16 + 2

        #expect(step(original) == nil)
        #expect(step(AttestationObject(format: "apple-appattesu", statement: object.statement,
                                       authenticatorData: object.authenticatorData).encoded) == .format)
        // Step 1: the signatures of the credential certificate and of the intermediate; the instant; the root.
        #expect(step(try certificate(0) { $0.count - 1 }) == .certificateChain)
        #expect(step(try certificate(1) { $0.count - 1 }) == .certificateChain)
        #expect(step(original, at: at.addingTimeInterval(-3 * 86_400)) == .certificateChain)
        #expect(step(original, at: at.addingTimeInterval(400 * 86_400)) == .certificateChain)
        let otherCapture = try #require(AppAttestCapture.all.first { $0.keyID != capture.keyID })
        let otherObject = try AttestationObject(try otherCapture.attestationObject)
        let otherRoot = try #require(otherObject.statement[text: "x5c"]?.arrayValue?.first?.bytesValue)
        #expect(step(original, verifier: try capture.verifier(roots: [try Certificate(derRepresentation: otherRoot)]))
            == .certificateChain)
        // Steps 2–4: the challenge, the nonce extension, and authenticator data no other check reads (flags, key).
        var otherHash = hash
        otherHash[0] ^= 0x01
        #expect(step(original, clientDataHash: otherHash) == .nonce)
        let credentialCertificate = try #require(object.statement[text: "x5c"]?.arrayValue?.first?.bytesValue)
        let parsedCredentialCertificate = try Certificate(derRepresentation: credentialCertificate)
        let nonce = try #require(parsedCredentialCertificate.extensionValue(oid: AppAttestVerifier.nonceExtensionOID))
        #expect(step(try certificate(0) { der in
            (der.range(of: nonce).map { der.distance(from: der.startIndex, to: $0.upperBound) } ?? 0) - 1
        }) == .nonce)
        #expect(step(try authData(flipping: 32)) == .nonce)
        #expect(step(try authData(flipping: credentialIDOffset + 32 + 10)) == .nonce)
        // Step 5: the key identifier.
        var otherKeyID = keyID
        otherKeyID[31] ^= 0x01
        #expect(step(original, keyID: otherKeyID) == .keyIdentifier)
        // Step 6: the RP ID hash, and an app that is not this one.
        #expect(step(try authData(flipping: 0)) == .appID)
        #expect(step(original, verifier: try capture.verifier(appID: "A1B2C3D4E5.org.latchkey.other")) == .appID)
        // Step 7: the counter.
        #expect(step(try authData(flipping: 36)) == .counter)
        // Step 8: the AAGUID, and a server configured for production.
        #expect(step(try authData(flipping: 37)) == .environment)
        #expect(step(original, verifier: try capture.verifier(environment: .production)) == .environment)
        // Step 9: the credential ID.
        #expect(step(try authData(flipping: credentialIDOffset + 5)) == .credentialID)
    }

    @Test(arguments: AppAttestCapture.all)
    func assertionVerifiesWithTheAttestedKey(_ capture: AppAttestCapture) throws {
        let key = try capture.attestedKey()
        let assertion = try AppAttestAssertion(try AppAttestCapture.bytes(capture.assertion.object))
        let clientData = try AppAttestCapture.bytes(capture.assertion.clientData)
        // The challenge is inside the client data (as its bytes, or as appattest-checker-node's JSON array of them).
        let challenge = try AppAttestCapture.bytes(capture.assertion.challenge)
        let asJSONArray = Data(("[" + challenge.map(String.init).joined(separator: ",") + "]").utf8)
        #expect(clientData.range(of: challenge) != nil || clientData.range(of: asJSONArray) != nil)
        let counter = try capture.verifier().verifyAssertion(assertion, clientData: clientData, key: key)
        #expect(counter == capture.assertion.counter)
        #expect(assertion.counter == capture.assertion.counter && assertion.authenticatorData[32] & 0x40 != 0,
                "devices set the AT flag with no credential data")
        // The parse round-trips.
        #expect(try AppAttestAssertion(assertion.encoded) == assertion)
    }

    @Test(arguments: AppAttestCapture.all)
    func assertionMutationsAreRefusedByTheirStep(_ capture: AppAttestCapture) throws {
        let key = try capture.attestedKey()
        let verifier = try capture.verifier()
        let assertion = try AppAttestAssertion(try AppAttestCapture.bytes(capture.assertion.object))
        let clientData = try AppAttestCapture.bytes(capture.assertion.clientData)
        func step(_ assertion: AppAttestAssertion, clientData data: Data? = nil, key record: AppAttestKeyRecord? = nil)
            -> AppAttestError.Step? {
            do {
                _ = try verifier.verifyAssertion(assertion, clientData: data ?? clientData, key: record ?? key)
                return nil
            } catch {
                return error.step
            }
        }
        func flipping(authenticatorData offset: Int) throws -> AppAttestAssertion {
            var raw = assertion.authenticatorData
            raw[offset] ^= 0x01
            return try AppAttestAssertion(signature: assertion.signature, authenticatorData: raw)
        }
        #expect(step(assertion) == nil)
        // Steps 1–3: the signature, the client data (so the challenge in it), the flags, a higher counter, another key.
        var signature = [UInt8](assertion.signature)
        signature[signature.count - 1] ^= 0x01
        #expect(step(try AppAttestAssertion(signature: Data(signature), authenticatorData: assertion.authenticatorData))
            == .signature)
        var otherClientData = clientData
        otherClientData[otherClientData.count - 1] ^= 0x01
        #expect(step(assertion, clientData: otherClientData) == .signature)
        #expect(step(try flipping(authenticatorData: 32)) == .signature)
        #expect(step(try flipping(authenticatorData: 35)) == .signature) // counter 1 → 257
        let otherCapture = try #require(AppAttestCapture.all.first { $0.keyID != capture.keyID })
        let other = try otherCapture.attestedKey()
        var foreignKey = key
        foreignKey.publicKey = other.publicKey
        #expect(step(assertion, key: foreignKey) == .signature)
        // Step 4: the RP ID hash, and a key attested for another app.
        #expect(step(try flipping(authenticatorData: 0)) == .appID)
        var otherApp = key
        otherApp.appID = "A1B2C3D4E5.org.latchkey.other"
        #expect(step(assertion, key: otherApp) == .appID)
        // Step 5: a counter that is not greater than the stored one (a replay, a lowered counter).
        var used = key
        used.counter = capture.assertion.counter
        #expect(step(assertion, key: used) == .counter)
        #expect(step(try flipping(authenticatorData: 36)) == .counter) // counter 1 → 0
    }
}
