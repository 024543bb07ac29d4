import Foundation
import LatchkeyTestSupport
import Testing
import LatchkeyCrypto
import LatchkeyWebAuthn
@testable import LatchkeyServer

/// fido-u2f attestation leaves with the early-U2F signature encoding quirk (the signatureValue BIT STRING
/// declares its last octet's trailing zero bits unused), reproduced with certificates the `openssl`
/// command makes and whose DER is then rewritten.
@Suite(.offCooperativePool) struct WebAuthnU2FQuirkTests {
    /// The offset of the signature BIT STRING's unused-bits octet (short or two-octet long form).
    static func unusedBitsOffset(in der: Data) throws -> Int {
        let b = [UInt8](der)
        for k in stride(from: b.count - 2, to: 4, by: -1) where b[k] == 0 {
            let rest = b.count - k
            if b[k - 2] == 0x03, Int(b[k - 1]) == rest { return k }
            if b[k - 4] == 0x03, b[k - 3] == 0x82, Int(b[k - 2]) << 8 | Int(b[k - 1]) == rest { return k }
        }
        throw CryptoError.malformedInput("no signature BIT STRING")
    }

    /// `der` with the quirk: the signature's trailing zero bits (1…7) declared unused; nil when the
    /// signature's last octet is odd (no zero bit to declare).
    static func quirk(_ der: Data) throws -> Data? {
        let offset = try unusedBitsOffset(in: der)
        let zeros = min(7, der[der.count - 1].trailingZeroBitCount)
        guard zeros > 0 else { return nil }
        var out = der
        out[offset] = UInt8(zeros)
        return out
    }

    /// A leaf for a new P-256 key, signed by `pki`'s root, rewritten with the quirk (ECDSA and RSA
    /// signatures are randomized or not; the subject's serial varies, so a few tries find an even last octet).
    static func quirkLeaf(_ pki: TestPKI) throws -> (der: Data, key: P256.Signing.PrivateKey, plain: Data) {
        for attempt in 0..<64 {
            let leaf = try pki.leaf(name: "u2f-\(attempt)", subject: "/CN=U2F Quirk Test \(attempt)",
                                    extensions: ["basicConstraints=CA:FALSE"])
            if let rewritten = try quirk(leaf.der) { return (rewritten, leaf.key, leaf.der) }
        }
        throw CryptoError.malformedInput("no even signature octet in 64 tries")
    }

    /// A fido-u2f registration for `certificate`, signed by `signer`.
    static func u2fRegistration(_ f: PasskeyFixture, certificate: Data,
                                signer: P256.Signing.PrivateKey) async throws -> RegistrationResponse {
        var response = try await f.registrationResponse()
        let original = try AttestationObject(response.response.attestationObject.data)
        let authData = original.authenticatorData
        let cred = try #require(authData.attestedCredential)
        guard case let .ec2(_, _, x, y) = try COSEKey(cbor: cred.publicKey) else { throw CryptoError.malformedInput("key") }
        let hash = SHA256.hash(data: response.response.clientDataJSON.data)
        let signed = Data([0]) + authData.rpIDHash + hash + cred.credentialID + Data([4]) + x + y
        let sig = try signer.signature(for: signed).derRepresentation
        response.response.attestationObject = Base64URLBytes(CBOR.map([
            "fmt": "fido-u2f", "attStmt": .map(["sig": .byteString(sig), "x5c": [.byteString(certificate)]]),
            "authData": .byteString(authData.raw)]).encoded)
        return response
    }

