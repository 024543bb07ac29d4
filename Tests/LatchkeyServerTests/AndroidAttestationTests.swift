import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// `android-key` (WebAuthn L3 §8.4) with KeyDescription extensions made by the `openssl` command, and
/// `android-safetynet` (§8.5) with a JWS signed by a generated certificate.
@Suite(.offCooperativePool) struct AndroidKeyAttestationTests {
    /// An AuthorizationList: `purpose`, `origin`, and `allApplications` when asked.
    static func authorizationList(purposes: [UInt8]? = nil, origin: UInt8? = nil, allApplications: Bool = false) -> Data {
        var items: [Data] = []
        if let purposes { items.append(DERWriter.explicit(1, DERWriter.set(purposes.map(DERWriter.integer)))) }
        items.append(DERWriter.explicit(3, DERWriter.integer(3))) // algorithm: EC, ignored by the checks
        if allApplications { items.append(DERWriter.explicit(600, DERWriter.null)) }
        if let origin { items.append(DERWriter.explicit(702, DERWriter.integer(origin))) }
        return DERWriter.sequence(items)
    }

    static func keyDescription(challenge: Data, software: Data = authorizationList(),
                               tee: Data = authorizationList(purposes: [2], origin: 0)) -> Data {
        DERWriter.sequence(DERWriter.integer(3), DERWriter.enumerated(1), DERWriter.integer(4), DERWriter.enumerated(1),
                           DERWriter.octets(challenge), DERWriter.octets(Data()), software, tee)
    }

    struct Knobs {
        var challenge: Data?
        var software: Data = AndroidKeyAttestationTests.authorizationList()
        var tee: Data = AndroidKeyAttestationTests.authorizationList(purposes: [2], origin: 0)
        var rawExtension: Data?
        var noExtension = false
        /// Write the KeyDescription's outer length in BER's longer form (`30 81 L` for `30 L`), as some firmware does.
        var berLength = false
        var certificateKey: P256.Signing.PrivateKey?
        var signer: P256.Signing.PrivateKey?
    }

    final class Scenario: Sendable {
        let pki: TestPKI
        let f: PasskeyFixture
        let credentialKey: P256.Signing.PrivateKey

        init(configure: (inout WebAuthnConfiguration) -> Void = { _ in }) throws {
            pki = try TestPKI()
            credentialKey = P256.Signing.PrivateKey()
            f = try PasskeyFixture(configure: configure)
        }
        deinit { pki.remove() }

        func response(_ knobs: Knobs = Knobs()) async throws -> RegistrationResponse {
            try await attestedRegistration(f, key: credentialKey.publicKey.coseKey) { authData, hash in
                var value = knobs.rawExtension ?? AndroidKeyAttestationTests.keyDescription(
                    challenge: knobs.challenge ?? hash, software: knobs.software, tee: knobs.tee)
                if knobs.berLength, value.count > 2, value[value.startIndex + 1] < 0x80 {
                    value = Data([0x30, 0x81]) + value.dropFirst()
                }
                let certificateKey = knobs.certificateKey ?? self.credentialKey
                let cert = try self.pki.leaf(name: "ak-\(UUID().uuidString)", subject: "/CN=Android Keystore Key",
                                             keyPEM: certificateKey.pemRepresentation,
                                             extensions: knobs.noExtension ? ["basicConstraints=CA:FALSE"]
                                                 : ["1.3.6.1.4.1.11129.2.1.17=DER:" + value.hexString])
                let sig = try (knobs.signer ?? certificateKey).signature(for: authData + hash).derRepresentation
                return ("android-key", .map(["alg": -7, "sig": .byteString(sig), "x5c": [.byteString(cert.der)]]))
            }
        }

