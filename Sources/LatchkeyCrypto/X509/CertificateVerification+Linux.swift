#if !LATCHKEY_APPLE_FRAMEWORKS
import Foundation
import LatchkeyOpenSSL

// The X.509 verification seam: the only part of X509/ that needs a platform verifier. Everything else (parsing,
// every accessor, PEM) is portable Swift over `Certificate.fields`. This file is Linux's side, over the engine's
// OpenSSL verifier (`X509Certificate`, `X509TrustEvaluation` in LatchkeyOpenSSL); `CertificateVerification+Apple.swift`
// provides the same internal API over Security (`SecCertificate`, `SecKeyVerifySignature`, `SecTrust`).
//
// The internal API (both files):
//
//   final class PlatformCertificate: Sendable
//       init(verificationDER: Data) throws(CryptoError)
//           The verifier's own object for one certificate, from `verificationDER` (the certificate's DER, or for the
//           early-U2F quirk the same bytes with the signature's unused-bits octet set to 0). Throws `.malformedInput`
//           when the verifier cannot read bytes the portable parse accepted.
//
//   extension Certificate
//       public func isSigned(by issuer: Certificate) -> Bool
//       public func verifyChain(intermediates: [Certificate], trustAnchors: [Certificate], at date: Date) throws(CryptoError)
//           `.invalidParameter` without anchors; `.untrustedCertificate(reason)` when the chain fails, the reason in
//           OpenSSL's `X509_verify_cert_error_string` words on both platforms (`TrustEvaluationError.verifyReason`);
//           `.malformedInput` when a certificate has no platform object.
//
//   extension TrustEvaluation
//       public func evaluate() -> TrustEvaluation.Result
//           Every policy in turn; the first failure is reported with the chain as far as it was built.

/// OpenSSL's object for one certificate (the engine's `X509Certificate`).
final class PlatformCertificate: Sendable {
    let x509: X509Certificate

    init(verificationDER der: Data) throws(CryptoError) {
        x509 = try X509Certificate(acceptedDER: der)
    }
}

extension Certificate {
    /// Whether `issuer`'s key verifies this certificate's signature.
    public func isSigned(by issuer: Certificate) -> Bool {
        guard let subject = try? platformCertificate().x509, let issuer = try? issuer.platformCertificate().x509 else {
            return false
        }
        return subject.isSigned(by: issuer)
    }

    /// Verifies `self` up to one of `trustAnchors` through `intermediates`, at time `date`
    /// (attestation chains are often long expired: the caller chooses the instant).
    public func verifyChain(intermediates: [Certificate], trustAnchors: [Certificate], at date: Date) throws(CryptoError) {
        guard !trustAnchors.isEmpty else { throw .invalidParameter("no trust anchors") }
        var middle: [X509Certificate] = []
        for c in intermediates { middle.append(try c.platformCertificate().x509) }
        var anchors: [X509Certificate] = []
        for c in trustAnchors { anchors.append(try c.platformCertificate().x509) }
        try platformCertificate().x509.verifyChain(intermediates: middle, trustAnchors: anchors, at: date)
    }
}

extension TrustEvaluation {
    /// Evaluates every policy; the first failure is reported.
    public func evaluate() -> Result {
        guard let leaf = certificates.first else { return Result(chain: [], error: .noCertificates) }
        guard let leafX509 = try? leaf.platformCertificate().x509 else {
            return Result(chain: [leaf], error: .rejected(certificate: leaf.subjectSummary ?? "",
                                                          reason: "the certificate cannot be read"))
        }
        // The caller's certificates by their engine object, so the built chain is given back as those objects.
        var known: [ObjectIdentifier: Certificate] = [ObjectIdentifier(leafX509): leaf]
        func engineObjects(_ list: some Sequence<Certificate>) -> [X509Certificate] {
            list.compactMap { c in
                guard let x509 = try? c.platformCertificate().x509 else { return nil }
                if known[ObjectIdentifier(x509)] == nil { known[ObjectIdentifier(x509)] = c }
                return x509
            }
        }
        let engine = X509TrustEvaluation(certificates: [leafX509] + engineObjects(certificates.dropFirst()),
                                         policies: policies, anchors: engineObjects(anchors),
                                         trustsSystemAnchors: trustsSystemAnchors, verifyDate: verifyDate)
        let result = engine.evaluate()
        let chain = result.chain.compactMap { x509 in
            known[ObjectIdentifier(x509)] ?? (try? Certificate(derRepresentation: x509.derRepresentation))
        }
        return Result(chain: chain.isEmpty ? [leaf] : chain, error: result.error)
    }
}
#endif
