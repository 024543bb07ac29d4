import COpenSSL
import Foundation
import LatchkeyCrypto
import LatchkeyServer
import LatchkeyWebAuthn

// App Attest figures, each beside its raw floor:
//  - assertion verify: what the server does in memory with a request's X-App-Attest-Assertion — the header and the
//    assertion's CBOR read, the request's client data built (method, path, SHA-256 of the body, challenge), the app ID
//    hash and the counter checked, the nonce hashed and the ES256 signature verified with the attested key (kept ready
//    by the verifier's key cache, as in the server) — against one raw ES256 verify of the same signature (OpenSSL,
//    key decoded once). The database's part (key lookup, guarded counter update, challenge) is not in it.
//  - attestation verify: a real iPhone's attestation (Tests/AppAttestCaptures, iOS 14.4) verified at its capture time
//    against Apple's App Attestation Root CA — CBOR, authenticator data, both certificates parsed, key identifier, app
//    ID, counter, AAGUID, credential ID, nonce extension, chain — against the chain verification alone (OpenSSL's
//    X509_verify_cert over the same certificates, parsed and stored once).

enum AppAttestBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "app attest assertion verify", baselineName: "raw ES256 verify", unit: .operationsPerSecond,
                  target: 1.3) {
            let fixture = try AssertionFixture()
            let raw = try RawVerifier(spki: fixture.spki, signature: fixture.signature, message: fixture.nonce)
            guard raw.verify() else { throw BenchError.setUp("raw verify of the assertion") }
            try fixture.verify()
            return Benchmark.Pair(baseline: { guard raw.verify() else { throw BenchError.failed } },
                                  subject: { try fixture.verify() })
        },
        Benchmark(name: "app attest attestation verify", baselineName: "raw chain verify", unit: .operationsPerSecond,
                  target: nil) {
            let fixture = try AttestationFixture()
            let raw = try RawChainVerifier(chain: fixture.chain, root: AppAttestRoots.applePEM, at: fixture.capturedAt)
            guard raw.verify() else { throw BenchError.setUp("raw chain verify of the capture") }
            try fixture.verify()
            return Benchmark.Pair(baseline: { guard raw.verify() else { throw BenchError.failed } },
                                  subject: { try fixture.verify() })
        },
    ]

    static let appID = "A1B2C3D4E5.org.latchkey.bench"

    /// A token refresh with an assertion by a software key in App Attest's layout, and the key as the server stores it.
    struct AssertionFixture: Sendable {
        let verifier: AppAttestVerifier
        let key: AppAttestKeyRecord
        let header: String
        let body = Data("grant_type=refresh_token&refresh_token=QmVuY2htYXJrIHJlZnJlc2ggdG9rZW4gb2YgMzIgYnl0ZXM".utf8)
        let spki: Data
        let signature: Data
        let nonce: Data

        init() throws {
            let privateKey = P256.Signing.PrivateKey()
            let point = privateKey.publicKey.x963Representation
            let keyID = Data(SHA256.hash(data: point))
            key = AppAttestKeyRecord(keyID: keyID, appID: AppAttestBenchmarks.appID, environment: .development,
                                     publicKey: COSEKey.ec2(algorithm: .es256, curve: .p256, x: point[1..<33],
                                                            y: point[33..<65]).encoded,
                                     counter: 41, receipt: Data(), createdAt: 0)
            verifier = AppAttestVerifier(configuration: AppAttestConfiguration(
                appIDs: [try AppleAppID(AppAttestBenchmarks.appID)], environment: .development))
            let challenge = Data(repeating: 0x5a, count: 32)
            var authData = Data(SHA256.hash(data: Data(AppAttestBenchmarks.appID.utf8)))
            authData += [0x40, 0, 0, 0, 42]
            let clientDataHash = AppAttestClientData.requestHash(method: "POST", path: "/v1/token", body: body,
                                                                 challenge: challenge)
            nonce = Data(AppAttestAssertion.nonce(authenticatorData: authData, clientDataHash: clientDataHash))
            signature = try privateKey.signature(for: nonce).derRepresentation
            let assertion = try AppAttestAssertion(signature: signature, authenticatorData: authData)
            header = AppAttestRequestAssertion(keyID: keyID, challenge: challenge, assertion: assertion.encoded).headerValue
            spki = privateKey.publicKey.derRepresentation
        }

        func verify() throws {
            let parsed = try AppAttestRequestAssertion(headerValue: header)
            let assertion = try AppAttestAssertion(parsed.assertion)
            let clientData = AppAttestClientData.request(method: "POST", path: "/v1/token", body: body,
                                                         challenge: parsed.challenge)
            guard try verifier.verifyAssertion(assertion, clientData: clientData, key: key) == 42 else { throw BenchError.failed }
        }
    }

    /// The iOS 14.4 capture of veehaitch/devicecheck-appattest (see Tests/AppAttestCaptures/README.md).
    struct AttestationFixture: Sendable {
        let verifier: AppAttestVerifier
        let object: Data
        let keyID: Data
        let clientDataHash: Data
        let capturedAt: Date
        let chain: [Data]

        init() throws {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Tests/AppAttestCaptures/captures.json")
            guard let data = try? Data(contentsOf: url),
                  let file = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let captures = file["captures"] as? [[String: Any]],
                  let capture = captures.first(where: { $0["name"] as? String == "iOS 14.4" }),
                  let appID = capture["app_id"] as? String,
                  let keyID = (capture["key_id"] as? String).flatMap({ Data(base64Encoded: $0) }),
                  let attestation = capture["attestation"] as? [String: Any],
                  let object = (attestation["object"] as? String).flatMap({ Data(base64Encoded: $0) }),
                  let challenge = (attestation["challenge"] as? String).flatMap({ Data(base64Encoded: $0) }),
                  let time = attestation["captured_at"] as? String,
                  let capturedAt = try? Date(time, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true))
            else { throw BenchError.setUp("cannot read \(url.path) (run from a checkout)") }
            verifier = AppAttestVerifier(configuration: AppAttestConfiguration(appIDs: [try AppleAppID(appID)],
                                                                               environment: .development))
            self.object = object
            self.keyID = keyID
            clientDataHash = AppAttestClientData.attestationHash(challenge: challenge)
            self.capturedAt = capturedAt
            let parsed = try AttestationObject(object)
            chain = parsed.statement[text: "x5c"]?.arrayValue?.compactMap(\.bytesValue) ?? []
        }

        func verify() throws {
            _ = try verifier.verifyAttestation(object, keyID: keyID, clientDataHash: clientDataHash, at: capturedAt)
        }
    }
}

