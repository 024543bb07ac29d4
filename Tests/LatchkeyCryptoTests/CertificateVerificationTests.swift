import Foundation
import Testing
import LatchkeyCrypto

/// Signature, chain and policy checks of `Certificate` / `TrustEvaluation` on the platform's verifier: OpenSSL in the
/// default Linux build; Security (`SecKeyVerifySignature`, `SecTrust`; CryptoKit for Ed25519) in the apple-frameworks
/// mode — the same expectations on both, over the certificates of Vectors/certificates.pem. Dates are chosen inside
/// (or past) each certificate's own validity, so the test does not age.
@Suite struct CertificateVerificationTests {
    /// The fixture certificates by the label line above each block.
    static let fixtures: [String: Certificate] = {
        guard let url = Bundle.module.url(forResource: "certificates", withExtension: "pem", subdirectory: "Vectors"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var out: [String: Certificate] = [:]
        var label = ""
        var block: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("-----BEGIN CERTIFICATE") { block = [line]; continue }
            if !block.isEmpty {
                block.append(line)
                if line.hasPrefix("-----END CERTIFICATE") {
                    out[label] = try? Certificate(pem: block.joined(separator: "\n"))
                    block = []
                }
            } else if !line.isEmpty {
                label = String(line)
            }
        }
        return out
    }()

    static func fixture(_ label: String) throws -> Certificate {
        try #require(fixtures[label], "no fixture \"\(label)\" in Vectors/certificates.pem")
    }

    static var root: Certificate { get throws { try fixture("SecTrust root (CompatibilityTests TestPKI)") } }
    static var intermediate: Certificate { get throws { try fixture("SecTrust intermediate, pathlen 0") } }
    static var tlsLeaf: Certificate { get throws { try fixture("SecTrust TLS leaf: SAN DNS and IP, EKU serverAuth") } }

    /// A day after `certificate` became valid.
    static func inside(_ certificate: Certificate) throws -> Date {
        try #require(certificate.notBefore).addingTimeInterval(86_400)
    }

    @Test(arguments: [
        ("SecTrust TLS leaf: SAN DNS and IP, EKU serverAuth", "SecTrust intermediate, pathlen 0", true),
        ("SecTrust intermediate, pathlen 0", "SecTrust root (CompatibilityTests TestPKI)", true),
        ("SecTrust TLS leaf: SAN DNS and IP, EKU serverAuth", "SecTrust root (CompatibilityTests TestPKI)", false),
        ("MDS RSA leaf (MetadataServiceTests)", "MDS intermediate (MetadataServiceTests)", true),           // RSA key
        ("U2F leaf under the RSA root (the quirk is made from it by CertificateParsingTests)",
         "U2F RSA root (WebAuthnU2FQuirkTests)", true),                                                    // RSA issuer
        ("RSA key, RSASSA-PSS signature with parameters", "RSA key, RSASSA-PSS signature with parameters", true),
        ("Ed25519", "Ed25519", true),
        ("v1 self-signed (no extensions)", "v1 self-signed (no extensions)", true),
        ("Ed25519", "RSA key, RSASSA-PSS signature with parameters", false),
        ("W3C WebAuthn L3 §16 test vector packed-es256 (packed): x5c[0]",
         "W3C WebAuthn L3 §16 test vectors: attestation root (W3CTestVectorTests.attestationRoot)", true),
    ])
    func signatures(subject: String, issuer: String, signed: Bool) throws {
        #expect(try Self.fixture(subject).isSigned(by: Self.fixture(issuer)) == signed)
    }

    @Test func chainsVerifyToTheirAnchorAtTheGivenInstant() throws {
        let leaf = try Self.tlsLeaf, middle = try Self.intermediate, root = try Self.root
        try leaf.verifyChain(intermediates: [middle], trustAnchors: [root], at: Self.inside(leaf))
        let late = try #require(leaf.notAfter).addingTimeInterval(86_400)
        #expect(throws: CryptoError.untrustedCertificate("certificate has expired")) {
            try leaf.verifyChain(intermediates: [middle], trustAnchors: [root], at: late)
        }
        let otherRoot = try Self.fixture("attestation test root (TestPKI)")
        #expect(throws: CryptoError.self) {
            try leaf.verifyChain(intermediates: [middle], trustAnchors: [otherRoot], at: Self.inside(leaf))
        }
        #expect(throws: CryptoError.self) { try leaf.verifyChain(intermediates: [], trustAnchors: [root], at: Self.inside(leaf)) }
        #expect(throws: CryptoError.invalidParameter("no trust anchors")) {
            try leaf.verifyChain(intermediates: [middle], trustAnchors: [], at: Self.inside(leaf))
        }
    }

    @Test func evaluationBuildsTheChainFromTheCallersCertificates() throws {
        let leaf = try Self.tlsLeaf, middle = try Self.intermediate, root = try Self.root
        let evaluation = TrustEvaluation(certificates: [leaf, middle], policies: [.tls(hostname: "leaf.example.test")],
                                         anchors: [root], trustsSystemAnchors: false, verifyDate: try Self.inside(leaf))
        let result = evaluation.evaluate()
        #expect(result.error == nil)
        #expect(result.chain.count == 3)
        #expect(result.chain.first === leaf && result.chain.last === root)
    }

    @Test func policiesAndDatesDecide() throws {
        let leaf = try Self.tlsLeaf, middle = try Self.intermediate, root = try Self.root
        let name = try #require(leaf.subjectSummary)
        func evaluate(_ policy: TrustPolicy, at date: Date? = nil, anchors: [Certificate]? = nil) throws -> TrustEvaluationError? {
            TrustEvaluation(certificates: [leaf, middle], policies: [policy], anchors: anchors ?? [root],
                            trustsSystemAnchors: false, verifyDate: try date ?? Self.inside(leaf)).evaluate().error
        }
        #expect(try evaluate(.tls(hostname: "127.0.0.1")) == nil)
        #expect(try evaluate(.tls(hostname: "other.example.test"))
                == .hostnameMismatch(certificate: name, hostname: "other.example.test"))
        #expect(try evaluate(.tls(server: false)) == .invalidPurpose(certificate: name))
        let late = try #require(leaf.notAfter).addingTimeInterval(86_400)
        // The intermediate expires with the leaf; the error may name either.
        #expect(try evaluate(.basicX509, at: late).map { if case .expired = $0 { true } else { false } } == true)
        let early = try #require(middle.notBefore).addingTimeInterval(-86_400)
        #expect(try evaluate(.basicX509, at: early) != nil)
        let unrelated = try Self.fixture("attestation test root (TestPKI)")
        #expect(try evaluate(.basicX509, anchors: [unrelated]).map { if case .notTrusted = $0 { true } else { false } } == true)
    }

    @Test func anEmptyEvaluationHasNoCertificates() {
        #expect(TrustEvaluation(certificates: []).evaluate().error == .noCertificates)
    }
}
