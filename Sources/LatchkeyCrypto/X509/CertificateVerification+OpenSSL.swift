import COpenSSL
import Foundation

// The X.509 verification seam: the only part of X509/ that needs a platform crypto library. Everything else
// (parsing, every accessor, PEM) is portable Swift over `Certificate.fields`. This file is OpenSSL's side; an
// Apple build provides the same internal API over Security (`SecCertificateCreateWithData`, `SecTrust`,
// `SecKey`), and no other file of X509/ changes.
//
// What this file provides (exactly):
//
//   final class PlatformCertificate: Sendable
//       init(verificationDER: Data) throws(CryptoError)
//           The verifier's own object for one certificate, parsed from `verificationDER` (the certificate's
//           DER, or for the early-U2F quirk the same bytes with the signature's unused-bits octet set to 0).
//           Throws `.malformedInput` when the verifier cannot read bytes the portable parse accepted.
//
//   extension Certificate
//       public func isSigned(by issuer: Certificate) -> Bool
//           Whether `issuer`'s key verifies this certificate's signature (false when either has no platform object).
//       public func verifyChain(intermediates: [Certificate], trustAnchors: [Certificate], at date: Date) throws(CryptoError)
//           Chain check to one of `trustAnchors` at `date`; throws `.invalidParameter` without anchors,
//           `.untrustedCertificate(reason)` when it fails (reasons are OpenSSL's `X509_verify_cert_error_string`
//           texts, which tests and callers compare), `.malformedInput` when a certificate has no platform object.
//
//   extension TrustEvaluation
//       public func evaluate() -> TrustEvaluation.Result
//           Every policy in turn; the first failure is reported with the chain as far as it was built.
//
// What it uses from the portable side: `Certificate.platformCertificate() throws(CryptoError) -> PlatformCertificate`
// (made on first use from `verificationDER`, then cached per certificate under `Locked`), `Certificate.init(derRepresentation:)`,
// `derRepresentation`, `subjectSummary`, `TrustEvaluation`'s stored properties, `TrustPolicy`, `TrustEvaluationError`,
// and `TrustEvaluation.Result(chain:error:)`.

/// OpenSSL's `X509` object for one certificate, owned and freed once.
final class PlatformCertificate: @unchecked Sendable {
    // @unchecked: the X509 is never modified after d2i_X509; OpenSSL's X509 is safe for concurrent readers
    // (its extension cache takes the object's own lock). Freed once, in deinit.
    let x509: OpaquePointer

    init(verificationDER der: Data) throws(CryptoError) {
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw -> OpaquePointer? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var p: UnsafePointer<UInt8>? = base
            guard let x509 = d2i_X509(nil, &p, raw.count) else { return nil }
            // The portable parse checked the DER; OpenSSL must read the same extent.
            guard p == base + raw.count else { X509_free(x509); return nil }
            return x509
        }
        guard let parsed else {
            ERR_clear_error()
            throw .malformedInput("X.509 DER: OpenSSL cannot read the certificate")
        }
        x509 = parsed
    }

    deinit { X509_free(x509) }
}

extension Certificate {
    /// Whether `issuer`'s key verifies this certificate's signature.
    public func isSigned(by issuer: Certificate) -> Bool {
        guard let subject = try? platformCertificate().x509, let issuer = try? issuer.platformCertificate().x509,
              let key = X509_get0_pubkey(issuer) else { ERR_clear_error(); return false }
        let ok = X509_verify(subject, key) == 1
        ERR_clear_error()
        return ok
    }

