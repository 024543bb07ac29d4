import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

@Suite(.offCooperativePool) struct WebAuthnRelyingPartyTests {
    // MARK: Options

    @Test func registrationOptionsFollowTheConfiguration() async throws {
        let f = try PasskeyFixture()
        let options = try await f.rp.registrationOptions(user: PasskeyFixture.user)
        #expect(options.challenge.data.count == 32)
        #expect(options.rp.id == "localhost")
        #expect(options.authenticatorSelection?.userVerification == .preferred)
        #expect(options.authenticatorSelection?.residentKey == .required)
        #expect(options.pubKeyCredParams.map(\.alg).contains(-7))
        let other = try await f.rp.registrationOptions(user: PasskeyFixture.user)
        #expect(other.challenge != options.challenge)
        // The JSON is what PublicKeyCredential.parseCreationOptionsFromJSON expects.
        let json = try #require(String(data: try JSONEncoder().encode(options), encoding: .utf8))
        #expect(json.contains(#""challenge":""#) && json.contains(#""pubKeyCredParams""#))
        #expect(WebAuthnRelyingParty.makeUserHandle().count == 64)
    }

    // MARK: Happy path

    @Test func registersAndAuthenticates() async throws {
        let f = try PasskeyFixture()
        let stored = try await f.register()
        #expect(stored.userHandle == PasskeyFixture.user.id.data)
        #expect(stored.attestationFormat == "none" && stored.attestationTrust == .none)
        #expect(stored.userVerifiedAtRegistration)
        let result = try await f.verify(try await f.assertionResponse())
        #expect(result.userVerified)
        #expect(result.credential.signCount == 1)
        let again = try await f.verify(try await f.assertionResponse())
        #expect(again.credential.signCount == 2)
    }

    // MARK: Client data checks

