import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// `tpm` attestation (WebAuthn L3 §8.3): certInfo and pubArea built to the TPM 2.0 structures, AIK
/// certificates made by the `openssl` command.
@Suite(.offCooperativePool) struct TPMAttestationTests {
    static let tcgAttributes = ["a.2.23.133.2.1=id:FFFFF1D0", "b.2.23.133.2.2=NPCT75x", "c.2.23.133.2.3=id:0007"]

    /// `-extfile` lines of an AIK certificate; each parameter breaks one requirement of §8.3.1.
    static func aikExtensions(san: Bool = true, sanCritical: Bool = true, attributes: [String] = tcgAttributes,
                              eku: Bool = true, ca: Bool = false, aaguid: Data? = nil) -> [String] {
        var lines: [String] = []
        if san { lines.append("subjectAltName=\(sanCritical ? "critical," : "")dirName:tpm_dn") }
        if eku { lines.append("extendedKeyUsage=2.23.133.8.3") }
        lines.append("basicConstraints=critical,CA:\(ca ? "TRUE" : "FALSE")")
        if let aaguid { lines.append("1.3.6.1.4.1.45724.1.1.4=DER:0410" + aaguid.hexString) }
        if san { lines += ["[tpm_dn]"] + attributes }
        return lines
    }

    /// One registration's knobs; the defaults make a valid statement.
    struct Knobs {
        var ver = "2.0"
        var magic: UInt32 = 0xff54_4347
        var type: UInt16 = 0x8017
        var extraData: Data?
        var name: Data?
        var pubArea: Data?
        var pubAreaSuffix = Data()
        var signer: P256.Signing.PrivateKey?
        var aik: (der: Data, key: P256.Signing.PrivateKey)?
    }

    final class Scenario: Sendable {
        let pki: TestPKI
        let f: PasskeyFixture
        let credentialKey: P256.Signing.PrivateKey
        let aik: (der: Data, key: P256.Signing.PrivateKey)
        let root: Certificate

        /// `anchored`: the scenario's root is the configured `tpm` trust anchor.
        init(anchored: Bool = false, configure: (inout WebAuthnConfiguration) -> Void = { _ in }) throws {
            pki = try TestPKI()
            credentialKey = P256.Signing.PrivateKey()
            aik = try pki.leaf(name: "aik", subject: "/", extensions: TPMAttestationTests.aikExtensions())
            let root = try Certificate(derRepresentation: try pki.rootDER)
            self.root = root
            f = try PasskeyFixture {
                if anchored { $0.attestationTrustAnchors = ["tpm": [root]] }
                configure(&$0)
            }
        }
        deinit { pki.remove() }

        func aik(_ name: String, subject: String = "/", extensions: [String]) throws -> (der: Data, key: P256.Signing.PrivateKey) {
            try pki.leaf(name: name, subject: subject, extensions: extensions)
        }

        func response(_ knobs: Knobs = Knobs()) async throws -> RegistrationResponse {
            let publicKey = credentialKey.publicKey
            return try await attestedRegistration(f, key: publicKey.coseKey) { authData, hash in
                let pubArea = (knobs.pubArea ?? TPMWriter.eccPublic(x: publicKey.x, y: publicKey.y)) + knobs.pubAreaSuffix
                let certInfo = TPMWriter.certInfo(magic: knobs.magic, type: knobs.type,
                                                  extraData: knobs.extraData ?? Data(SHA256.hash(data: authData + hash)),
                                                  name: knobs.name ?? TPMWriter.name(pubArea))
                let aik = knobs.aik ?? self.aik
                let sig = try (knobs.signer ?? aik.key).signature(for: certInfo).derRepresentation
                return ("tpm", .map(["ver": .textString(knobs.ver), "alg": -7, "x5c": [.byteString(aik.der)],
                                     "sig": .byteString(sig), "certInfo": .byteString(certInfo),
                                     "pubArea": .byteString(pubArea)]))
            }
        }

