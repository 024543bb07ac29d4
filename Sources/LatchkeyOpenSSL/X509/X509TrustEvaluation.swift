import COpenSSL
import Foundation
import LatchkeySupport

/// A certificate chain check on OpenSSL's verifier (`X509_STORE`, `X509_STORE_CTX`, `X509_verify_cert`):
/// the leaf, helping certificates, anchors, policies and the instant — the engine behind the `Security` facade's
/// `SecTrust` on Linux.
///
/// Anchors may be any certificate (OpenSSL's partial-chain mode): a pinned intermediate or a self-signed
/// leaf ends the chain as on Apple platforms. With `trustsSystemAnchors`, the operating system's CA store
/// (`X509_STORE_set_default_paths`: /etc/ssl/certs on Debian, or `SSL_CERT_FILE` / `SSL_CERT_DIR`) is
/// trusted too. Revocation (CRL, OCSP) is not checked: that needs the network.
package struct X509TrustEvaluation: Sendable {
    /// The leaf first, then any certificates that may help build the chain (in any order).
    package var certificates: [X509Certificate]
    /// Every policy must pass. Empty: basic X.509.
    package var policies: [TrustPolicy]
    /// Certificates trusted as chain ends.
    package var anchors: [X509Certificate]
    /// Whether the system CA store is trusted besides `anchors`.
    package var trustsSystemAnchors: Bool
    /// The instant validity periods are checked at; nil: now.
    package var verifyDate: Date?

    package init(certificates: [X509Certificate], policies: [TrustPolicy] = [.basicX509], anchors: [X509Certificate] = [],
                trustsSystemAnchors: Bool = true, verifyDate: Date? = nil) {
        self.certificates = certificates
        self.policies = policies
        self.anchors = anchors
        self.trustsSystemAnchors = trustsSystemAnchors
        self.verifyDate = verifyDate
    }

    /// The outcome: the chain OpenSSL built (leaf first, ending at the anchor when trusted; as far as it
    /// got when not) and the failure, if any.
    package struct Result: Sendable {
        package let chain: [X509Certificate]
        package let error: TrustEvaluationError?
        package var isTrusted: Bool { error == nil }
    }

    /// Evaluates every policy; the first failure is reported.
    package func evaluate() -> Result {
        guard let leaf = certificates.first else { return Result(chain: [], error: .noCertificates) }
        guard let store = X509_STORE_new() else {
            return Result(chain: [leaf], error: .rejected(certificate: leaf.subjectSummary ?? "", reason: "X509_STORE_new"))
        }
        defer { X509_STORE_free(store) }
        if trustsSystemAnchors, X509_STORE_set_default_paths(store) != 1 { ERR_clear_error() }
        for anchor in anchors where X509_STORE_add_cert(store, anchor.handle) != 1 { ERR_clear_error() }
        var chain = [leaf]
        for policy in policies.isEmpty ? [.basicX509] : policies {
            let (built, error) = verify(leaf, policy: policy, store: store)
            chain = built
            if let error { return Result(chain: chain, error: error) }
        }
        return Result(chain: chain, error: nil)
    }

    /// The chain, or the reason it is not trusted.
    package func verifiedChain() throws(TrustEvaluationError) -> [X509Certificate] {
        let result = evaluate()
        if let error = result.error { throw error }
        return result.chain
    }

    private func verify(_ leaf: X509Certificate, policy: TrustPolicy,
                        store: OpaquePointer) -> ([X509Certificate], TrustEvaluationError?) {
        let name = leaf.subjectSummary ?? ""
        guard let untrusted = OPENSSL_sk_new_null() else { return ([leaf], .rejected(certificate: name, reason: "sk_new")) }
        defer { OPENSSL_sk_free(untrusted) }
        for c in certificates.dropFirst() { OPENSSL_sk_push(untrusted, UnsafeRawPointer(c.handle)) }
        guard let ctx = X509_STORE_CTX_new() else { return ([leaf], .rejected(certificate: name, reason: "X509_STORE_CTX_new")) }
        defer { X509_STORE_CTX_free(ctx) }
        guard X509_STORE_CTX_init(ctx, store, leaf.handle, untrusted) == 1, let param = X509_STORE_CTX_get0_param(ctx) else {
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
        let chain = Self.certificates(in: X509_STORE_CTX_get0_chain(ctx), reusing: certificates + anchors) ?? [leaf]
        guard !ok else { return (chain, nil) }
        let code = X509_STORE_CTX_get_error(ctx)
        let current = X509_STORE_CTX_get_current_cert(ctx).flatMap { Self.certificate($0, reusing: certificates + anchors) }
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

    /// The certificates of an OpenSSL stack, as the caller's own objects where they are the same.
    private static func certificates(in stack: OpaquePointer?, reusing known: [X509Certificate]) -> [X509Certificate]? {
        guard let stack else { return nil }
        var out: [X509Certificate] = []
        for i in 0..<OPENSSL_sk_num(stack) {
            guard let raw = OPENSSL_sk_value(stack, i),
                  let c = certificate(OpaquePointer(raw), reusing: known) else { return nil }
            out.append(c)
        }
        return out.isEmpty ? nil : out
    }

    /// The caller's certificate whose OpenSSL object `x509` is, or whose DER it has; else (a system anchor) a new one.
    private static func certificate(_ x509: OpaquePointer, reusing known: [X509Certificate]) -> X509Certificate? {
        if let same = known.first(where: { $0.handle == x509 }) { return same }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(x509, &out)
        guard length > 0, let out else { ERR_clear_error(); return nil }
        defer { CRYPTO_free(out, #file, #line) }
        let der = Data(bytes: out, count: Int(length))
        if let same = known.first(where: { $0.derRepresentation == der }) { return same }
        return try? X509Certificate(derRepresentation: der)
    }
}