        func expect(_ error: AttestationError, _ knobs: Knobs, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let response = try await response(knobs)
            await #expect(throws: WebAuthnError.attestationCheckFailed(error), sourceLocation: sourceLocation) {
                try await self.f.rp.verifyRegistration(response)
            }
        }
    }

    @Test func verifiesAStatementAndChainsToTheConfiguredRoot() async throws {
        let s = try Scenario()
        let stored = try await s.f.rp.verifyRegistration(try await s.response())
        #expect(stored.attestationFormat == "android-key" && stored.attestationTrust == .uncertain)
        // origin and purpose in the software list only are enough unless the TEE is required.
        let softwareOnly = Knobs(software: Self.authorizationList(purposes: [2], origin: 0), tee: Self.authorizationList())
        #expect(try await s.f.rp.verifyRegistration(try await s.response(softwareOnly)).attestationTrust == .uncertain)
        // A KeyDescription with a BER (non-minimal) length is read: keystore firmware writes such values.
        #expect(try await s.f.rp.verifyRegistration(try await s.response(Knobs(berLength: true))).attestationTrust == .uncertain)

        let root = try Certificate(derRepresentation: try s.pki.rootDER)
        let anchored = try Scenario { $0.attestationTrustAnchors = ["android-key": [root]] }
        // The scenario's own PKI differs; sign with the first scenario's root by reusing its PKI.
        let response = try await attestedRegistration(anchored.f, key: s.credentialKey.publicKey.coseKey) { authData, hash in
            let cert = try s.pki.leaf(name: "anchored", subject: "/CN=K", keyPEM: s.credentialKey.pemRepresentation,
                                      extensions: ["1.3.6.1.4.1.11129.2.1.17=DER:" + Self.keyDescription(challenge: hash).hexString])
            let sig = try s.credentialKey.signature(for: authData + hash).derRepresentation
            return ("android-key", .map(["alg": -7, "sig": .byteString(sig), "x5c": [.byteString(cert.der)]]))
        }
        #expect(try await anchored.f.rp.verifyRegistration(response).attestationTrust == .trusted)
        // A leaf of the anchored scenario's own PKI does not chain to the configured root.
        let foreign = try await anchored.response()
        await #expect(throws: WebAuthnError.self) { try await anchored.f.rp.verifyRegistration(foreign) }
    }

    @Test func refusesEachBrokenCheck() async throws {
        let s = try Scenario()
        try await s.expect(.signatureInvalid(format: "android-key"), Knobs(signer: P256.Signing.PrivateKey()))
        try await s.expect(.credentialKeyMismatch(format: "android-key"), Knobs(certificateKey: P256.Signing.PrivateKey()))
        try await s.expect(.androidKeyExtensionMissing, Knobs(noExtension: true))
        try await s.expect(.androidKeyChallengeMismatch, Knobs(challenge: Data(count: 32)))
        try await s.expect(.androidKeyAllApplicationsPresent,
                           Knobs(software: Self.authorizationList(allApplications: true)))
        try await s.expect(.androidKeyAllApplicationsPresent,
                           Knobs(tee: Self.authorizationList(purposes: [2], origin: 0, allApplications: true)))
        try await s.expect(.androidKeyOriginInvalid, Knobs(tee: Self.authorizationList(purposes: [2], origin: 1)))
        try await s.expect(.androidKeyOriginInvalid, Knobs(tee: Self.authorizationList(purposes: [2])))
        try await s.expect(.androidKeyPurposeInvalid, Knobs(tee: Self.authorizationList(purposes: [0, 3], origin: 0)))
        try await s.expect(.androidKeyDescriptionMalformed("KeyDescription"),
                           Knobs(rawExtension: DERWriter.sequence(DERWriter.integer(3))))
        try await s.expect(.androidKeyDescriptionMalformed("not DER"), Knobs(rawExtension: Data([0x30, 0x05, 0x02])))
        try await s.expect(.androidKeyDescriptionMalformed("not DER"), Knobs(rawExtension: Data([0x30, 0x80, 0x00, 0x00])))
    }

    /// `androidKeyAcceptsEmptyAuthorizationLists`: two empty lists pass; a present wrong origin or purpose, or an
    /// origin without a purpose, is refused as before. Off by default.
    @Test func emptyAuthorizationListsOnlyWithTheOption() async throws {
        let empty = Knobs(software: Self.authorizationList(), tee: Self.authorizationList())
        try await Scenario().expect(.androidKeyOriginInvalid, empty)
        let s = try Scenario { $0.attestationOptions.androidKeyAcceptsEmptyAuthorizationLists = true }
        #expect(try await s.f.rp.verifyRegistration(try await s.response(empty)).attestationTrust == .uncertain)
        try await s.expect(.androidKeyOriginInvalid, Knobs(tee: Self.authorizationList(purposes: [2], origin: 1)))
        try await s.expect(.androidKeyPurposeInvalid, Knobs(tee: Self.authorizationList(origin: 0)))
        try await s.expect(.androidKeyOriginInvalid, Knobs(tee: Self.authorizationList(purposes: [2])))
    }

    @Test func teeRequirementIgnoresTheSoftwareList() async throws {
        let s = try Scenario { $0.attestationOptions.androidKeyRequiresTrustedExecutionEnvironment = true }
        #expect(try await s.f.rp.verifyRegistration(try await s.response()).attestationTrust == .uncertain)
        let softwareOnly = Knobs(software: Self.authorizationList(purposes: [2], origin: 0), tee: Self.authorizationList())
        try await s.expect(.androidKeyOriginInvalid, softwareOnly)
        let softwarePurpose = Knobs(software: Self.authorizationList(purposes: [2]), tee: Self.authorizationList(origin: 0))
        try await s.expect(.androidKeyPurposeInvalid, softwarePurpose)
    }
}