        func expect(_ error: AttestationError, _ knobs: Knobs, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let response = try await response(knobs)
            await #expect(throws: WebAuthnError.attestationCheckFailed(error), sourceLocation: sourceLocation) {
                try await self.f.rp.verifyRegistration(response)
            }
        }
    }

    @Test func verifiesAnECCStatement() async throws {
        let s = try Scenario()
        let stored = try await s.f.rp.verifyRegistration(try await s.response())
        #expect(stored.attestationFormat == "tpm" && stored.attestationTrust == .uncertain)

        let anchored = try Scenario(anchored: true)
        #expect(try await anchored.f.rp.verifyRegistration(try await anchored.response()).attestationTrust == .trusted)
    }

    @Test func verifiesAnRSAStatementWithTheDefaultExponent() async throws {
        let s = try Scenario()
        let rsa = try RSA.Signing.PrivateKey(keySize: 2048)
        let cose = COSEKey.rsa(algorithm: .rs256, modulus: rsa.publicKey.modulus, exponent: rsa.publicKey.exponent)
        func response(modulus: Data) async throws -> RegistrationResponse {
            try await attestedRegistration(s.f, key: cose) { authData, hash in
                let pubArea = TPMWriter.rsaPublic(modulus: modulus)
                let certInfo = TPMWriter.certInfo(extraData: Data(SHA256.hash(data: authData + hash)), name: TPMWriter.name(pubArea))
                let sig = try s.aik.key.signature(for: certInfo).derRepresentation
                return ("tpm", .map(["ver": "2.0", "alg": -7, "x5c": [.byteString(s.aik.der)], "sig": .byteString(sig),
                                     "certInfo": .byteString(certInfo), "pubArea": .byteString(pubArea)]))
            }
        }
        let stored = try await s.f.rp.verifyRegistration(try await response(modulus: rsa.publicKey.modulus))
        #expect(stored.algorithm == -257 && stored.attestationTrust == .uncertain)
        var other = rsa.publicKey.modulus
        other.flipBit(at: 10)
        await #expect(throws: WebAuthnError.attestationCheckFailed(.credentialKeyMismatch(format: "tpm"))) {
            try await s.f.rp.verifyRegistration(try await response(modulus: other))
        }
    }

    /// RS1 (-65535): RSASSA-PKCS1-v1_5 over SHA-1 by an RSA AIK, extraData a SHA-1 digest, as older Windows
    /// Hello TPMs send; a SHA-1 nameAlg is accepted too. A SHA-256 extraData or a broken signature is still refused.
    @Test func verifiesAnRS1StatementFromAnRSAAIK() async throws {
        let s = try Scenario(anchored: true)
        let aikDER = try s.pki.rsaLeaf(name: "rsa-aik", subject: "/", extensions: Self.aikExtensions())
        let publicKey = s.credentialKey.publicKey
        func response(extraData: (Data) -> Data = { Data(Insecure.SHA1.hash(data: $0)) }, nameAlg: UInt16 = 0x0004,
                      tamper: Bool = false) async throws -> RegistrationResponse {
            try await attestedRegistration(s.f, key: publicKey.coseKey) { authData, hash in
                let pubArea = TPMWriter.eccPublic(x: publicKey.x, y: publicKey.y, nameAlg: nameAlg)
                let name = TPMWriter.u16(nameAlg) + (nameAlg == 0x0004 ? Data(Insecure.SHA1.hash(data: pubArea)) : Data(SHA256.hash(data: pubArea)))
                let certInfo = TPMWriter.certInfo(extraData: extraData(authData + hash), name: name)
                var sig = try s.pki.signSHA1(certInfo, with: "rsa-aik")
                if tamper { sig.flipBit(at: 7) }
                return ("tpm", .map(["ver": "2.0", "alg": -65535, "x5c": [.byteString(aikDER)],
                                     "sig": .byteString(sig), "certInfo": .byteString(certInfo),
                                     "pubArea": .byteString(pubArea)]))
            }
        }
        let stored = try await s.f.rp.verifyRegistration(try await response())
        #expect(stored.attestationFormat == "tpm" && stored.attestationTrust == .trusted)
        #expect(try await s.f.rp.verifyRegistration(try await response(nameAlg: 0x000b)).attestationTrust == .trusted)
        await #expect(throws: WebAuthnError.attestationCheckFailed(.tpmExtraDataMismatch)) {
            try await s.f.rp.verifyRegistration(try await response(extraData: { Data(SHA256.hash(data: $0)) }))
        }
        await #expect(throws: WebAuthnError.attestationCheckFailed(.signatureInvalid(format: "tpm"))) {
            try await s.f.rp.verifyRegistration(try await response(tamper: true))
        }
    }

    @Test func refusesEachBrokenStructureCheck() async throws {
        let s = try Scenario()
        try await s.expect(.tpmVersionUnsupported("1.2"), Knobs(ver: "1.2"))
        try await s.expect(.tpmMagicInvalid, Knobs(magic: 0xff54_4348))
        try await s.expect(.tpmTypeInvalid, Knobs(type: 0x8018))
        try await s.expect(.tpmExtraDataMismatch, Knobs(extraData: Data(count: 32)))
        try await s.expect(.tpmAttestedNameMismatch, Knobs(name: TPMWriter.u16(0x000b) + Data(count: 32)))
        let other = P256.Signing.PrivateKey().publicKey
        try await s.expect(.credentialKeyMismatch(format: "tpm"), Knobs(pubArea: TPMWriter.eccPublic(x: other.x, y: other.y)))
        let pub = s.credentialKey.publicKey
        try await s.expect(.credentialKeyMismatch(format: "tpm"),
                           Knobs(pubArea: TPMWriter.eccPublic(x: pub.x, y: pub.y, curve: 0x0004)))
        try await s.expect(.tpmPubAreaMalformed("trailing bytes"), Knobs(pubAreaSuffix: Data([0])))
        try await s.expect(.tpmPubAreaMalformed("truncated ECC point"),
                           Knobs(pubArea: TPMWriter.eccPublic(x: pub.x, y: pub.y).dropLast(1)))
        try await s.expect(.signatureInvalid(format: "tpm"), Knobs(signer: P256.Signing.PrivateKey()))
    }

    @Test func refusesAIKCertificatesThatBreakTheRequirements() async throws {
        let s = try Scenario()
        try await s.expect(.tpmSubjectNotEmpty,
                           Knobs(aik: try s.aik("named", subject: "/CN=AIK", extensions: Self.aikExtensions())))
        try await s.expect(.tpmSubjectAlternativeNameInvalid("missing"),
                           Knobs(aik: try s.aik("nosan", extensions: Self.aikExtensions(san: false))))
        try await s.expect(.tpmSubjectAlternativeNameInvalid("not critical"),
                           Knobs(aik: try s.aik("sannc", extensions: Self.aikExtensions(sanCritical: false))))
        try await s.expect(.tpmSubjectAlternativeNameInvalid("tpmModel missing"),
                           Knobs(aik: try s.aik("nomodel", extensions: Self.aikExtensions(
                               attributes: [Self.tcgAttributes[0], Self.tcgAttributes[2]]))))
        try await s.expect(.tpmExtendedKeyUsageMissing,
                           Knobs(aik: try s.aik("noeku", extensions: Self.aikExtensions(eku: false))))
        try await s.expect(.certificateIsCA(format: "tpm"),
                           Knobs(aik: try s.aik("aik-ca", extensions: Self.aikExtensions(ca: true))))
        try await s.expect(.aaguidMismatch(format: "tpm"),
                           Knobs(aik: try s.aik("aaguid", extensions: Self.aikExtensions(aaguid: Data(repeating: 0xab, count: 16)))))
        // The fixture's authenticator has the all-zero AAGUID: a matching extension passes.
        let matching = try s.aik("aaguidok", extensions: Self.aikExtensions(aaguid: Data(count: 16)))
        #expect(try await s.f.rp.verifyRegistration(try await s.response(Knobs(aik: matching))).attestationTrust == .uncertain)
    }

    @Test func everyTruncationOfTheStructuresIsRefused() throws {
        let key = P256.Signing.PrivateKey().publicKey
        let ecc = TPMWriter.eccPublic(x: key.x, y: key.y)
        let rsa = TPMWriter.rsaPublic(modulus: Data(repeating: 0xc5, count: 256))
        let certInfo = TPMWriter.certInfo(extraData: Data(count: 32), name: TPMWriter.name(ecc))
        #expect(try TPM.Public(ecc).key == .ecc(curve: 0x0003, x: key.x, y: key.y))
        #expect(try TPM.Public(rsa).key == .rsa(modulus: Data(repeating: 0xc5, count: 256), exponent: 65537))
        #expect(try TPM.Attest(certInfo).attestedName == TPMWriter.name(ecc))
        for n in 0..<ecc.count { #expect(throws: TPMParseError.self) { try TPM.Public(ecc.prefix(n)) } }
        for n in 0..<rsa.count { #expect(throws: TPMParseError.self) { try TPM.Public(rsa.prefix(n)) } }
        for n in 0..<certInfo.count { #expect(throws: TPMParseError.self) { try TPM.Attest(certInfo.prefix(n)) } }
        #expect(throws: TPMParseError.self) { try TPM.Attest(certInfo + Data([0])) }
        // A key type other than RSA and ECC (TPM_ALG_KEYEDHASH).
        #expect(throws: TPMParseError.self) { try TPM.Public(TPMWriter.u16(0x0008) + ecc.dropFirst(2)) }
    }
}
