import Foundation
import LatchkeyCrypto

/// Why a WebAuthn ceremony was refused. Each case names the check that failed (WebAuthn L3 §7.1/§7.2).
public enum WebAuthnError: Error, Sendable, Equatable {
    case malformedClientData(String)
    case malformedAuthenticatorData(String)
    case malformedAttestationObject(String)
    case malformedResponse(String)
    /// A field of the credential response JSON (its path, e.g. `response.clientDataJSON`) is not base64url.
    case invalidBase64URL(field: String)
    /// `clientData.type` is not `webauthn.create` / `webauthn.get`.
    case wrongCeremonyType(expected: String, actual: String)
    /// The challenge was never issued, already used, or belongs to another ceremony.
    case unknownChallenge
    /// The challenge was issued but its lifetime has passed.
    case expiredChallenge
    case originNotAllowed(String)
    /// The request came from a cross-origin iframe and the relying party does not allow it.
    case crossOriginNotAllowed
    case topOriginNotAllowed(String)
    /// A cross-origin ceremony without `topOrigin`, refused because `requireTopOrigin` is set.
    case topOriginMissing
    /// The challenge in the client data is not the one the relying party expected (`expectedChallenge:`).
    case challengeMismatch
    case rpIDHashMismatch
    case userPresenceMissing
    case userVerificationMissing
    /// BS set without BE (§6.1: invalid).
    case backupStateWithoutEligibility
    /// BE differs from the value stored at registration (§7.2 step 18).
    case backupEligibilityChanged
    case attestedCredentialDataMissing
    case unexpectedAttestedCredentialData
    case unsupportedAlgorithm(Int)
    case unsupportedAttestationFormat(String)
    /// The attestation statement did not verify (which check, in words).
    case attestationInvalid(String)
    case attestationNotTrusted(String)
    /// One check of a `tpm`, `android-key` or `android-safetynet` statement failed.
    case attestationCheckFailed(AttestationError)
    case credentialIDMismatch
    case credentialAlreadyRegistered
    case unknownCredential
    case userHandleMismatch
    /// A discoverable-credential sign-in whose response carries no user handle (§7.2 step 6).
    case userHandleMissing
    case signatureInvalid
    /// The sign count did not increase: the authenticator may be cloned.
    case signCountRollback(stored: UInt32, received: UInt32)
    case invalidPublicKey(String)
}

extension WebAuthnError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        let (en, ko): (String, String)
        switch self {
        case let .malformedClientData(w): (en, ko) = ("Malformed client data: \(w)", "클라이언트 데이터 형식 오류: \(w)")
        case let .malformedAuthenticatorData(w): (en, ko) = ("Malformed authenticator data: \(w)", "인증기 데이터 형식 오류: \(w)")
        case let .malformedAttestationObject(w): (en, ko) = ("Malformed attestation object: \(w)", "증명 객체 형식 오류: \(w)")
        case let .malformedResponse(w): (en, ko) = ("Malformed credential response: \(w)", "자격 증명 응답 형식 오류: \(w)")
        case let .invalidBase64URL(f): (en, ko) = ("The field '\(f)' is not base64url", "'\(f)' 필드가 base64url이 아닙니다")
        case let .wrongCeremonyType(e, a):
            (en, ko) = ("Wrong ceremony type: expected \(e), got \(a)", "의식 유형이 잘못되었습니다: \(e) 필요, \(a) 받음")
        case .unknownChallenge: (en, ko) = ("Unknown or already used challenge", "알 수 없거나 이미 사용된 챌린지입니다")
        case .expiredChallenge: (en, ko) = ("The challenge has expired", "챌린지가 만료되었습니다")
        case let .originNotAllowed(o): (en, ko) = ("Origin not allowed: \(o)", "허용되지 않은 출처: \(o)")
        case .crossOriginNotAllowed: (en, ko) = ("Cross-origin requests are not allowed", "교차 출처 요청은 허용되지 않습니다")
        case let .topOriginNotAllowed(o): (en, ko) = ("Top origin not allowed: \(o)", "허용되지 않은 최상위 출처: \(o)")
        case .topOriginMissing: (en, ko) = ("Cross-origin request without a top origin", "최상위 출처가 없는 교차 출처 요청입니다")
        case .challengeMismatch: (en, ko) = ("The challenge is not the expected one", "챌린지가 예상한 값과 다릅니다")
        case .rpIDHashMismatch: (en, ko) = ("RP ID hash does not match", "RP ID 해시가 일치하지 않습니다")
        case .userPresenceMissing: (en, ko) = ("User presence flag missing", "사용자 존재(UP) 플래그가 없습니다")
        case .userVerificationMissing: (en, ko) = ("User verification required but missing", "사용자 검증(UV)이 필요하지만 없습니다")
        case .backupStateWithoutEligibility: (en, ko) = ("Backup state set without backup eligibility", "백업 자격 없이 백업 상태가 설정되었습니다")
        case .backupEligibilityChanged: (en, ko) = ("Backup eligibility changed since registration", "등록 이후 백업 자격이 바뀌었습니다")
        case .attestedCredentialDataMissing: (en, ko) = ("Attested credential data missing", "증명된 자격 증명 데이터가 없습니다")
        case .unexpectedAttestedCredentialData: (en, ko) = ("Unexpected attested credential data in an assertion", "어설션에 예상치 않은 자격 증명 데이터가 있습니다")
        case let .unsupportedAlgorithm(a): (en, ko) = ("Unsupported COSE algorithm \(a)", "지원되지 않는 COSE 알고리즘 \(a)")
        case let .unsupportedAttestationFormat(f): (en, ko) = ("Unsupported attestation format \(f)", "지원되지 않는 증명 형식 \(f)")
        case let .attestationInvalid(w): (en, ko) = ("Attestation statement invalid: \(w)", "증명 진술이 유효하지 않습니다: \(w)")
        case let .attestationNotTrusted(w): (en, ko) = ("Attestation not trusted: \(w)", "신뢰할 수 없는 증명: \(w)")
        case let .attestationCheckFailed(e):
            (en, ko) = ("Attestation check failed: " + e.message(in: .english), "증명 검사 실패: " + e.message(in: .korean))
        case .credentialIDMismatch: (en, ko) = ("Credential id does not match", "자격 증명 ID가 일치하지 않습니다")
        case .credentialAlreadyRegistered: (en, ko) = ("Credential is already registered", "이미 등록된 자격 증명입니다")
        case .unknownCredential: (en, ko) = ("Unknown credential", "알 수 없는 자격 증명입니다")
        case .userHandleMismatch: (en, ko) = ("User handle does not own this credential", "사용자 핸들이 이 자격 증명의 소유자가 아닙니다")
        case .userHandleMissing:
            (en, ko) = ("Discoverable sign-in without a user handle", "사용자 핸들 없이 검색 가능한 자격 증명으로 로그인하려 했습니다")
        case .signatureInvalid: (en, ko) = ("Signature is invalid", "서명이 유효하지 않습니다")
        case let .signCountRollback(s, r):
            (en, ko) = ("Signature counter went from \(s) to \(r): possible cloned authenticator",
                        "서명 카운터가 \(s)에서 \(r)로 바뀌었습니다: 복제된 인증기일 수 있습니다")
        case let .invalidPublicKey(w): (en, ko) = ("Invalid credential public key: \(w)", "자격 증명 공개 키가 잘못되었습니다: \(w)")
        }
        return lang.pick(english: en, korean: ko)
    }
}
