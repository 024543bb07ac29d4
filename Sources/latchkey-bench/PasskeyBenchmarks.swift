import Foundation
import LatchkeyCrypto
import LatchkeyServer
import LatchkeyWebAuthn

// Passkey (WebAuthn relying party) figures, each against one raw OpenSSL signature verify of the same key type:
//  - assertion verify (ES256, RS256, EdDSA): the browser's JSON decoded, then everything the relying party checks
//    (client data JSON, type, challenge, origin, rpIdHash, flags, backup eligibility, user handle, signature, counter);
//  - registration verify (packed self-attestation, `none`): the browser's JSON decoded, client data, the attestation
//    object's CBOR, the authenticator data, the COSE key, and the packed statement's signature.
// The same bytes are measured through py_webauthn by `PyWebAuthnComparison` (make bench).

enum PasskeyBenchmarks {
    static let all: [Benchmark] = [
        assertion("passkey es256 assertion verify", baseline: "raw ES256 verify", target: 1.3) { $0.es256 },
        assertion("passkey rs256 assertion verify", baseline: "raw RS256 verify", target: nil) { $0.rs256 },
        assertion("passkey eddsa assertion verify", baseline: "raw Ed25519 verify", target: nil) { $0.edDSA },
        registration("passkey packed self-attestation registration verify") { $0.packed },
        registration("passkey none registration verify") { $0.none },
    ]

    static let measurements: [Measurement] = [
        Measurement(name: "passkey verify vs py_webauthn") { try PyWebAuthnComparison.run() },
    ]

    /// One fixture set per process, so every figure and the py_webauthn comparison see the same bytes.
    static let fixtures = Result { try PasskeyFixtures() }

    static func assertion(_ name: String, baseline: String, target: Double?,
                          _ pick: @escaping @Sendable (PasskeyFixtures) -> AssertionFixture) -> Benchmark {
        Benchmark(name: name, baselineName: baseline, unit: .operationsPerSecond, target: target) {
            let set = try fixtures.get()
            let fixture = pick(set)
            let raw = try fixture.rawVerifier()
            let subject = set.subject(fixture)
            try subject()
            return Benchmark.Pair(baseline: { guard raw.verify() else { throw BenchError.failed } }, subject: subject)
        }
    }

    static func registration(_ name: String, _ pick: @escaping @Sendable (PasskeyFixtures) -> RegistrationFixture) -> Benchmark {
        Benchmark(name: name, baselineName: "raw ES256 verify", unit: .operationsPerSecond, target: nil) {
            let set = try fixtures.get()
            let raw = try set.packed.signed.rawVerifier("packed statement")
            let subject = set.subject(pick(set))
            try subject()
            return Benchmark.Pair(baseline: { guard raw.verify() else { throw BenchError.failed } }, subject: subject)
        }
    }
}

/// A signature in a fixture, for the raw baseline: the signed bytes, the signature, the key as SubjectPublicKeyInfo DER
/// and the OpenSSL digest name of its algorithm (nil: EdDSA).
struct SignedBytes: Sendable {
    let data: Data
    let signature: Data
    let spki: Data
    var digest: String? = "SHA2-256"

    func rawVerifier(_ what: String) throws -> RawVerifier {
        let raw = try RawVerifier(spki: spki, signature: signature, message: data, digest: digest)
        guard raw.verify() else { throw BenchError.setUp("raw verify of the \(what) failed") }
        return raw
    }
}

/// A sign-in as a browser posts it (`credential.toJSON()` after `navigator.credentials.get()`), with the record the
/// relying party keeps for the credential; `signed`: authenticatorData ‖ SHA-256(clientDataJSON) and its signature.
struct AssertionFixture: Sendable {
    let name: String
    let json: Data
    let challenge: Data
    let credential: StoredCredential
    let signed: SignedBytes

    func rawVerifier() throws -> RawVerifier { try signed.rawVerifier("\(name) assertion") }
}

/// A registration as a browser posts it (`credential.toJSON()` after `navigator.credentials.create()`); `signed`: the
/// packed statement's signature (for the `none` registration too, which signs nothing: its baseline is that verify).
struct RegistrationFixture: Sendable {
    let name: String
    let json: Data
    let challenge: Data
    let userHandle: Data
    let signed: SignedBytes
}

/// Passkeys of three key types signing in to `example.com`, and two registrations, made the way authenticators and
/// browsers make them: synced passkeys (flags UP, UV, BE, BS; counter 0), 32-byte credential ids, 64-byte user handles.
struct PasskeyFixtures: Sendable {
    static let relyingPartyID = "example.com"
    static let origin = "https://example.com"

    let relyingParty: WebAuthnRelyingParty
    let es256: AssertionFixture
    let rs256: AssertionFixture
    let edDSA: AssertionFixture
    let packed: RegistrationFixture
    let none: RegistrationFixture