@Suite(.offCooperativePool) struct SafetyNetAttestationTests {
    struct Knobs {
        var ver = "14366018"
        var nonce: String?
        var ctsProfileMatch = true
        var timestampOffset: TimeInterval = -5
        var hostname = "attest.android.com"
        var signer: P256.Signing.PrivateKey?
        var response: Data?
    }

    final class Scenario: Sendable {
        let pki: TestPKI
        let f: PasskeyFixture
        let root: Certificate

        init(anchored: Bool = false, configure: (inout WebAuthnConfiguration) -> Void = { _ in }) throws {
            pki = try TestPKI()
            let root = try Certificate(derRepresentation: try pki.rootDER)
            self.root = root
            f = try PasskeyFixture {
                if anchored { $0.attestationTrustAnchors = ["android-safetynet": [root]] }
                configure(&$0)
            }
        }
        deinit { pki.remove() }

        func response(_ knobs: Knobs = Knobs()) async throws -> RegistrationResponse {
            let leaf = try pki.leaf(name: "sn-\(UUID().uuidString)", subject: "/O=Google LLC/CN=\(knobs.hostname)",
                                    extensions: ["basicConstraints=CA:FALSE"])
            let now = f.clock.now
            return try await attestedRegistration(f, key: nil) { authData, hash in
                let payload: [String: Any] = [
                    "nonce": knobs.nonce ?? Data(SHA256.hash(data: authData + hash)).base64EncodedString(),
                    "timestampMs": Int64((now.timeIntervalSince1970 + knobs.timestampOffset) * 1000),
                    "apkPackageName": "com.google.android.gms", "ctsProfileMatch": knobs.ctsProfileMatch,
                    "basicIntegrity": true]
                let header = JWSHeader(alg: .ES256, additional: ["x5c": .array([.string(leaf.der.base64EncodedString())])])
                let jws = try JWS.sign(payload: try JSONSerialization.data(withJSONObject: payload), header: header,
                                       key: .p256(knobs.signer ?? leaf.key))
                return ("android-safetynet", .map(["ver": .textString(knobs.ver),
                                                   "response": .byteString(knobs.response ?? Data(jws.utf8))]))
            }
        }

