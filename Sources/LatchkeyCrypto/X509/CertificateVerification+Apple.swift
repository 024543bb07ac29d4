#if LATCHKEY_APPLE_FRAMEWORKS
import CryptoKit
import Foundation
import Security

// The X.509 verification seam over Apple's Security framework (the internal API is described in
// CertificateVerification+Linux.swift). A signature is checked with the issuer's key (`SecCertificateCopyKey`,
// `SecKeyVerifySignature`; Ed25519 with CryptoKit, which Security's keys lack) over the TBSCertificate bytes; chains
// and policies with `SecTrust` (`SecTrustSetAnchorCertificates`, `…AnchorCertificatesOnly`, `SecTrustSetVerifyDate`,
// `SecTrustEvaluateWithError`). Network fetches (intermediates, revocation) are turned off, as on Linux.

/// Security's object for one certificate, and the parts of it a signature check needs.
final class PlatformCertificate: @unchecked Sendable {  // SecCertificate is immutable and safe to share across threads
    let certificate: SecCertificate
    /// The TBSCertificate's DER, the signature algorithm and the signature octets, read from the verified bytes.
    let signed: (tbs: Data, algorithm: CertificateFields.AlgorithmIdentifier, signature: Data)

    init(verificationDER der: Data) throws(CryptoError) {
        guard let certificate = SecCertificateCreateWithData(nil, der as CFData) else {
            throw .malformedInput("X.509 DER: Security cannot read the certificate")
        }
        let outer = try DERReader.parse(der, maxDepth: CertificateFields.maxDepth)
        guard let items = outer.sequenceItems, items.count == 3, let bits = items[2].bitStringValue, bits.unusedBits == 0
        else { throw .malformedInput("X.509: not SEQUENCE { TBSCertificate, signatureAlgorithm, signature }") }
        self.certificate = certificate
        signed = (items[0].derEncoding, try CertificateFields.AlgorithmIdentifier(items[1]), bits.bytes)
    }
}

extension Certificate {
    /// Whether `issuer`'s key verifies this certificate's signature.
    public func isSigned(by issuer: Certificate) -> Bool {
        guard let subject = try? platformCertificate(), let issuerObject = try? issuer.platformCertificate(),
              let algorithm = X509SignatureAlgorithm(subject.signed.algorithm) else { return false }
        let (tbs, _, signature) = subject.signed
        switch algorithm {
        case .ed25519:
            guard issuer.fields.publicKeyAlgorithm.oid == X509SignatureAlgorithm.ed25519OID,
                  let key = try? Curve25519.Signing.PublicKey(rawRepresentation: issuer.subjectPublicKeyBits) else { return false }
            return key.isValidSignature(signature, for: tbs)
        case let .secKey(secAlgorithm):
            guard let key = SecCertificateCopyKey(issuerObject.certificate) else { return false }
            return SecKeyVerifySignature(key, secAlgorithm, tbs as CFData, signature as CFData, nil)
        }
    }

    /// Verifies `self` up to one of `trustAnchors` through `intermediates`, at time `date`.
    public func verifyChain(intermediates: [Certificate], trustAnchors: [Certificate], at date: Date) throws(CryptoError) {
        guard !trustAnchors.isEmpty else { throw .invalidParameter("no trust anchors") }
        for c in [self] + intermediates + trustAnchors { _ = try c.platformCertificate() }
        let evaluation = TrustEvaluation(certificates: [self] + intermediates, policies: [.basicX509],
                                         anchors: trustAnchors, trustsSystemAnchors: false, verifyDate: date)
        if let error = evaluation.evaluate().error { throw .untrustedCertificate(error.verifyReason) }
    }

    /// The SubjectPublicKeyInfo's BIT STRING octets (the raw key of an OKP key).
    var subjectPublicKeyBits: Data {
        guard let spki = try? DERReader.parse(fields.subjectPublicKeyInfo), let items = spki.sequenceItems,
              items.count == 2, let bits = items[1].bitStringValue, bits.unusedBits == 0 else { return Data() }
        return bits.bytes
    }
}

