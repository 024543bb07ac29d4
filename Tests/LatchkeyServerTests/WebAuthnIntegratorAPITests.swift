import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// The relying-party API for integrators: cross-origin without `topOrigin`, CBOR strictness levels, verification
/// against a caller-kept challenge, `StoredCredential` as JSON, related RP IDs, base64url and user-handle errors.
@Suite(.offCooperativePool) struct WebAuthnIntegratorAPITests {
    // MARK: Cross-origin without topOrigin (§7.1 step 10)

    @Test func crossOriginWithoutTopOriginFollowsTheSpecUnlessRequired() async throws {
        // Allowed cross-origin and no topOrigin sent: accepted (topOrigin is checked only when present).
        let f = try PasskeyFixture { $0.allowCrossOrigin = true; $0.allowedTopOrigins = ["https://embedder.example"] }
        f.authenticator.behaviour.crossOrigin = true
        try await f.register()
        _ = try await f.verify(try await f.assertionResponse())
        // A topOrigin that is sent is still checked.
        f.authenticator.behaviour.topOrigin = "https://other.example"
        await #expect(throws: WebAuthnError.topOriginNotAllowed("https://other.example")) {
            try await f.verify(try await f.assertionResponse())
        }

        // requireTopOrigin: the same response is refused, with its own error; with the topOrigin it passes.
        let strict = try PasskeyFixture {
            $0.allowCrossOrigin = true; $0.allowedTopOrigins = ["https://embedder.example"]; $0.requireTopOrigin = true
        }
        strict.authenticator.behaviour.crossOrigin = true
        await #expect(throws: WebAuthnError.topOriginMissing) {
            try await strict.rp.verifyRegistration(try await strict.registrationResponse())
        }
        strict.authenticator.behaviour.topOrigin = "https://embedder.example"
        try await strict.register()
        strict.authenticator.behaviour.topOrigin = nil
        await #expect(throws: WebAuthnError.topOriginMissing) { try await strict.verify(try await strict.assertionResponse()) }

        // Cross-origin not allowed at all: refused whether or not a topOrigin is sent.
        let sameOrigin = try PasskeyFixture()
        sameOrigin.authenticator.behaviour.crossOrigin = true
        await #expect(throws: WebAuthnError.crossOriginNotAllowed) {
            try await sameOrigin.rp.verifyRegistration(try await sameOrigin.registrationResponse())
        }
    }

    // MARK: CBOR strictness

    /// Hand-made CBOR: heads in the shortest form unless `long`, maps in the order given.
    enum Raw {
        static func head(_ major: UInt8, _ n: Int, long: Bool = false) -> Data {
            if n < 24 && !long { return Data([major << 5 | UInt8(n)]) }
            if n < 256 { return Data([major << 5 | 24, UInt8(n)]) }
            return Data([major << 5 | 25, UInt8(n >> 8), UInt8(n & 0xff)])
        }
        static func text(_ s: String, long: Bool = false) -> Data { head(3, s.utf8.count, long: long) + Data(s.utf8) }
        static func bytes(_ d: Data) -> Data { head(2, d.count) + d }
        static func map(_ entries: [(Data, Data)], long: Bool = false) -> Data {
            entries.reduce(head(5, entries.count, long: long)) { $0 + $1.0 + $1.1 }
        }
        static func indefiniteMap(_ entries: [(Data, Data)]) -> Data {
            entries.reduce(Data([0xbf])) { $0 + $1.0 + $1.1 } + Data([0xff])
        }
        static let emptyMap = Data([0xa0])
        /// The entries in the order given (CBOR's own encoder sorts map keys canonically).
        static func map(_ entries: some Sequence<CBOR.MapEntry>) -> Data {
            map(entries.map { ($0.key.encoded, $0.value.encoded) })
        }
    }

    /// The attestation object variants, built around a real registration's authenticator data.
    enum Variant: CaseIterable {
        case canonical, unsortedObject, longHeadInObject, unsortedCredentialKey
        case duplicateKeyInObject, indefiniteObject, duplicateKeyInCredentialKey

        func object(authData: Data) throws -> Data {
            let fmt = (Raw.text("fmt"), Raw.text("none"))
            let stmt = (Raw.text("attStmt"), Raw.emptyMap)
            switch self {
            case .canonical: return Raw.map([fmt, stmt, (Raw.text("authData"), Raw.bytes(authData))])
            case .unsortedObject: return Raw.map([(Raw.text("authData"), Raw.bytes(authData)), fmt, stmt])
            case .longHeadInObject:
                return Raw.map([(Raw.text("fmt", long: true), Raw.text("none")), stmt, (Raw.text("authData"), Raw.bytes(authData))])
            case .duplicateKeyInObject:
                return Raw.map([fmt, fmt, stmt, (Raw.text("authData"), Raw.bytes(authData))])
            case .indefiniteObject: return Raw.indefiniteMap([fmt, stmt, (Raw.text("authData"), Raw.bytes(authData))])
            case .unsortedCredentialKey, .duplicateKeyInCredentialKey:
                let parsed = try AuthenticatorData(authData)
                let credential = try #require(parsed.attestedCredential)
                let entries = try #require(credential.publicKey.mapEntries)
                let key = self == .unsortedCredentialKey ? Raw.map(entries.reversed()) : Raw.map(entries + [entries[0]])
                let prefix = authData.prefix(37 + 18 + credential.credentialID.count)
                return Raw.map([fmt, stmt, (Raw.text("authData"), Raw.bytes(prefix + key))])
            }
        }

        /// nil: accepted; else which structure's error the level reports.
        func refusal(at level: CBORStrictness) -> String? {
            switch (self, level) {
            case (.canonical, _): nil
            case (.unsortedObject, .canonical), (.longHeadInObject, .canonical): "attestation object"
            case (.unsortedObject, _), (.longHeadInObject, _): nil
            case (.unsortedCredentialKey, .compatible): nil
            case (.unsortedCredentialKey, _): "authenticator data"
            case (.duplicateKeyInObject, _), (.indefiniteObject, _): "attestation object"
            case (.duplicateKeyInCredentialKey, _): "authenticator data"
            }
        }
    }

    @Test(arguments: CBORStrictness.allCases)
    func cborStrictnessLevels(_ level: CBORStrictness) async throws {
        let f = try PasskeyFixture { $0.cborStrictness = level }
        #expect(WebAuthnConfiguration(relyingPartyID: "a", relyingPartyName: "a", allowedOrigins: []).cborStrictness == .compatible)
        for variant in Variant.allCases {
            var response = try await f.registrationResponse()
            let original = try AttestationObject(response.response.attestationObject.data)
            let object = try variant.object(authData: original.authenticatorData.raw)
            if variant == .canonical { #expect(object == response.response.attestationObject.data, "Raw encodes canonically") }
            response.response.attestationObject = Base64URLBytes(object)
            let outcome: String?
            do {
                let stored = try await f.rp.verifyRegistration(response)
                #expect(stored.attestationFormat == "none")
                outcome = nil
            } catch WebAuthnError.malformedAttestationObject {
                outcome = "attestation object"
            } catch WebAuthnError.malformedAuthenticatorData {
                outcome = "authenticator data"
            }
            #expect(outcome == variant.refusal(at: level), "\(variant) at \(level)")
        }
    }

    @Test func parsersTakeTheStrictnessDirectly() throws {
        let key = COSEKey.ec2(algorithm: .es256, curve: .p256, x: Data(repeating: 1, count: 32), y: Data(repeating: 2, count: 32))
        let entries = try #require(CBOR(decoding: key.encoded).mapEntries)
        var authData = Data(repeating: 0xaa, count: 32) + Data([0x41, 0, 0, 0, 0]) + Data(count: 16) + Data([0, 4, 1, 2, 3, 4])
        authData += Raw.map(entries.reversed())
        #expect(try AuthenticatorData(authData).attestedCredential?.credentialID == Data([1, 2, 3, 4]))
        #expect(try AuthenticatorData(authData, strictness: .compatible).attestedCredential != nil)
        for strict in [CBORStrictness.canonicalAuthenticatorData, .canonical] {
            #expect(throws: WebAuthnError.self) { try AuthenticatorData(authData, strictness: strict) }
        }
        // Extensions (ED flag) follow the same rule: a map with a non-shortest length head.
        var withExtensions = Data(repeating: 0xaa, count: 32) + Data([0x81, 0, 0, 0, 1])
        withExtensions += Raw.map([(Raw.text("credProtect"), Data([0x02]))], long: true)
        #expect(try AuthenticatorData(withExtensions).extensions != nil)
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(withExtensions, strictness: .canonicalAuthenticatorData) }
    }

    // MARK: Caller-kept challenges

    @Test func verifiesAgainstAnExpectedChallengeWithoutTheStore() async throws {
        let f = try PasskeyFixture()
        let challenge = WebAuthnRelyingParty.makeChallenge()
        #expect(challenge.count == 32)
        let options = f.rp.registrationOptions(user: PasskeyFixture.user, challenge: challenge)
        #expect(options.challenge.data == challenge)
        let response = try f.authenticator.register(options, origin: PasskeyFixture.origin)
        await #expect(throws: WebAuthnError.challengeMismatch) {
            try await f.rp.verifyRegistration(response, expectedChallenge: WebAuthnRelyingParty.makeChallenge(),
                                              userHandle: PasskeyFixture.user.id.data)
        }
        // The store never saw this challenge.
        await #expect(throws: WebAuthnError.unknownChallenge) { try await f.rp.verifyRegistration(response) }
        let stored = try await f.rp.verifyRegistration(response, expectedChallenge: challenge,
                                                       userHandle: PasskeyFixture.user.id.data)
        #expect(stored.userHandle == PasskeyFixture.user.id.data && stored.relyingPartyID == "localhost")
        f.clock.advance(1)

        // Discoverable sign-in against a kept challenge and the caller's record.
        let signIn = WebAuthnRelyingParty.makeChallenge()
        let assertion = try f.authenticator.authenticate(f.rp.authenticationOptions(challenge: signIn), origin: PasskeyFixture.origin)
        await #expect(throws: WebAuthnError.challengeMismatch) {
            try await f.rp.verifyAuthentication(assertion, expectedChallenge: challenge, credential: stored)
        }
        var other = stored
        other.id = Data(repeating: 1, count: 32)
        await #expect(throws: WebAuthnError.unknownCredential) {
            try await f.rp.verifyAuthentication(assertion, expectedChallenge: signIn, credential: other)
        }
        let result = try await f.rp.verifyAuthentication(assertion, expectedChallenge: signIn, credential: stored)
        #expect(result.credential.signCount == 1 && result.userVerified)

        // Without a user handle: its own error for a discoverable sign-in, accepted when the user was identified.
        let named = WebAuthnRelyingParty.makeChallenge()
        var anonymous = try f.authenticator.authenticate(
            f.rp.authenticationOptions(challenge: named, allowCredentials: [result.credential]), origin: PasskeyFixture.origin)
        anonymous.response.userHandle = nil
        await #expect(throws: WebAuthnError.userHandleMissing) {
            try await f.rp.verifyAuthentication(anonymous, expectedChallenge: named, credential: result.credential)
        }
        let identified = try await f.rp.verifyAuthentication(anonymous, expectedChallenge: named, credential: result.credential,
                                                             userIdentified: true)
        #expect(identified.credential.signCount == 2)
    }

    // MARK: StoredCredential as JSON

    @Test func storedCredentialRoundTripsThroughJSON() async throws {
        let f = try PasskeyFixture()
        let registered = try await f.register()
        let used = try await f.verify(try await f.assertionResponse()).credential
        #expect(used.lastUsedAt != nil)
        for credential in [registered, used] {
            let json = try JSONEncoder().encode(credential)
            let decoded = try JSONDecoder().decode(StoredCredential.self, from: json)
            #expect(decoded == credential)
            let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            #expect(object["attestationTrust"] as? String == "none" && object["relyingPartyID"] as? String == "localhost")
        }
        // A record decoded from JSON signs in, and one written before `relyingPartyID` existed still decodes.
        let restored = try JSONDecoder().decode(StoredCredential.self, from: try JSONEncoder().encode(used))
        f.credentials.withLock { $0[restored.id] = restored }
        #expect(try await f.verify(try await f.assertionResponse()).credential.signCount == 2)
        var legacy = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(registered)) as? [String: Any])
        legacy.removeValue(forKey: "relyingPartyID")
        let old = try JSONDecoder().decode(StoredCredential.self, from: try JSONSerialization.data(withJSONObject: legacy))
        #expect(old.relyingPartyID == nil && old.id == registered.id)
    }

    // MARK: Related RP IDs and origins

    static func relatedParty(clock: TestClock) throws -> WebAuthnRelyingParty {
        try WebAuthnRelyingParty(configuration: WebAuthnConfiguration(
            relyingPartyID: "example.com", relyingPartyName: "Example", allowedOrigins: ["https://example.com"],
            relatedRelyingParties: [RelatedRelyingParty(id: "example.co.uk", origins: ["https://example.co.uk"])]),
            challenges: InMemoryChallengeStore(now: clock.function), now: clock.function)
    }

    @Test func acceptsRelatedRelyingPartyIDsWithTheirOrigins() async throws {
        let clock = TestClock()
        let rp = try Self.relatedParty(clock: clock)
        let authenticator = SoftwareAuthenticator(store: InMemorySoftwareCredentialStore(), now: clock.function)
        let user = PasskeyFixture.user

        // Registered on the related RP ID from its origin: the record names that RP ID.
        let options = try await rp.registrationOptions(user: user, relyingPartyID: "example.co.uk")
        #expect(options.rp.id == "example.co.uk")
        let uk = try await rp.verifyRegistration(try authenticator.register(options, origin: "https://example.co.uk"))
        #expect(uk.relyingPartyID == "example.co.uk")
        clock.advance(1)
        let signIn = try await rp.authenticationOptions(relyingPartyID: "example.co.uk")
        _ = try await rp.verifyAuthentication(try authenticator.authenticate(signIn, origin: "https://example.co.uk")) { _ in uk }
        // The record is scoped to its RP ID.
        var misfiled = uk
        misfiled.relyingPartyID = "example.com"
        let misfiledRecord = misfiled
        let again = try await rp.authenticationOptions(relyingPartyID: "example.co.uk")
        await #expect(throws: WebAuthnError.rpIDHashMismatch) {
            try await rp.verifyAuthentication(try authenticator.authenticate(again, origin: "https://example.co.uk")) { _ in misfiledRecord }
        }

        // A related origin may use the main RP ID (related origin requests, §5.11).
        let main = try await rp.verifyRegistration(
            try authenticator.register(try await rp.registrationOptions(user: user), origin: "https://example.co.uk"))
        #expect(main.relyingPartyID == "example.com")
        clock.advance(1)
        // The main origin may not use the related RP ID.
        let wrong = try await rp.registrationOptions(user: user, relyingPartyID: "example.co.uk")
        await #expect(throws: WebAuthnError.rpIDHashMismatch) {
            try await rp.verifyRegistration(try authenticator.register(wrong, origin: "https://example.com"))
        }
        // An origin of neither is refused; so is an RP ID nobody configured.
        let elsewhere = try await rp.registrationOptions(user: user)
        await #expect(throws: WebAuthnError.originNotAllowed("https://example.org")) {
            try await rp.verifyRegistration(try authenticator.register(elsewhere, origin: "https://example.org"))
        }
        let unknown = try await rp.registrationOptions(user: user, relyingPartyID: "example.org")
        await #expect(throws: WebAuthnError.rpIDHashMismatch) {
            try await rp.verifyRegistration(try authenticator.register(unknown, origin: "https://example.co.uk"))
        }
        #expect(rp.configuration.relyingPartyIDs(acceptedFrom: "https://example.com") == ["example.com"])
        #expect(rp.configuration.relyingPartyIDs(acceptedFrom: "https://example.co.uk") == ["example.co.uk", "example.com"])
        #expect(rp.configuration.relyingPartyIDs(acceptedFrom: "https://example.org").isEmpty)
    }

    // MARK: Response JSON errors

    @Test func base64URLErrorsAreWebAuthnErrors() async throws {
        let f = try PasskeyFixture()
        let registration = try JSONEncoder().encode(try await f.registrationResponse())
        #expect(try RegistrationResponse(json: registration).type == "public-key")
        func replacing(_ json: Data, _ path: [String], with value: Any) throws -> Data {
            var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            if path.count == 1 {
                object[path[0]] = value
            } else {
                var inner = try #require(object[path[0]] as? [String: Any])
                inner[path[1]] = value
                object[path[0]] = inner
            }
            return try JSONSerialization.data(withJSONObject: object)
        }
        #expect(throws: WebAuthnError.invalidBase64URL(field: "rawId")) {
            try RegistrationResponse(json: try replacing(registration, ["rawId"], with: "not base64url!"))
        }
        #expect(throws: WebAuthnError.invalidBase64URL(field: "response.clientDataJSON")) {
            try RegistrationResponse(json: try replacing(registration, ["response", "clientDataJSON"], with: "a+b/"))
        }
        // Plain JSONDecoder gives the same error (not a DecodingError).
        #expect(throws: WebAuthnError.invalidBase64URL(field: "response.attestationObject")) {
            try JSONDecoder().decode(RegistrationResponse.self,
                                     from: try replacing(registration, ["response", "attestationObject"], with: "%%"))
        }
        #expect(throws: WebAuthnError.malformedResponse("rawId has the wrong type")) {
            try RegistrationResponse(json: try replacing(registration, ["rawId"], with: 5))
        }
        #expect(throws: WebAuthnError.malformedResponse("not JSON")) { try RegistrationResponse(json: Data("{".utf8)) }

        try await f.register()
        let assertion = try JSONEncoder().encode(try await f.assertionResponse())
        #expect(throws: WebAuthnError.invalidBase64URL(field: "response.signature")) {
            try AuthenticationResponse(json: try replacing(assertion, ["response", "signature"], with: "***"))
        }
        var missing = try #require(try JSONSerialization.jsonObject(with: assertion) as? [String: Any])
        missing.removeValue(forKey: "response")
        #expect(throws: WebAuthnError.malformedResponse("response missing")) {
            try AuthenticationResponse(json: try JSONSerialization.data(withJSONObject: missing))
        }
    }

    @Test func newErrorsHaveText() {
        let errors: [WebAuthnError] = [.invalidBase64URL(field: "rawId"), .topOriginMissing, .challengeMismatch, .userHandleMissing]
        for error in errors {
            let text = error.localizedDescription
            #expect(!text.isEmpty && !text.contains("WebAuthnError"))
        }
        #expect(WebAuthnError.invalidBase64URL(field: "rawId").localizedDescription.contains("rawId"))
    }
}
