import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// The relying party's integrator traps of issue 28: roots that would never be consulted, and hand-made credential
/// records whose algorithm the caller had to supply.
@Suite(.offCooperativePool) struct WebAuthnConfigurationTests {
    static func configuration(_ adjust: (inout WebAuthnConfiguration) -> Void) -> WebAuthnConfiguration {
        var configuration = WebAuthnConfiguration(relyingPartyID: "example.com", relyingPartyName: "Example",
                                                  allowedOrigins: ["https://example.com"])
        adjust(&configuration)
        return configuration
    }

    /// Trust anchors with conveyance `none` (the default) and trusted attestation not required: no statement is ever
    /// verified, so a wrong anchor would register every passkey with trust `none` and nothing would say so. The
    /// relying party (and so the passkey endpoints) refuses to be made, naming both settings.
    @Test func trustAnchorsWithoutAttestationAreRefusedAtStart() async throws {
        let pki = try TestPKI()
        defer { pki.remove() }
        let root = try Certificate(derRepresentation: try pki.rootDER)
        let misconfigured = Self.configuration { $0.attestationTrustAnchors = ["tpm": [root], "packed": [root]] }
        #expect(throws: WebAuthnConfigurationError.trustAnchorsWithoutAttestation(formats: ["packed", "tpm"])) {
            try WebAuthnRelyingParty(configuration: misconfigured)
        }
        #expect(throws: WebAuthnConfigurationError.trustAnchorsWithoutAttestation(formats: ["packed", "tpm"])) {
            try misconfigured.validate()
        }
        let error = WebAuthnConfigurationError.trustAnchorsWithoutAttestation(formats: ["packed", "tpm"])
        for language in [MessageLanguage.english, .korean] {
            let text = error.message(in: language)
            #expect(text.contains("attestationTrustAnchors") && text.contains("--attestation-roots"), "\(text)")
            #expect(text.contains("attestation (--attestation)") || text.contains("attestation(--attestation)"), "\(text)")
            #expect(text.contains("packed, tpm"))
        }
        #expect(error.message(in: .english) != error.message(in: .korean))
        guard let base = try await ServiceFixture.make() else { return }
        #expect(throws: WebAuthnConfigurationError.self) {
            try PasskeyService(auth: base.service, configuration: misconfigured)
        }
        // Valid: attestation asked for, or trusted attestation required (statements are then verified), or no roots.
        _ = try WebAuthnRelyingParty(configuration: Self.configuration {
            $0.attestationTrustAnchors = ["tpm": [root]]; $0.attestation = .direct
        })
        _ = try WebAuthnRelyingParty(configuration: Self.configuration {
            $0.attestationTrustAnchors = ["tpm": [root]]; $0.requireTrustedAttestation = true
        })
        _ = try WebAuthnRelyingParty(configuration: Self.configuration { $0.attestationTrustAnchors = ["tpm": []] })
    }

    /// Metadata with conveyance `none` stays valid — its status check refuses revoked models and its names label
    /// passkeys whatever the conveyance — but its roots go unused, which the relying party says once when made.
    @Test func metadataWithoutAttestationIsValidAndWarnedAbout() throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        let metadata = try t.service()
        let none = Self.configuration { $0.attestationRootProvider = metadata }
        #expect(throws: Never.self) { try none.validate() }
        let warnings = none.configurationWarnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("attestationRootProvider (latchkey serve --metadata)") == true)
        #expect(warnings.first?.contains("attestation (--attestation) is none") == true)
        #expect(Self.configuration { $0.attestationRootProvider = metadata; $0.attestation = .direct }.configurationWarnings.isEmpty)
        #expect(Self.configuration { $0.attestationRootProvider = metadata; $0.requireTrustedAttestation = true }
            .configurationWarnings.isEmpty)
        #expect(Self.configuration { _ in }.configurationWarnings.isEmpty)
    }

    /// `latchkey serve`: roots without `--attestation` stop the server with both options named; metadata without it
    /// starts with the warning on standard error (LatchkeyLog, routed there by `serve`).
    @Test func serveRefusesRootsAndWarnsAboutMetadataWithoutAttestation() async throws {
        let t = try MetadataTestPKI()
        defer { t.remove() }
        let roots = URL(fileURLWithPath: t.pki.path("roots/tpm"))
        try FileManager.default.createDirectory(at: roots, withIntermediateDirectories: true)
        try String(contentsOfFile: t.pki.path("ca.pem"), encoding: .utf8)
            .write(to: roots.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        let refused = try await ServeProcess.runCapturingErrors(["serve", "--print-routes", "--attestation-roots", t.pki.path("roots")])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("--attestation-roots") && refused.errors.contains("(--attestation) is none"),
                "\(refused.errors)")
        #expect(try await ServeProcess.run(["serve", "--print-routes", "--attestation", "direct",
                                            "--attestation-roots", t.pki.path("roots")]).status == 0)

        let blob = t.pki.path("blob.jwt")
        try t.blob(MetadataTestPKI.payload()).write(toFile: blob, atomically: true, encoding: .utf8)
        let warned = try await ServeProcess.runCapturingErrors(["serve", "--print-routes", "--metadata", blob,
                                                                "--metadata-root", t.pki.path("ca.pem")])
        #expect(warned.status == 0)
        let lines = warned.errors.split(separator: "\n").filter { $0.contains("attestationRootProvider") }
        #expect(lines.count == 1 && lines.first?.hasPrefix("latchkey[warning] webauthn:") == true, "\(warned.errors)")
        let direct = try await ServeProcess.runCapturingErrors(["serve", "--print-routes", "--metadata", blob,
                                                                "--metadata-root", t.pki.path("ca.pem"), "--attestation", "direct"])
        #expect(direct.status == 0 && !direct.errors.contains("warning"), "\(direct.errors)")
    }

    /// A record made by hand takes its algorithm from its key (the assertion check reads the key, never the field),
    /// and refuses a key the relying party could not verify when it is made rather than at sign-in.
    @Test func aHandMadeRecordDerivesItsAlgorithmFromItsKey() async throws {
        let f = try PasskeyFixture()
        let registered = try await f.register()
        let rebuilt = try StoredCredential(id: registered.id, userHandle: registered.userHandle,
                                           publicKey: registered.publicKey, signCount: registered.signCount,
                                           backupEligible: registered.backupEligible)
        #expect(rebuilt.algorithm == COSEAlgorithm.es256.rawValue && rebuilt.attestationTrust == .none)
        let assertion = try await f.assertionResponse()
        let result = try await f.rp.verifyAuthentication(assertion) { $0 == rebuilt.id ? rebuilt : nil }
        #expect(result.credential.id == registered.id && result.credential.algorithm == -7)

        let rsa = try RSA.Signing.PrivateKey(keySize: 2048).publicKey
        let rs256 = COSEKey.rsa(algorithm: .rs256, modulus: rsa.modulus, exponent: rsa.exponent).encoded
        #expect(try StoredCredential(id: Data([1]), userHandle: Data([2]), publicKey: rs256, backupEligible: false).algorithm == -257)
        let rs1 = RS1CredentialKeyTests.coseRS1(modulus: rsa.modulus, exponent: rsa.exponent)
        #expect(try StoredCredential(id: Data([1]), userHandle: Data([2]), publicKey: rs1, backupEligible: false).algorithm == -65535)
        let ed = Curve25519.Signing.PrivateKey().publicKey.rawRepresentation
        let edKey = COSEKey.okp(algorithm: .edDSA, curve: .ed25519, x: ed).encoded
        #expect(try StoredCredential(id: Data([1]), userHandle: Data([2]), publicKey: edKey, backupEligible: true).algorithm == -8)

        let es512: CBOR = .map([.int(1): .int(2), .int(3): .int(-36), .int(-1): .int(3),
                                .int(-2): .byteString(Data(count: 66)), .int(-3): .byteString(Data(count: 66))])
        #expect(throws: WebAuthnError.unsupportedAlgorithm(-36)) {
            try StoredCredential(id: Data([1]), userHandle: Data([2]), publicKey: es512.encoded, backupEligible: false)
        }
        #expect(throws: WebAuthnError.self) {
            try StoredCredential(id: Data([1]), userHandle: Data([2]), publicKey: Data([0xa0]), backupEligible: false)
        }
        #expect(throws: WebAuthnError.self) {
            try StoredCredential(id: Data([1]), userHandle: Data([2]), publicKey: Data("not cbor".utf8), backupEligible: false)
        }
    }
}