extension TrustEvaluation {
    /// Evaluates every policy with `SecTrust`; the failure it reports first is given.
    public func evaluate() -> Result {
        guard let leaf = certificates.first else { return Result(chain: [], error: .noCertificates) }
        let name = leaf.subjectSummary ?? ""
        guard let leafObject = try? leaf.platformCertificate().certificate else {
            return Result(chain: [leaf], error: .rejected(certificate: name, reason: "the certificate cannot be read"))
        }
        let helpers = certificates.dropFirst().compactMap { try? $0.platformCertificate().certificate }
        let policyObjects = (policies.isEmpty ? [.basicX509] : policies).map(Self.secPolicy)
        var made: SecTrust?
        guard SecTrustCreateWithCertificates(([leafObject] + helpers) as CFArray, policyObjects as CFArray, &made)
                == errSecSuccess, let trust = made else {
            return Result(chain: [leaf], error: .rejected(certificate: name, reason: "SecTrustCreateWithCertificates"))
        }
        let anchorObjects = anchors.compactMap { try? $0.platformCertificate().certificate }
        if !anchorObjects.isEmpty || !trustsSystemAnchors {
            _ = SecTrustSetAnchorCertificates(trust, anchorObjects as CFArray)
        }
        _ = SecTrustSetAnchorCertificatesOnly(trust, !trustsSystemAnchors)
        if let verifyDate { _ = SecTrustSetVerifyDate(trust, verifyDate as CFDate) }
        _ = SecTrustSetNetworkFetchAllowed(trust, false)
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        let known = certificates + anchors
        let chain = ((SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []).compactMap { object in
            let der = SecCertificateCopyData(object) as Data
            return known.first { $0.derRepresentation == der } ?? (try? Certificate(derRepresentation: der))
        }
        let hostname = policies.lazy.compactMap(\.hostname).first
        return Result(chain: chain.isEmpty ? [leaf] : chain,
                      error: trusted ? nil : Self.error(error, certificate: name, hostname: hostname))
    }

    /// `SecPolicyCreateBasicX509()` or `SecPolicyCreateSSL(_:_:)` for a policy.
    private static func secPolicy(_ policy: TrustPolicy) -> SecPolicy {
        switch policy.purpose {
        case .any where policy.hostname == nil: SecPolicyCreateBasicX509()
        case .any, .tlsServer: SecPolicyCreateSSL(true, policy.hostname as CFString?)
        case .tlsClient: SecPolicyCreateSSL(false, policy.hostname as CFString?)
        }
    }

    /// Security's result code as a `TrustEvaluationError` (SecBase.h codes).
    private static func error(_ error: CFError?, certificate name: String, hostname: String?) -> TrustEvaluationError {
        let code = error.map { OSStatus(truncatingIfNeeded: CFErrorGetCode($0)) } ?? errSecNotTrusted
        switch code {
        case errSecCertificateExpired: return .expired(certificate: name)
        case errSecCertificateNotValidYet: return .notYetValid(certificate: name)
        case errSecHostNameMismatch: return .hostnameMismatch(certificate: name, hostname: hostname ?? "")
        case errSecNotTrusted: return .notTrusted(certificate: name)
        case errSecInvalidSignature: return .invalidSignature(certificate: name)
        case errSecNoBasicConstraintsCA: return .invalidAuthority(certificate: name)
        case errSecPathLengthConstraintExceeded: return .pathLengthExceeded(certificate: name)
        case errSecInvalidExtendedKeyUsage: return .invalidPurpose(certificate: name)
        case errSecUnknownCriticalExtensionFlag: return .unhandledCriticalExtension(certificate: name)
        default:
            let reason = error.map { CFErrorCopyDescription($0) as String } ?? "Security result \(code)"
            return .rejected(certificate: name, reason: reason)
        }
    }
}
#endif