    @Test func rejectsWrongOrigin() async throws {
        let f = try PasskeyFixture()
        let options = try await f.rp.registrationOptions(user: PasskeyFixture.user)
        let response = try f.authenticator.register(options, origin: "http://evil.localhost:8080")
        await #expect(throws: WebAuthnError.originNotAllowed("http://evil.localhost:8080")) {
            try await f.rp.verifyRegistration(response)
        }
    }

    @Test func rejectsWrongRelyingPartyID() async throws {
        let f = try PasskeyFixture()
        var options = try await f.rp.registrationOptions(user: PasskeyFixture.user)
        options.rp.id = "example.com"
        let response = try f.authenticator.register(options, origin: PasskeyFixture.origin)
        await #expect(throws: WebAuthnError.rpIDHashMismatch) { try await f.rp.verifyRegistration(response) }
    }

    @Test func rejectsReplayedChallenge() async throws {
        let f = try PasskeyFixture()
        let response = try await f.registrationResponse()
        let stored = try await f.rp.verifyRegistration(response)
        f.credentials.withLock { $0[stored.id] = stored }
        await #expect(throws: WebAuthnError.unknownChallenge) { try await f.rp.verifyRegistration(response) }

        let assertion = try await f.assertionResponse()
        _ = try await f.verify(assertion)
        await #expect(throws: WebAuthnError.unknownChallenge) { try await f.verify(assertion) }
    }

    @Test func rejectsExpiredChallenge() async throws {
        let f = try PasskeyFixture()
        let response = try await f.registrationResponse()
        f.clock.advance(301)
        await #expect(throws: WebAuthnError.expiredChallenge) { try await f.rp.verifyRegistration(response) }
    }

    @Test func rejectsChallengeNeverIssuedOrFromTheOtherCeremony() async throws {
        let f = try PasskeyFixture()
        // An authentication challenge used for a registration.
        let auth = try await f.rp.authenticationOptions()
        var options = try await f.rp.registrationOptions(user: PasskeyFixture.user)
        options.challenge = auth.challenge
        let response = try f.authenticator.register(options, origin: PasskeyFixture.origin)
        await #expect(throws: WebAuthnError.unknownChallenge) { try await f.rp.verifyRegistration(response) }
        // A challenge the server never issued.
        options.challenge = Base64URLBytes(SecureRandom.bytes(count: 32))
        let forged = try f.authenticator.register(options, origin: PasskeyFixture.origin)
        await #expect(throws: WebAuthnError.unknownChallenge) { try await f.rp.verifyRegistration(forged) }
    }

    @Test func rejectsWrongCeremonyType() async throws {
        let f = try PasskeyFixture()
        try await f.register()
        var assertion = try await f.assertionResponse()
        let json = String(decoding: assertion.response.clientDataJSON.data, as: UTF8.self)
            .replacingOccurrences(of: "webauthn.get", with: "webauthn.create")
        assertion.response.clientDataJSON = Base64URLBytes(Data(json.utf8))
        await #expect(throws: WebAuthnError.wrongCeremonyType(expected: "webauthn.get", actual: "webauthn.create")) {
            try await f.verify(assertion)
        }
    }

    @Test func rejectsCrossOriginUnlessAllowed() async throws {
        let f = try PasskeyFixture()
        f.authenticator.behaviour.crossOrigin = true
        f.authenticator.behaviour.topOrigin = "https://embedder.example"
        let response = try await f.registrationResponse()
        await #expect(throws: WebAuthnError.crossOriginNotAllowed) { try await f.rp.verifyRegistration(response) }

        let g = try PasskeyFixture { $0.allowCrossOrigin = true; $0.allowedTopOrigins = ["https://embedder.example"] }
        g.authenticator.behaviour.crossOrigin = true
        g.authenticator.behaviour.topOrigin = "https://embedder.example"
        _ = try await g.register()
        g.authenticator.behaviour.topOrigin = "https://other.example"
        await #expect(throws: WebAuthnError.topOriginNotAllowed("https://other.example")) {
            try await g.verify(try await g.assertionResponse())
        }
    }

    // MARK: Authenticator data checks

    @Test func rejectsMissingUserPresence() async throws {
        let f = try PasskeyFixture()
        f.authenticator.behaviour.userPresent = false
        let response = try await f.registrationResponse()
        await #expect(throws: WebAuthnError.userPresenceMissing) { try await f.rp.verifyRegistration(response) }
    }

    @Test func conditionalRegistrationMayLackUserPresence() async throws {
        let f = try PasskeyFixture { $0.allowConditionalRegistration = true }
        f.authenticator.behaviour.userPresent = false
        let stored = try await f.register()
        await #expect(throws: WebAuthnError.userPresenceMissing) { try await f.verify(try await f.assertionResponse()) }
        #expect(stored.signCount == 0)
    }

    @Test func rejectsMissingUserVerificationWhenRequired() async throws {
        let f = try PasskeyFixture { $0.userVerification = .required }
        f.authenticator.behaviour.userVerified = false
        let response = try await f.registrationResponse()
        await #expect(throws: WebAuthnError.userVerificationMissing) { try await f.rp.verifyRegistration(response) }

        // `.preferred` is the default (WebAuthn's and the browsers'): the flag is reported, not required.
        let g = try PasskeyFixture()
        #expect(g.rp.configuration.userVerification == .preferred)
        g.authenticator.behaviour.userVerified = false
        try await g.register()
        let result = try await g.verify(try await g.assertionResponse())
        #expect(!result.userVerified)
    }

    @Test func rejectsBackupStateWithoutEligibilityAndEligibilityChanges() async throws {
        let f = try PasskeyFixture()
        f.authenticator.behaviour.backedUp = true
        await #expect(throws: WebAuthnError.backupStateWithoutEligibility) {
            try await f.rp.verifyRegistration(try await f.registrationResponse())
        }
        f.authenticator.behaviour.backedUp = false
        try await f.register()
        f.authenticator.behaviour.backupEligible = true
        await #expect(throws: WebAuthnError.backupEligibilityChanged) { try await f.verify(try await f.assertionResponse()) }
        // BS may change while BE stays: the stored record follows it.
        let g = try PasskeyFixture()
        g.authenticator.behaviour.backupEligible = true
        try await g.register()
        g.authenticator.behaviour.backedUp = true
        let result = try await g.verify(try await g.assertionResponse())
        #expect(result.credential.backupState && result.credential.backupEligible)
    }

    // MARK: Signatures and counters

    @Test func rejectsBadSignature() async throws {
        let f = try PasskeyFixture()
        try await f.register()
        var assertion = try await f.assertionResponse()
        var sig = assertion.response.signature.data
        sig.flipBit(at: sig.count - 1)
        assertion.response.signature = Base64URLBytes(sig)
        await #expect(throws: WebAuthnError.signatureInvalid) { try await f.verify(assertion) }

        var tampered = try await f.assertionResponse()
        var authData = tampered.response.authenticatorData.data
        authData[33] ^= 0x80 // the sign count is covered by the signature
        tampered.response.authenticatorData = Base64URLBytes(authData)
        await #expect(throws: (any Error).self) { try await f.verify(tampered) }
    }

    @Test func detectsSignCountRollback() async throws {
        let f = try PasskeyFixture()
        try await f.register()
        _ = try await f.verify(try await f.assertionResponse())
        f.authenticator.behaviour.signCountIncrement = 0
        await #expect(throws: WebAuthnError.signCountRollback(stored: 1, received: 1)) {
            try await f.verify(try await f.assertionResponse())
        }
    }

    @Test func authenticatorsWithoutCounterAreAccepted() async throws {
        let f = try PasskeyFixture()
        f.authenticator.behaviour.signCountIncrement = 0
        try await f.register()
        let result = try await f.verify(try await f.assertionResponse())
        #expect(result.credential.signCount == 0)
        _ = try await f.verify(try await f.assertionResponse())
    }

    @Test func checksUserHandleAndCredential() async throws {
        let f = try PasskeyFixture()
        try await f.register()
        var assertion = try await f.assertionResponse()
        assertion.response.userHandle = Base64URLBytes(Data(repeating: 9, count: 16))
        await #expect(throws: WebAuthnError.userHandleMismatch) { try await f.verify(assertion) }

        var anonymous = try await f.assertionResponse()
        anonymous.response.userHandle = nil
        await #expect(throws: WebAuthnError.userHandleMissing) { try await f.verify(anonymous) }
        // When the options named the user's credentials, the user handle may be absent.
        let named = try await f.rp.authenticationOptions(allowCredentials: Array(f.credentials.withLock { $0.values }))
        var identified = try f.authenticator.authenticate(named, origin: PasskeyFixture.origin)
        identified.response.userHandle = nil
        let table = f.credentials.withLock { $0 }
        let result = try await f.rp.verifyAuthentication(identified, allowedCredentialIDs: Set(table.keys)) { table[$0] }
        #expect(result.credential.signCount > 0)

        let unknown = try await f.assertionResponse()
        await #expect(throws: WebAuthnError.unknownCredential) {
            try await f.rp.verifyAuthentication(unknown) { _ in nil }
        }
        let other = try await f.assertionResponse()
        await #expect(throws: WebAuthnError.unknownCredential) {
            try await f.rp.verifyAuthentication(other, allowedCredentialIDs: [Data([1, 2, 3])]) { _ in nil }
        }
    }

    @Test func rejectsDuplicateRegistration() async throws {
        let f = try PasskeyFixture()
        let response = try await f.registrationResponse()
        await #expect(throws: WebAuthnError.credentialAlreadyRegistered) {
            try await f.rp.verifyRegistration(response) { _ in true }
        }
    }

    // MARK: Attestation objects

    /// Rebuilds a registration with a hand-made attestation object over a fresh challenge.
    func handMade(_ f: PasskeyFixture, build: (_ authData: Data, _ clientDataHash: Data) throws -> Data) async throws
        -> RegistrationResponse {
        var response = try await f.registrationResponse()
        let original = try AttestationObject(response.response.attestationObject.data)
        let object = try build(original.authenticatorData.raw, Data(SHA256.hash(data: response.response.clientDataJSON.data)))
        response.response.attestationObject = Base64URLBytes(object)
        return response
    }

    @Test func rejectsMalformedAttestationObjects() async throws {
        let f = try PasskeyFixture()
        let valid = try await f.registrationResponse().response.attestationObject.data
        let cases: [Data] = [
            valid.prefix(valid.count - 5),                              // truncated
            valid + Data([0x00]),                                       // trailing bytes
            Data(repeating: 0x81, count: 40) + Data([0x00]),            // too deep
            Data([0x5a, 0x00, 0x10, 0x00, 0x01]) + Data(count: 65_537), // oversized
            Data([0xa1, 0x63]) + Data("fmt".utf8) + Data([0x1c]),       // reserved encoding
        ]
        for bytes in cases {
            let response = try await handMade(f) { _, _ in bytes }
            await #expect(throws: WebAuthnError.self) { try await f.rp.verifyRegistration(response) }
        }
        let noneWithStatement = try await handMade(f) { authData, _ in
            CBOR.map(["fmt": "none", "attStmt": .map(["x": 1]), "authData": .byteString(authData)]).encoded
        }
        await #expect(throws: WebAuthnError.attestationInvalid("none: attStmt must be empty")) {
            try await f.rp.verifyRegistration(noneWithStatement)
        }
        let unknownFormat = try await handMade(f) { authData, _ in
            CBOR.map(["fmt": "tpm-ish", "attStmt": .map([]), "authData": .byteString(authData)]).encoded
        }
        // An unknown format is accepted without attestation (AttestationPolicyTests covers the strict case).
        #expect(try await f.rp.verifyRegistration(unknownFormat).attestationTrust == .none)
    }

    @Test func rejectsUnsupportedAlgorithm() async throws {
        let f = try PasskeyFixture { $0.supportedAlgorithms = [.es384] }
        let options = try await f.rp.registrationOptions(user: PasskeyFixture.user)
        #expect(!options.pubKeyCredParams.contains { $0.alg == -7 })
        // The authenticator only makes ES256 keys; the RP refuses an ES256 credential it did not offer.
        var tweaked = options
        tweaked.pubKeyCredParams = [PublicKeyCredentialParameters(alg: .es256)]
        let response = try f.authenticator.register(tweaked, origin: PasskeyFixture.origin)
        await #expect(throws: WebAuthnError.unsupportedAlgorithm(-7)) { try await f.rp.verifyRegistration(response) }
    }

    @Test func verifiesPackedSelfAttestation() async throws {
        let f = try PasskeyFixture()
        // The software authenticator's key is not exposed; make a credential whose key we hold.
        let key = P256.Signing.PrivateKey()
        let response = try await selfAttested(f, key: key, alg: -7)
        let stored = try await f.rp.verifyRegistration(response)
        #expect(stored.attestationFormat == "packed" && stored.attestationTrust == .selfAttested)

        let wrongAlg = try await selfAttested(f, key: key, alg: -35)
        await #expect(throws: WebAuthnError.attestationInvalid("packed self: alg differs from the credential's")) {
            try await f.rp.verifyRegistration(wrongAlg)
        }
        let otherKey = try await selfAttested(f, key: key, alg: -7, signer: P256.Signing.PrivateKey())
        await #expect(throws: WebAuthnError.attestationInvalid("packed self: signature")) {
            try await f.rp.verifyRegistration(otherKey)
        }
    }

    /// A registration whose credential key is `key`, attested `packed` by `signer` (default: itself).
    func selfAttested(_ f: PasskeyFixture, key: P256.Signing.PrivateKey, alg: Int,
                      signer: P256.Signing.PrivateKey? = nil) async throws -> RegistrationResponse {
        var response = try await f.registrationResponse()
        let original = try AttestationObject(response.response.attestationObject.data)
        let authData = try Self.replacingCredentialKey(in: original.authenticatorData, with: key.publicKey)
        let clientDataHash = SHA256.hash(data: response.response.clientDataJSON.data)
        let sig = try (signer ?? key).signature(for: authData + clientDataHash).derRepresentation
        response.response.attestationObject = Base64URLBytes(CBOR.map([
            "fmt": "packed", "attStmt": .map(["alg": .int(Int64(alg)), "sig": .byteString(sig)]),
            "authData": .byteString(authData)]).encoded)
        return response
    }

    static func replacingCredentialKey(in authData: AuthenticatorData, with key: P256.Signing.PublicKey) throws -> Data {
        let cred = try #require(authData.attestedCredential)
        let point = key.x963Representation
        let cose = COSEKey.ec2(algorithm: .es256, curve: .p256, x: point[1..<33], y: point[33..<65]).encoded
        let prefixLength = 37 + 18 + cred.credentialID.count
        return authData.raw.prefix(prefixLength) + cose
    }

    @Test func verifiesPackedFullAttestationAgainstTrustAnchors() async throws {
        let pki = try TestPKI()
        defer { pki.remove() }
        let root = try Certificate(derRepresentation: try pki.rootDER)
        let aaguid = Data(count: 16)
        let leaf = try pki.leaf(name: "packed", subject: "/C=KR/O=Latchkey Test/OU=Authenticator Attestation/CN=Test Key",
                                extensions: ["basicConstraints=critical,CA:FALSE",
                                             "1.3.6.1.4.1.45724.1.1.4=DER:0410" + aaguid.hexString])
        let f = try PasskeyFixture { $0.attestationTrustAnchors = ["packed": [root]] }
        func full(_ certificate: Data, signer: P256.Signing.PrivateKey) async throws -> RegistrationResponse {
            try await handMade(f) { authData, hash in
                let sig = try signer.signature(for: authData + hash).derRepresentation
                return CBOR.map(["fmt": "packed",
                                 "attStmt": .map(["alg": -7, "sig": .byteString(sig), "x5c": [.byteString(certificate)]]),
                                 "authData": .byteString(authData)]).encoded
            }
        }
        let stored = try await f.rp.verifyRegistration(try await full(leaf.der, signer: leaf.key))
        #expect(stored.attestationTrust == .trusted)

        await #expect(throws: WebAuthnError.attestationInvalid("packed: signature by the attestation certificate")) {
            try await f.rp.verifyRegistration(try await full(leaf.der, signer: P256.Signing.PrivateKey()))
        }
        // Without a matching root the chain is only "uncertain"; a strict RP refuses it.
        let strict = try PasskeyFixture { $0.requireTrustedAttestation = true }
        await #expect(throws: WebAuthnError.attestationNotTrusted("none")) {
            try await strict.rp.verifyRegistration(try await strict.registrationResponse())
        }
        // A leaf whose subject lacks the required OU is refused.
        let badSubject = try pki.leaf(name: "badou", subject: "/C=KR/O=Latchkey Test/OU=Other/CN=Test Key",
                                      extensions: ["basicConstraints=critical,CA:FALSE"])
        await #expect(throws: WebAuthnError.attestationInvalid("packed: certificate subject")) {
            try await f.rp.verifyRegistration(try await full(badSubject.der, signer: badSubject.key))
        }
        // An AAGUID in the certificate different from the authenticator's is refused.
        let otherAAGUID = try pki.leaf(name: "aaguid", subject: "/C=KR/O=Latchkey Test/OU=Authenticator Attestation/CN=K",
                                       extensions: ["1.3.6.1.4.1.45724.1.1.4=DER:0410" + String(repeating: "ab", count: 16)])
        await #expect(throws: WebAuthnError.attestationInvalid("packed: AAGUID differs from the certificate's")) {
            try await f.rp.verifyRegistration(try await full(otherAAGUID.der, signer: otherAAGUID.key))
        }
        // A chain from another root is not trusted.
        let otherPKI = try TestPKI()
        defer { otherPKI.remove() }
        let foreign = try otherPKI.leaf(name: "foreign", subject: "/C=KR/O=X/OU=Authenticator Attestation/CN=K",
                                        extensions: ["basicConstraints=critical,CA:FALSE"])
        await #expect(throws: WebAuthnError.self) {
            try await f.rp.verifyRegistration(try await full(foreign.der, signer: foreign.key))
        }
    }

    @Test func verifiesFIDOU2FAttestation() async throws {
        let pki = try TestPKI()
        defer { pki.remove() }
        let cert = try pki.leaf(name: "u2f", subject: "/CN=U2F Test", extensions: ["basicConstraints=CA:FALSE"])
        let f = try PasskeyFixture()
        func u2f(signer: P256.Signing.PrivateKey, certs: [Data]) async throws -> RegistrationResponse {
            try await handMade(f) { authData, hash in
                let parsed = try AuthenticatorData(authData)
                let cred = try #require(parsed.attestedCredential)
                let key = try COSEKey(cbor: cred.publicKey)
                guard case let .ec2(_, _, x, y) = key else { throw CryptoError.malformedInput("key") }
                let data = Data([0]) + parsed.rpIDHash + hash + cred.credentialID + Data([4]) + x + y
                let sig = try signer.signature(for: data).derRepresentation
                return CBOR.map(["fmt": "fido-u2f",
                                 "attStmt": .map(["sig": .byteString(sig), "x5c": .array(certs.map { .byteString($0) })]),
                                 "authData": .byteString(authData)]).encoded
            }
        }
        let stored = try await f.rp.verifyRegistration(try await u2f(signer: cert.key, certs: [cert.der]))
        #expect(stored.attestationFormat == "fido-u2f" && stored.attestationTrust == .uncertain)
        await #expect(throws: WebAuthnError.attestationInvalid("fido-u2f: signature")) {
            try await f.rp.verifyRegistration(try await u2f(signer: P256.Signing.PrivateKey(), certs: [cert.der]))
        }
        await #expect(throws: WebAuthnError.attestationInvalid("fido-u2f: x5c must hold one certificate")) {
            try await f.rp.verifyRegistration(try await u2f(signer: cert.key, certs: [cert.der, cert.der]))
        }
    }

    @Test func verifiesAppleAnonymousAttestation() async throws {
        let pki = try TestPKI()
        defer { pki.remove() }
        let root = try Certificate(derRepresentation: try pki.rootDER)
        let f = try PasskeyFixture { $0.attestationTrustAnchors = ["apple": [root]] }
        let credentialKey = P256.Signing.PrivateKey()
        func apple(nonceOverride: Data? = nil, certKey: P256.Signing.PrivateKey) async throws -> RegistrationResponse {
            var response = try await f.registrationResponse()
            let original = try AttestationObject(response.response.attestationObject.data)
            let authData = try Self.replacingCredentialKey(in: original.authenticatorData, with: credentialKey.publicKey)
            let hash = Data(SHA256.hash(data: response.response.clientDataJSON.data))
            let nonce = nonceOverride ?? Data(SHA256.hash(data: authData + hash))
            let cert = try pki.leaf(name: "apple-\(UUID().uuidString)", subject: "/CN=Apple Test",
                                    keyPEM: certKey.pemRepresentation,
                                    extensions: ["1.2.840.113635.100.8.2=DER:3024a1220420" + nonce.hexString])
            response.response.attestationObject = Base64URLBytes(CBOR.map([
                "fmt": "apple", "attStmt": .map(["x5c": [.byteString(cert.der)]]),
                "authData": .byteString(authData)]).encoded)
            return response
        }
        let stored = try await f.rp.verifyRegistration(try await apple(certKey: credentialKey))
        #expect(stored.attestationFormat == "apple" && stored.attestationTrust == .trusted)
        await #expect(throws: WebAuthnError.attestationInvalid("apple: nonce differs from the certificate's")) {
            try await f.rp.verifyRegistration(try await apple(nonceOverride: Data(count: 32), certKey: credentialKey))
        }
        await #expect(throws: WebAuthnError.attestationInvalid("apple: credential key differs from the certificate's")) {
            try await f.rp.verifyRegistration(try await apple(certKey: P256.Signing.PrivateKey()))
        }
    }
}