    init() throws {
        // What the server's passkey endpoints use: user verification required, statements verified.
        relyingParty = try WebAuthnRelyingParty(configuration: WebAuthnConfiguration(
            relyingPartyID: Self.relyingPartyID, relyingPartyName: "Example", allowedOrigins: [Self.origin],
            userVerification: .required, attestation: .direct))

        let p256 = P256.Signing.PrivateKey()
        let point = p256.publicKey.rawRepresentation
        es256 = try Self.assertion(
            name: "es256", key: .ec2(algorithm: .es256, curve: .p256, x: point.prefix(32), y: point.suffix(32)),
            spki: p256.publicKey.derRepresentation, digest: "SHA2-256") { try p256.signature(for: $0).derRepresentation }

        let rsa = try RSA.Signing.PrivateKey(keySize: 2048)
        rs256 = try Self.assertion(
            name: "rs256", key: .rsa(algorithm: .rs256, modulus: rsa.publicKey.modulus, exponent: rsa.publicKey.exponent),
            spki: rsa.publicKey.derRepresentation, digest: "SHA2-256") {
            try rsa.signature(for: $0, padding: .pkcs1v15, hash: .sha256)
        }

        let ed25519 = Curve25519.Signing.PrivateKey()
        edDSA = try Self.assertion(
            name: "eddsa", key: .okp(algorithm: .edDSA, curve: .ed25519, x: ed25519.publicKey.rawRepresentation),
            spki: try Ed25519SubjectPublicKeyInfo.der(rawKey: ed25519.publicKey.rawRepresentation), digest: nil) {
            try ed25519.signature(for: $0)
        }

        let credentialKey = P256.Signing.PrivateKey()
        let credentialPoint = credentialKey.publicKey.rawRepresentation
        let cose = COSEKey.ec2(algorithm: .es256, curve: .p256, x: credentialPoint.prefix(32), y: credentialPoint.suffix(32))
        packed = try Self.registration(name: "packed", cose: cose, spki: credentialKey.publicKey.derRepresentation) {
            authData, clientDataHash in
            let signature = try credentialKey.signature(for: authData + clientDataHash).derRepresentation
            return ("packed", .map(["alg": .int(Int64(COSEAlgorithm.es256.rawValue)), "sig": .byteString(signature)]),
                    signature)
        }
        none = try Self.registration(name: "none", cose: cose, spki: credentialKey.publicKey.derRepresentation) { _, _ in
            ("none", .map([]), Data())
        }
    }

    /// The figure's subject: decode the browser's JSON, verify it.
    func subject(_ fixture: AssertionFixture) -> @Sendable () throws -> Void {
        let relyingParty = relyingParty
        return {
            let response = try AuthenticationResponse(json: fixture.json)
            _ = try relyingParty.verifiedAssertion(response, expectedChallenge: fixture.challenge,
                                                   credential: fixture.credential)
        }
    }

    func subject(_ fixture: RegistrationFixture) -> @Sendable () throws -> Void {
        let relyingParty = relyingParty
        return {
            let response = try RegistrationResponse(json: fixture.json)
            _ = try relyingParty.verifiedRegistration(response, expectedChallenge: fixture.challenge,
                                                      userHandle: fixture.userHandle)
        }
    }

    /// `{"type":…,"challenge":…,"origin":…,"crossOrigin":false}`, member for member as Chromium writes it.
    static func clientDataJSON(type: String, challenge: Data) -> Data {
        Data(#"{"type":"\#(type)","challenge":"\#(challenge.base64URLEncodedString())","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    static func encodedJSON(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// rpIdHash ‖ flags ‖ signCount 0: UP (0x01), UV (0x04), BE (0x08), BS (0x10), plus `extraFlags`.
    static func authenticatorData(extraFlags: UInt8 = 0) -> Data {
        Data(SHA256.hash(data: Data(relyingPartyID.utf8))) + [0x1d | extraFlags, 0, 0, 0, 0]
    }

    static func assertion(name: String, key: COSEKey, spki: Data, digest: String?,
                          sign: (Data) throws -> Data) throws -> AssertionFixture {
        let credentialID = SecureRandom.bytes(count: 32), userHandle = WebAuthnRelyingParty.makeUserHandle()
        let challenge = WebAuthnRelyingParty.makeChallenge()
        let clientData = clientDataJSON(type: "webauthn.get", challenge: challenge)
        let authData = authenticatorData()
        let signed = authData + SHA256.hash(data: clientData)
        let signature = try sign(signed)
        let response = AuthenticationResponse(rawId: credentialID, response: AuthenticatorAssertionResponse(
            clientDataJSON: clientData, authenticatorData: authData, signature: signature, userHandle: userHandle),
            authenticatorAttachment: "platform")
        let credential = try StoredCredential(id: credentialID, userHandle: userHandle, publicKey: key.encoded,
                                              backupEligible: true, backupState: true, transports: ["internal", "hybrid"],
                                              userVerifiedAtRegistration: true, relyingPartyID: relyingPartyID)
        return AssertionFixture(name: name, json: try encodedJSON(response), challenge: challenge, credential: credential,
                                signed: SignedBytes(data: signed, signature: signature, spki: spki, digest: digest))
    }

    static func registration(name: String, cose: COSEKey, spki: Data,
                             statement: (_ authData: Data, _ clientDataHash: Data) throws -> (String, CBOR, Data))
        throws -> RegistrationFixture {
        let credentialID = SecureRandom.bytes(count: 32), userHandle = WebAuthnRelyingParty.makeUserHandle()
        let challenge = WebAuthnRelyingParty.makeChallenge()
        let clientData = clientDataJSON(type: "webauthn.create", challenge: challenge)
        var authData = authenticatorData(extraFlags: 0x40) // AT: attested credential data follows
        authData += Data(count: 16) // AAGUID
        authData += [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)]
        authData += credentialID
        authData += cose.encoded
        let clientDataHash = Data(SHA256.hash(data: clientData))
        let (format, attStmt, signature) = try statement(authData, clientDataHash)
        let object = CBOR.map(["fmt": .textString(format), "attStmt": attStmt, "authData": .byteString(authData)]).encoded
        let response = RegistrationResponse(rawId: credentialID, response: AuthenticatorAttestationResponse(
            clientDataJSON: clientData, attestationObject: object, transports: ["internal", "hybrid"]),
            authenticatorAttachment: "platform")
        return RegistrationFixture(name: name, json: try encodedJSON(response), challenge: challenge, userHandle: userHandle,
                                   signed: SignedBytes(data: authData + clientDataHash, signature: signature, spki: spki))
    }
}