    /// Verifies `self` up to one of `trustAnchors` through `intermediates`, at time `date`
    /// (attestation chains are often long expired: the caller chooses the instant).
    public func verifyChain(intermediates: [Certificate], trustAnchors: [Certificate], at date: Date) throws(CryptoError) {
        guard !trustAnchors.isEmpty else { throw .invalidParameter("no trust anchors") }
        let leaf = try platformCertificate().x509
        guard let store = X509_STORE_new() else { throw .libraryFailure("X509_STORE_new") }
        defer { X509_STORE_free(store) }
        for anchor in trustAnchors {
            guard X509_STORE_add_cert(store, try anchor.platformCertificate().x509) == 1 else {
                throw .libraryFailure("X509_STORE_add_cert")
            }
        }
        guard let chain = OPENSSL_sk_new_null() else { throw .libraryFailure("sk_new") }
        defer { OPENSSL_sk_free(chain) }
        for c in intermediates { OPENSSL_sk_push(chain, UnsafeRawPointer(try c.platformCertificate().x509)) }
        guard let ctx = X509_STORE_CTX_new() else { throw .libraryFailure("X509_STORE_CTX_new") }
        defer { X509_STORE_CTX_free(ctx) }
        guard X509_STORE_CTX_init(ctx, store, leaf, chain) == 1 else {
            throw .libraryFailure("X509_STORE_CTX_init")
        }
        X509_STORE_CTX_set_time(ctx, 0, time_t(date.timeIntervalSince1970))
        guard X509_verify_cert(ctx) == 1 else {
            let code = X509_STORE_CTX_get_error(ctx)
            ERR_clear_error()
            let reason = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "code \(code)"
            throw .untrustedCertificate(reason)
        }
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
        guard let store = X509_STORE_new() else {
            return Result(chain: [leaf], error: .rejected(certificate: leaf.subjectSummary ?? "", reason: "X509_STORE_new"))
        }
        defer { X509_STORE_free(store) }
        if trustsSystemAnchors, X509_STORE_set_default_paths(store) != 1 { ERR_clear_error() }
        // The caller's certificates by their OpenSSL object, so the built chain is given back as those objects.
        var known: [OpaquePointer: Certificate] = [leafX509: leaf]
        for anchor in anchors {
            guard let x509 = try? anchor.platformCertificate().x509 else { continue }
            known[x509] = known[x509] ?? anchor
            if X509_STORE_add_cert(store, x509) != 1 { ERR_clear_error() }
        }
        var helpers: [OpaquePointer] = []
        for c in certificates.dropFirst() {
            guard let x509 = try? c.platformCertificate().x509 else { continue }
            known[x509] = known[x509] ?? c
            helpers.append(x509)
        }
        var chain = [leaf]
        for policy in policies.isEmpty ? [.basicX509] : policies {
            let (built, error) = verify(leaf, leafX509, helpers: helpers, known: known, policy: policy, store: store)
            chain = built
            if let error { return Result(chain: chain, error: error) }
        }
        return Result(chain: chain, error: nil)
    }