    @Test func reproducesTheFailureAndTheQuirkIsNarrow() throws {
        let pki = try TestPKI()
        defer { pki.remove() }
        let root = try Certificate(derRepresentation: try pki.rootDER)
        let leaf = try Self.quirkLeaf(pki)
        // OpenSSL parses the quirk leaf, but never verifies its signature: the chain check fails.
        let strict = try Certificate(derRepresentation: leaf.der)
        #expect(strict.declaresUnusedSignatureBits)
        #expect(!strict.isSigned(by: root))
        #expect(throws: CryptoError.untrustedCertificate("certificate signature failure")) {
            try strict.verifyChain(intermediates: [], trustAnchors: [root], at: Date())
        }
        // Tolerated, the real signature over the original TBS verifies, and the DER is kept as given.
        let tolerant = try Certificate(derRepresentationToleratingUnusedSignatureBits: leaf.der)
        #expect(tolerant.derRepresentation == leaf.der && tolerant.declaresUnusedSignatureBits)
        #expect(tolerant.isSigned(by: root))
        try tolerant.verifyChain(intermediates: [], trustAnchors: [root], at: Date())
        // The rest of the chain check still runs: an expired leaf is refused.
        #expect(throws: CryptoError.untrustedCertificate("certificate has expired")) {
            try tolerant.verifyChain(intermediates: [], trustAnchors: [root], at: Date().addingTimeInterval(400 * 86_400))
        }
        // A well-formed certificate is not touched.
        let plain = try Certificate(derRepresentationToleratingUnusedSignatureBits: leaf.plain)
        #expect(!plain.declaresUnusedSignatureBits && plain.isSigned(by: root))
        // Declared unused bits that are not zero are not the quirk: OpenSSL's parse would change them.
        var nonzero = leaf.plain
        let offset = try Self.unusedBitsOffset(in: nonzero)
        nonzero[offset] = 7
        nonzero[nonzero.count - 1] |= 0x01
        #expect(throws: CryptoError.self) { try Certificate(derRepresentationToleratingUnusedSignatureBits: nonzero) }
        // More than 7 unused bits is malformed either way.
        var eight = leaf.der
        eight[offset] = 8
        #expect(throws: CryptoError.self) { try Certificate(derRepresentationToleratingUnusedSignatureBits: eight) }
    }

    @Test func quirkLeafIsTrustedUnderItsRootOnly() async throws {
        let pki = try TestPKI()
        defer { pki.remove() }
        let root = try Certificate(derRepresentation: try pki.rootDER)
        let leaf = try Self.quirkLeaf(pki)
        let f = try PasskeyFixture { $0.attestationTrustAnchors = ["fido-u2f": [root]] }

        let stored = try await f.rp.verifyRegistration(try await Self.u2fRegistration(f, certificate: leaf.der, signer: leaf.key))
        #expect(stored.attestationFormat == "fido-u2f" && stored.attestationTrust == .trusted)

        // A changed TBS (one letter of the subject) no longer matches the root's signature.
        var tampered = leaf.der
        let name = try #require(tampered.range(of: Data("Quirk".utf8)))
        tampered[name.lowerBound] ^= 0x01
        let tamperedResponse = try await Self.u2fRegistration(f, certificate: tampered, signer: leaf.key)
        await #expect(throws: WebAuthnError.attestationNotTrusted("fido-u2f: \(CryptoError.untrustedCertificate("certificate signature failure"))")) {
            try await f.rp.verifyRegistration(tamperedResponse)
        }
        // A changed signature octet (the quirk kept) is refused.
        var badSignature = leaf.der
        badSignature[badSignature.count - 8] ^= 0x10
        #expect(try Certificate(derRepresentation: badSignature).declaresUnusedSignatureBits)
        let badSignatureResponse = try await Self.u2fRegistration(f, certificate: badSignature, signer: leaf.key)
        await #expect(throws: WebAuthnError.self) { try await f.rp.verifyRegistration(badSignatureResponse) }

        // Another vendor's root does not vouch for it.
        let other = try TestPKI()
        defer { other.remove() }
        let otherRoot = try Certificate(derRepresentation: try other.rootDER)
        let g = try PasskeyFixture { $0.attestationTrustAnchors = ["fido-u2f": [otherRoot]] }
        let foreign = try await Self.u2fRegistration(g, certificate: leaf.der, signer: leaf.key)
        await #expect(throws: WebAuthnError.self) { try await g.rp.verifyRegistration(foreign) }

        // Without anchors it is "uncertain", as any fido-u2f leaf.
        let h = try PasskeyFixture()
        let uncertain = try await h.rp.verifyRegistration(try await Self.u2fRegistration(h, certificate: leaf.der, signer: leaf.key))
        #expect(uncertain.attestationTrust == .uncertain)
    }

    @Test func wellFormedLeafWithBrokenSignatureIsStillRefused() async throws {
        let pki = try TestPKI()
        defer { pki.remove() }
        let root = try Certificate(derRepresentation: try pki.rootDER)
        let leaf = try pki.leaf(name: "broken", subject: "/CN=U2F Broken", extensions: ["basicConstraints=CA:FALSE"])
        var broken = leaf.der
        broken[broken.count - 8] ^= 0x10
        #expect(try !Certificate(derRepresentationToleratingUnusedSignatureBits: broken).isSigned(by: root))
        let f = try PasskeyFixture { $0.attestationTrustAnchors = ["fido-u2f": [root]] }
        let response = try await Self.u2fRegistration(f, certificate: broken, signer: leaf.key)
        await #expect(throws: WebAuthnError.attestationNotTrusted("fido-u2f: \(CryptoError.untrustedCertificate("certificate signature failure"))")) {
            try await f.rp.verifyRegistration(response)
        }
    }

    /// The vendor case: an RSA-2048 root (sha256WithRSAEncryption, a 257-octet BIT STRING) over a P-256 leaf.
    @Test func quirkUnderAnRSARootIsTrusted() async throws {
        let pki = try TestPKI()
        defer { pki.remove() }
        try pki.run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", pki.path("ca.key"),
                     "-out", pki.path("ca.pem"), "-days", "3650", "-subj", "/CN=Latchkey Test U2F RSA Root",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"])
        let root = try Certificate(derRepresentation: try pki.rootDER)
        let leaf = try Self.quirkLeaf(pki)
        let offset = try Self.unusedBitsOffset(in: leaf.plain)
        #expect(offset == leaf.der.count - 257 && leaf.der[offset - 4] == 0x03 && leaf.der[offset] != 0)
        #expect(!(try Certificate(derRepresentation: leaf.der)).isSigned(by: root))
        let f = try PasskeyFixture { $0.attestationTrustAnchors = ["fido-u2f": [root]] }
        let stored = try await f.rp.verifyRegistration(try await Self.u2fRegistration(f, certificate: leaf.der, signer: leaf.key))
        #expect(stored.attestationTrust == .trusted)
    }

    /// Only fido-u2f tolerates the quirk: a packed leaf with it is not trusted.
    @Test func packedLeafWithTheQuirkIsNotTrusted() async throws {
        let pki = try TestPKI()
        defer { pki.remove() }
        let root = try Certificate(derRepresentation: try pki.rootDER)
        var found: (der: Data, key: P256.Signing.PrivateKey)?
        for attempt in 0..<64 where found == nil {
            let leaf = try pki.leaf(name: "packed-\(attempt)", subject: "/C=KR/O=Latchkey Test/OU=Authenticator Attestation/CN=Q\(attempt)",
                                    extensions: ["basicConstraints=critical,CA:FALSE"])
            if let rewritten = try Self.quirk(leaf.der) { found = (rewritten, leaf.key) }
        }
        let leaf = try #require(found)
        let f = try PasskeyFixture { $0.attestationTrustAnchors = ["packed": [root]] }
        var response = try await f.registrationResponse()
        let original = try AttestationObject(response.response.attestationObject.data)
        let hash = SHA256.hash(data: response.response.clientDataJSON.data)
        let sig = try leaf.key.signature(for: original.authenticatorData.raw + hash).derRepresentation
        response.response.attestationObject = Base64URLBytes(CBOR.map([
            "fmt": "packed", "attStmt": .map(["alg": -7, "sig": .byteString(sig), "x5c": [.byteString(leaf.der)]]),
            "authData": .byteString(original.authenticatorData.raw)]).encoded)
        await #expect(throws: WebAuthnError.attestationNotTrusted("packed: \(CryptoError.untrustedCertificate("certificate signature failure"))")) {
            try await f.rp.verifyRegistration(response)
        }
    }
}