/// A certificate chain verified straight through OpenSSL: the certificates decoded (d2i_X509) and the root put in an
/// X509_STORE once, then per call X509_STORE_CTX_new + init with the intermediates + the verification time +
/// X509_verify_cert + free.
// @unchecked Sendable: the X509 objects and the store are never mutated after setUp; each call has its own context.
final class RawChainVerifier: @unchecked Sendable {
    let leaf: OpaquePointer
    let intermediates: OpaquePointer
    let store: OpaquePointer
    let time: time_t
    private var owned: [OpaquePointer] = []

    init(chain: [Data], root pem: String, at date: Date) throws {
        func decode(_ der: Data) throws -> OpaquePointer {
            let bytes = [UInt8](der)
            let made: OpaquePointer? = bytes.withUnsafeBufferPointer { buf in
                var p: UnsafePointer<UInt8>? = buf.baseAddress
                return d2i_X509(nil, &p, buf.count)
            }
            guard let made else { throw BenchError.setUp("d2i_X509") }
            return made
        }
        guard chain.count >= 2, let rootDER = try? Certificate(pem: pem).derRepresentation,
              let store = X509_STORE_new(), let stack = OPENSSL_sk_new_null() else { throw BenchError.setUp("chain") }
        self.store = store
        intermediates = stack
        leaf = try decode(chain[0])
        owned.append(leaf)
        for der in chain.dropFirst() {
            let certificate = try decode(der)
            owned.append(certificate)
            OPENSSL_sk_push(stack, UnsafeRawPointer(certificate))
        }
        let root = try decode(rootDER)
        owned.append(root)
        guard X509_STORE_add_cert(store, root) == 1 else { throw BenchError.setUp("X509_STORE_add_cert") }
        time = time_t(date.timeIntervalSince1970)
    }

    deinit {
        OPENSSL_sk_free(intermediates)
        X509_STORE_free(store)
        for certificate in owned { X509_free(certificate) }
    }

    func verify() -> Bool {
        guard let ctx = X509_STORE_CTX_new() else { return false }
        defer { X509_STORE_CTX_free(ctx) }
        guard X509_STORE_CTX_init(ctx, store, leaf, intermediates) == 1 else { return false }
        X509_STORE_CTX_set_time(ctx, 0, time)
        let ok = X509_verify_cert(ctx) == 1
        ERR_clear_error()
        return ok
    }
}