    private func verify(_ leaf: Certificate, _ leafX509: OpaquePointer, helpers: [OpaquePointer],
                        known: [OpaquePointer: Certificate], policy: TrustPolicy,
                        store: OpaquePointer) -> ([Certificate], TrustEvaluationError?) {
        let name = leaf.subjectSummary ?? ""
        guard let untrusted = OPENSSL_sk_new_null() else { return ([leaf], .rejected(certificate: name, reason: "sk_new")) }
        defer { OPENSSL_sk_free(untrusted) }
        for x509 in helpers { OPENSSL_sk_push(untrusted, UnsafeRawPointer(x509)) }
        guard let ctx = X509_STORE_CTX_new() else { return ([leaf], .rejected(certificate: name, reason: "X509_STORE_CTX_new")) }
        defer { X509_STORE_CTX_free(ctx) }
        guard X509_STORE_CTX_init(ctx, store, leafX509, untrusted) == 1, let param = X509_STORE_CTX_get0_param(ctx) else {
            ERR_clear_error(); return ([leaf], .rejected(certificate: name, reason: "X509_STORE_CTX_init"))
        }
        X509_VERIFY_PARAM_set_flags(param, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        if let verifyDate { X509_VERIFY_PARAM_set_time(param, time_t(verifyDate.timeIntervalSince1970.rounded(.down))) }
        switch policy.purpose {
        case .any: break
        case .tlsServer: _ = X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_SSL_SERVER)
        case .tlsClient: _ = X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_SSL_CLIENT)
        }
        if let host = policy.hostname {
            // A C string would end at an embedded NUL and match a shorter name.
            guard !host.utf8.contains(0) else { return ([leaf], .hostnameMismatch(certificate: name, hostname: host)) }
            // An IP address literal is matched against iPAddress names, anything else against dNSName.
            if X509_VERIFY_PARAM_set1_ip_asc(param, host) != 1 {
                ERR_clear_error()
                X509_VERIFY_PARAM_set_hostflags(param, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS
                                                             | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT))
                guard X509_VERIFY_PARAM_set1_host(param, host, 0) == 1 else {
                    ERR_clear_error(); return ([leaf], .hostnameMismatch(certificate: name, hostname: host))
                }
            }
        }
        let ok = X509_verify_cert(ctx) == 1
        let chain = Self.certificates(in: X509_STORE_CTX_get0_chain(ctx), known: known) ?? [leaf]
        guard !ok else { return (chain, nil) }
        let code = X509_STORE_CTX_get_error(ctx)
        let current = X509_STORE_CTX_get_current_cert(ctx).flatMap { Self.certificate($0, known: known) }
        ERR_clear_error()
        return (chain, Self.error(code, certificate: current?.subjectSummary ?? name, hostname: policy.hostname))
    }

    /// OpenSSL's verify result as a `TrustEvaluationError`.
    static func error(_ code: Int32, certificate name: String, hostname: String?) -> TrustEvaluationError {
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED: return .expired(certificate: name)
        case X509_V_ERR_CERT_NOT_YET_VALID: return .notYetValid(certificate: name)
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
            return .hostnameMismatch(certificate: name, hostname: hostname ?? "")
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
             X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
             X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_CERT_UNTRUSTED, X509_V_ERR_CERT_REJECTED:
            return .notTrusted(certificate: name)
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE,
             X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY, X509_V_ERR_EE_KEY_TOO_SMALL, X509_V_ERR_CA_KEY_TOO_SMALL,
             X509_V_ERR_CA_MD_TOO_WEAK:
            return .invalidSignature(certificate: name)
        case X509_V_ERR_INVALID_CA, X509_V_ERR_KEYUSAGE_NO_CERTSIGN: return .invalidAuthority(certificate: name)
        case X509_V_ERR_PATH_LENGTH_EXCEEDED: return .pathLengthExceeded(certificate: name)
        case X509_V_ERR_INVALID_PURPOSE: return .invalidPurpose(certificate: name)
        case X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION: return .unhandledCriticalExtension(certificate: name)
        default:
            let reason = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "OpenSSL verify error \(code)"
            return .rejected(certificate: name, reason: reason)
        }
    }

    /// The certificates of an OpenSSL stack: the caller's own objects where they are the same X509.
    private static func certificates(in stack: OpaquePointer?, known: [OpaquePointer: Certificate]) -> [Certificate]? {
        guard let stack else { return nil }
        var out: [Certificate] = []
        for i in 0..<OPENSSL_sk_num(stack) {
            guard let raw = OPENSSL_sk_value(stack, i),
                  let c = certificate(OpaquePointer(raw), known: known) else { return nil }
            out.append(c)
        }
        return out.isEmpty ? nil : out
    }

    /// One of the caller's certificates when `x509` is its object; else (a system anchor) a certificate of its DER.
    private static func certificate(_ x509: OpaquePointer, known: [OpaquePointer: Certificate]) -> Certificate? {
        if let same = known[x509] { return same }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(x509, &out)
        guard length > 0, let out else { ERR_clear_error(); return nil }
        defer { CRYPTO_free(out, #file, #line) }
        let der = Data(bytes: out, count: Int(length))
        if let same = known.values.first(where: { $0.derRepresentation == der }) { return same }
        return try? Certificate(derRepresentation: der)
    }
}
