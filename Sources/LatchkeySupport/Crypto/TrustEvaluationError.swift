import Foundation

/// Why a certificate chain was not trusted. `certificate` is the subject summary (common name) of the
/// certificate OpenSSL rejected; messages name certificates, never key material.
public enum TrustEvaluationError: Error, Sendable, Equatable {
    /// A certificate's notAfter is before the evaluation date.
    case expired(certificate: String)
    /// A certificate's notBefore is after the evaluation date.
    case notYetValid(certificate: String)
    /// The leaf is not issued for the policy's host name or IP address.
    case hostnameMismatch(certificate: String, hostname: String)
    /// No chain from the leaf to a trusted anchor (unknown or self-signed root, missing intermediate).
    case notTrusted(certificate: String)
    /// A certificate's signature does not verify under its issuer's key.
    case invalidSignature(certificate: String)
    /// An issuer in the chain is not a certificate authority (basic constraints).
    case invalidAuthority(certificate: String)
    /// The chain is longer than an issuer's path-length constraint allows.
    case pathLengthExceeded(certificate: String)
    /// A certificate's (extended) key usage does not allow the policy's purpose.
    case invalidPurpose(certificate: String)
    /// A certificate has a critical extension OpenSSL does not understand.
    case unhandledCriticalExtension(certificate: String)
    /// Any other verification failure, with OpenSSL's reason.
    case rejected(certificate: String, reason: String)
    /// The trust object holds no certificate to evaluate.
    case noCertificates
}

extension TrustEvaluationError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case let .expired(c):
            return lang.pick(english: "“\(c)” certificate is expired.", korean: "“\(c)” 인증서가 만료되었습니다.")
        case let .notYetValid(c):
            return lang.pick(english: "“\(c)” certificate is not yet valid.", korean: "“\(c)” 인증서는 아직 유효하지 않습니다.")
        case let .hostnameMismatch(c, host):
            return lang.pick(english: "“\(c)” certificate name does not match “\(host)”.",
                             korean: "“\(c)” 인증서의 이름이 “\(host)”와 일치하지 않습니다.")
        case let .notTrusted(c):
            return lang.pick(english: "“\(c)” certificate is not trusted.", korean: "“\(c)” 인증서를 신뢰할 수 없습니다.")
        case let .invalidSignature(c):
            return lang.pick(english: "“\(c)” certificate has an invalid signature.",
                             korean: "“\(c)” 인증서의 서명이 올바르지 않습니다.")
        case let .invalidAuthority(c):
            return lang.pick(english: "“\(c)” certificate is not a valid certificate authority.",
                             korean: "“\(c)” 인증서는 올바른 인증 기관이 아닙니다.")
        case let .pathLengthExceeded(c):
            return lang.pick(english: "“\(c)” certificate exceeds the chain's path length constraint.",
                             korean: "“\(c)” 인증서가 인증서 체인의 경로 길이 제한을 넘습니다.")
        case let .invalidPurpose(c):
            return lang.pick(english: "“\(c)” certificate is not permitted for this usage.",
                             korean: "“\(c)” 인증서는 이 용도로 사용할 수 없습니다.")
        case let .unhandledCriticalExtension(c):
            return lang.pick(english: "“\(c)” certificate has an unknown critical extension.",
                             korean: "“\(c)” 인증서에 알 수 없는 필수(critical) 확장이 있습니다.")
        case let .rejected(c, reason):
            return lang.pick(english: "“\(c)” certificate is not trusted: \(reason).",
                             korean: "“\(c)” 인증서를 신뢰할 수 없습니다: \(reason).")
        case .noCertificates:
            return lang.pick(english: "No certificate to evaluate.", korean: "평가할 인증서가 없습니다.")
        }
    }
}
