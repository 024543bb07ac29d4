import Foundation
import LatchkeyCrypto

/// Why a metadata BLOB was not accepted, or why metadata refused an authenticator.
public enum MetadataError: Error, Sendable, Equatable {
    /// The file is not a compact JWS, or its header is not one MDS3 allows (RS256 or ES256 with `x5c`).
    case malformedBLOB(String)
    /// The `x5c` chain does not lead to the supplied FIDO root (OpenSSL's reason).
    case untrustedSigner(String)
    /// The JWS signature does not verify with the `x5c` leaf's key.
    case signatureInvalid
    /// The payload is not the MDS3 JSON (`no`, `nextUpdate`, `entries`).
    case malformedPayload(String)
    /// `nextUpdate` has passed and the policy is `.refuse`: a newer BLOB must be downloaded.
    case stale(nextUpdate: Date)
    /// The root certificate file is neither PEM nor DER of a certificate.
    case unreadableRoot(String)
    /// The authenticator's latest status report says it must not be trusted (revoked or compromised).
    case authenticatorRefused(aaguid: String, status: AuthenticatorStatus)
}

extension MetadataError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case .malformedBLOB(let why):
            return lang.pick(english: "The metadata BLOB is malformed: \(why).", korean: "메타데이터 BLOB 형식이 잘못되었습니다: \(why).")
        case .untrustedSigner(let why):
            return lang.pick(english: "The metadata BLOB's signer does not chain to the FIDO root: \(why).",
                             korean: "메타데이터 BLOB 서명 인증서가 FIDO 루트로 이어지지 않습니다: \(why).")
        case .signatureInvalid:
            return lang.pick(english: "The metadata BLOB's signature is invalid.",
                             korean: "메타데이터 BLOB 서명이 유효하지 않습니다.")
        case .malformedPayload(let why):
            return lang.pick(english: "The metadata BLOB's payload is malformed: \(why).",
                             korean: "메타데이터 BLOB 내용 형식이 잘못되었습니다: \(why).")
        case .stale(let date):
            let day = date.formatted(Date.ISO8601FormatStyle().year().month().day())
            return lang.pick(english: "The metadata BLOB is out of date (next update was due \(day)).",
                             korean: "메타데이터 BLOB이 오래되었습니다 (다음 갱신 예정일 \(day)).")
        case .unreadableRoot(let why):
            return lang.pick(english: "The metadata root certificate cannot be read: \(why).",
                             korean: "메타데이터 루트 인증서를 읽을 수 없습니다: \(why).")
        case .authenticatorRefused(let aaguid, let status):
            return lang.pick(english: "The authenticator \(aaguid) is refused: its metadata status is \(status).",
                             korean: "인증기 \(aaguid)는 거부되었습니다: 메타데이터 상태가 \(status)입니다.")
        }
    }
}