        func expect(_ error: AttestationError, _ knobs: Knobs, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let response = try await response(knobs)
            await #expect(throws: WebAuthnError.attestationCheckFailed(error), sourceLocation: sourceLocation) {
                try await self.f.rp.verifyRegistration(response)
            }
        }
    }

    @Test func verifiesAResponseAndChainsToTheConfiguredRoot() async throws {
        let s = try Scenario()
        let stored = try await s.f.rp.verifyRegistration(try await s.response())
        #expect(stored.attestationFormat == "android-safetynet" && stored.attestationTrust == .uncertain)
        // Within the default window: 50 s ahead, four minutes old.
        #expect(try await s.f.rp.verifyRegistration(try await s.response(Knobs(timestampOffset: 50))).attestationTrust == .uncertain)
        #expect(try await s.f.rp.verifyRegistration(try await s.response(Knobs(timestampOffset: -240))).attestationTrust == .uncertain)

        let trusted = try Scenario(anchored: true)
        #expect(try await trusted.f.rp.verifyRegistration(try await trusted.response()).attestationTrust == .trusted)
        // A leaf of another PKI does not chain to the configured root.
        let root = trusted.root
        let foreign = try Scenario { $0.attestationTrustAnchors = ["android-safetynet": [root]] }
        await #expect(throws: WebAuthnError.self) { try await foreign.f.rp.verifyRegistration(try await foreign.response()) }
    }

    @Test func refusesEachBrokenCheck() async throws {
        let s = try Scenario()
        try await s.expect(.safetyNetVersionMissing, Knobs(ver: ""))
        try await s.expect(.safetyNetNonceMismatch, Knobs(nonce: Data(count: 32).base64EncodedString()))
        try await s.expect(.safetyNetCTSProfileMismatch, Knobs(ctsProfileMatch: false))
        try await s.expect(.safetyNetTimestampOutOfRange, Knobs(timestampOffset: -600))
        try await s.expect(.safetyNetTimestampOutOfRange, Knobs(timestampOffset: 120))
        try await s.expect(.safetyNetHostnameMismatch, Knobs(hostname: "attest.android.com.example"))
        try await s.expect(.signatureInvalid(format: "android-safetynet"), Knobs(signer: P256.Signing.PrivateKey()))
        try await s.expect(.safetyNetResponseMalformed("not a compact JWS"), Knobs(response: Data("a.b".utf8)))
    }

    @Test func timestampWindowIsConfigurable() async throws {
        let s = try Scenario { $0.attestationOptions.safetyNetMaximumAge = 900 }
        #expect(try await s.f.rp.verifyRegistration(try await s.response(Knobs(timestampOffset: -600))).attestationTrust == .uncertain)
    }

    /// Google's responses are RS256 with an RSA leaf: the same checks through the RSA key path.
    @Test func verifiesAnRS256Response() async throws {
        let s = try Scenario(anchored: true)
        let rsa = try RSA.Signing.PrivateKey(keySize: 2048)
        try rsa.pemRepresentation.write(toFile: s.pki.path("rsa.key"), atomically: true, encoding: .utf8)
        try "basicConstraints=CA:FALSE\nsubjectAltName=DNS:attest.android.com\n"
            .write(toFile: s.pki.path("rsa.ext"), atomically: true, encoding: .utf8)
        try s.pki.run(["req", "-new", "-key", s.pki.path("rsa.key"), "-subj", "/O=Google LLC/CN=attest.android.com",
                       "-out", s.pki.path("rsa.csr")])
        try s.pki.run(["x509", "-req", "-in", s.pki.path("rsa.csr"), "-CA", s.pki.path("ca.pem"), "-CAkey", s.pki.path("ca.key"),
                       "-CAcreateserial", "-days", "365", "-extfile", s.pki.path("rsa.ext"), "-out", s.pki.path("rsa.pem")])
        let leaf = try s.pki.der(ofPEM: s.pki.path("rsa.pem"))
        let now = s.f.clock.now
        func response(signer: RSA.Signing.PrivateKey) async throws -> RegistrationResponse {
            try await attestedRegistration(s.f, key: nil) { authData, hash in
                let payload: [String: Any] = ["nonce": Data(SHA256.hash(data: authData + hash)).base64EncodedString(),
                                              "timestampMs": Int64(now.timeIntervalSince1970 * 1000), "ctsProfileMatch": true]
                let header = JWSHeader(alg: .RS256, additional: ["x5c": .array([.string(leaf.base64EncodedString())])])
                let jws = try JWS.sign(payload: try JSONSerialization.data(withJSONObject: payload), header: header, key: .rsa(signer))
                return ("android-safetynet", .map(["ver": "14366018", "response": .byteString(Data(jws.utf8))]))
            }
        }
        #expect(try await s.f.rp.verifyRegistration(try await response(signer: rsa)).attestationTrust == .trusted)
        await #expect(throws: WebAuthnError.attestationCheckFailed(.signatureInvalid(format: "android-safetynet"))) {
            try await s.f.rp.verifyRegistration(try await response(signer: try RSA.Signing.PrivateKey(keySize: 2048)))
        }
    }
}
