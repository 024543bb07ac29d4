import Foundation

/// A certificate chain check: the leaf, helping certificates, anchors, policies and the instant — the model
/// behind Security's `SecTrust`. `evaluate()` runs on the platform's verifier: `CertificateVerification+Linux.swift`
/// (OpenSSL's `X509_STORE`, `X509_STORE_CTX`, `X509_verify_cert`) or `CertificateVerification+Apple.swift` (`SecTrust`).
///
/// Anchors may be any certificate (on Linux OpenSSL's partial-chain mode): a pinned intermediate or a self-signed
/// leaf ends the chain as on Apple platforms. With `trustsSystemAnchors`, the operating system's CA store
/// (Linux: `X509_STORE_set_default_paths`, /etc/ssl/certs on Debian, or `SSL_CERT_FILE` / `SSL_CERT_DIR`; Apple
/// platforms: the system's anchors) is trusted too. Revocation (CRL, OCSP) is not checked: that needs the network.
public struct TrustEvaluation: Sendable {
    /// The leaf first, then any certificates that may help build the chain (in any order).
    public var certificates: [Certificate]
    /// Every policy must pass. Empty: basic X.509.
    public var policies: [TrustPolicy]
    /// Certificates trusted as chain ends.
    public var anchors: [Certificate]
    /// Whether the system CA store is trusted besides `anchors`.
    public var trustsSystemAnchors: Bool
    /// The instant validity periods are checked at; nil: now.
    public var verifyDate: Date?

    public init(certificates: [Certificate], policies: [TrustPolicy] = [.basicX509], anchors: [Certificate] = [],
                trustsSystemAnchors: Bool = true, verifyDate: Date? = nil) {
        self.certificates = certificates
        self.policies = policies
        self.anchors = anchors
        self.trustsSystemAnchors = trustsSystemAnchors
        self.verifyDate = verifyDate
    }

    /// The outcome: the chain OpenSSL built (leaf first, ending at the anchor when trusted; as far as it
    /// got when not) and the failure, if any.
    public struct Result: Sendable {
        public let chain: [Certificate]
        public let error: TrustEvaluationError?
        public var isTrusted: Bool { error == nil }
    }

    /// The chain, or the reason it is not trusted.
    public func verifiedChain() throws(TrustEvaluationError) -> [Certificate] {
        let result = evaluate()
        if let error = result.error { throw error }
        return result.chain
    }
}

extension TrustEvaluationError {
    /// The failure in the words of OpenSSL's `X509_verify_cert_error_string`, which `Certificate.verifyChain` reports
    /// on every platform (`CryptoError.untrustedCertificate`).
    var verifyReason: String {
        switch self {
        case .expired: "certificate has expired"
        case .notYetValid: "certificate is not yet valid"
        case .hostnameMismatch: "hostname mismatch"
        case .notTrusted: "unable to get local issuer certificate"
        case .invalidSignature: "certificate signature failure"
        case .invalidAuthority: "invalid CA certificate"
        case .pathLengthExceeded: "path length constraint exceeded"
        case .invalidPurpose: "unsupported certificate purpose"
        case .unhandledCriticalExtension: "unhandled critical extension"
        case let .rejected(_, reason): reason
        case .noCertificates: "no certificates"
        }
    }
}
