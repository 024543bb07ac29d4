import Foundation
import LatchkeyCrypto

/// Which check of an attestation statement failed (WebAuthn L3 §8.3 `tpm`, §8.4 `android-key`,
/// §8.5 `android-safetynet`). Carried by `WebAuthnError.attestationCheckFailed`.
public enum AttestationError: Error, Sendable, Equatable {
    // Shared by the formats.
    /// A required attStmt member is missing or has the wrong CBOR type.
    case statementFieldMissing(format: String, field: String)
    /// `alg` names an algorithm this format cannot be verified with.
    case unsupportedAlgorithm(format: String, algorithm: Int)
    /// The attestation signature does not verify with the attestation certificate's key.
    case signatureInvalid(format: String)
    /// An `x5c` entry is not a certificate, the array is empty or too long, or the chain is broken.
    case certificateChainInvalid(format: String)
    /// The attestation certificate is not X.509 version 3.
    case certificateNotVersion3(format: String)
    /// The attestation certificate's basic constraints are missing or say CA.
    case certificateIsCA(format: String)
    /// The AAGUID extension (1.3.6.1.4.1.45724.1.1.4) differs from the authenticator data's AAGUID.
    case aaguidMismatch(format: String)
    /// The AAGUID extension is marked critical.
    case aaguidExtensionCritical(format: String)
    /// The key the statement attests is not the credential public key.
    case credentialKeyMismatch(format: String)

    // tpm (§8.3)
    /// `ver` is not "2.0".
    case tpmVersionUnsupported(String)
    /// `pubArea` is not a TPMT_PUBLIC of a supported key type, or has trailing bytes.
    case tpmPubAreaMalformed(String)
    /// `certInfo` is not a TPMS_ATTEST, or has trailing bytes.
    case tpmCertInfoMalformed(String)
    /// `certInfo.magic` is not TPM_GENERATED_VALUE.
    case tpmMagicInvalid
    /// `certInfo.type` is not TPM_ST_ATTEST_CERTIFIED.
    case tpmTypeInvalid
    /// `certInfo.extraData` is not the hash of authenticatorData || clientDataHash.
    case tpmExtraDataMismatch
    /// `certInfo.attested.name` is not the nameAlg digest of `pubArea`.
    case tpmAttestedNameMismatch
    /// The AIK certificate's subject is not empty.
    case tpmSubjectNotEmpty
    /// The AIK certificate has no critical subject alternative name with the TCG directory attributes.
    case tpmSubjectAlternativeNameInvalid(String)
    /// The AIK certificate's extended key usage lacks tcg-kp-AIKCertificate (2.23.133.8.3).
    case tpmExtendedKeyUsageMissing

    // android-key (§8.4)
    /// The certificate has no Android key attestation extension (1.3.6.1.4.1.11129.2.1.17).
    case androidKeyExtensionMissing
    /// The KeyDescription does not parse.
    case androidKeyDescriptionMalformed(String)
    /// `attestationChallenge` is not the client data hash.
    case androidKeyChallengeMismatch
    /// `allApplications` is present in an authorization list.
    case androidKeyAllApplicationsPresent
    /// `origin` is not KM_ORIGIN_GENERATED (or absent from the lists the policy looks at).
    case androidKeyOriginInvalid
    /// `purpose` does not contain KM_PURPOSE_SIGN.
    case androidKeyPurposeInvalid

    // android-safetynet (§8.5)
    /// `ver` is empty.
    case safetyNetVersionMissing
    /// `response` is not a compact JWS with an `x5c` header and a JSON payload.
    case safetyNetResponseMalformed(String)
    /// The leaf certificate is not issued to attest.android.com.
    case safetyNetHostnameMismatch
    /// The payload's `nonce` is not base64(SHA-256(authenticatorData || clientDataHash)).
    case safetyNetNonceMismatch
    /// `ctsProfileMatch` is not true.
    case safetyNetCTSProfileMismatch
    /// `timestampMs` is missing or outside the accepted window.
    case safetyNetTimestampOutOfRange
}

extension AttestationError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }

    /// The text in `language`.
    public func message(in language: MessageLanguage) -> String {
        let (en, ko): (String, String)
        switch self {
        case let .statementFieldMissing(f, field):
            (en, ko) = ("\(f): attStmt member \(field) is missing or malformed", "\(f): attStmt의 \(field) 항목이 없거나 형식이 잘못되었습니다")
        case let .unsupportedAlgorithm(f, a):
            (en, ko) = ("\(f): unsupported algorithm \(a)", "\(f): 지원되지 않는 알고리즘 \(a)")
        case let .signatureInvalid(f):
            (en, ko) = ("\(f): the attestation signature is invalid", "\(f): 증명 서명이 유효하지 않습니다")
        case let .certificateChainInvalid(f):
            (en, ko) = ("\(f): the x5c certificate chain is invalid", "\(f): x5c 인증서 체인이 유효하지 않습니다")
        case let .certificateNotVersion3(f):
            (en, ko) = ("\(f): the attestation certificate is not X.509 v3", "\(f): 증명 인증서가 X.509 v3가 아닙니다")
        case let .certificateIsCA(f):
            (en, ko) = ("\(f): the attestation certificate must have basic constraints CA:FALSE",
                        "\(f): 증명 인증서의 기본 제약은 CA:FALSE여야 합니다")
        case let .aaguidMismatch(f):
            (en, ko) = ("\(f): the certificate's AAGUID differs from the authenticator's", "\(f): 인증서의 AAGUID가 인증기의 것과 다릅니다")
        case let .aaguidExtensionCritical(f):
            (en, ko) = ("\(f): the AAGUID extension must not be critical", "\(f): AAGUID 확장은 critical이면 안 됩니다")
        case let .credentialKeyMismatch(f):
            (en, ko) = ("\(f): the attested key is not the credential public key", "\(f): 증명된 키가 자격 증명 공개 키가 아닙니다")
        case let .tpmVersionUnsupported(v):
            (en, ko) = ("tpm: version \(v) is not 2.0", "tpm: 버전 \(v)은(는) 2.0이 아닙니다")
        case let .tpmPubAreaMalformed(w):
            (en, ko) = ("tpm: pubArea is malformed: \(w)", "tpm: pubArea 형식이 잘못되었습니다: \(w)")
        case let .tpmCertInfoMalformed(w):
            (en, ko) = ("tpm: certInfo is malformed: \(w)", "tpm: certInfo 형식이 잘못되었습니다: \(w)")
        case .tpmMagicInvalid:
            (en, ko) = ("tpm: certInfo.magic is not TPM_GENERATED_VALUE", "tpm: certInfo.magic이 TPM_GENERATED_VALUE가 아닙니다")
        case .tpmTypeInvalid:
            (en, ko) = ("tpm: certInfo.type is not TPM_ST_ATTEST_CERTIFIED", "tpm: certInfo.type이 TPM_ST_ATTEST_CERTIFIED가 아닙니다")
        case .tpmExtraDataMismatch:
            (en, ko) = ("tpm: certInfo.extraData is not the hash of authenticator data and client data hash",
                        "tpm: certInfo.extraData가 인증기 데이터와 클라이언트 데이터 해시의 해시가 아닙니다")
        case .tpmAttestedNameMismatch:
            (en, ko) = ("tpm: certInfo.attested.name is not the name of pubArea", "tpm: certInfo.attested.name이 pubArea의 이름이 아닙니다")
        case .tpmSubjectNotEmpty:
            (en, ko) = ("tpm: the AIK certificate's subject must be empty", "tpm: AIK 인증서의 주체는 비어 있어야 합니다")
        case let .tpmSubjectAlternativeNameInvalid(w):
            (en, ko) = ("tpm: the AIK certificate's subject alternative name is invalid: \(w)",
                        "tpm: AIK 인증서의 주체 대체 이름이 유효하지 않습니다: \(w)")
        case .tpmExtendedKeyUsageMissing:
            (en, ko) = ("tpm: the AIK certificate's extended key usage lacks tcg-kp-AIKCertificate",
                        "tpm: AIK 인증서의 확장 키 용도에 tcg-kp-AIKCertificate가 없습니다")
        case .androidKeyExtensionMissing:
            (en, ko) = ("android-key: the key attestation extension is missing", "android-key: 키 증명 확장이 없습니다")
        case let .androidKeyDescriptionMalformed(w):
            (en, ko) = ("android-key: the key description is malformed: \(w)", "android-key: 키 설명 형식이 잘못되었습니다: \(w)")
        case .androidKeyChallengeMismatch:
            (en, ko) = ("android-key: attestationChallenge is not the client data hash",
                        "android-key: attestationChallenge가 클라이언트 데이터 해시가 아닙니다")
        case .androidKeyAllApplicationsPresent:
            (en, ko) = ("android-key: the key is bound to all applications", "android-key: 키가 모든 애플리케이션에 허용되어 있습니다")
        case .androidKeyOriginInvalid:
            (en, ko) = ("android-key: the key was not generated in the authenticator", "android-key: 키가 인증기 안에서 생성되지 않았습니다")
        case .androidKeyPurposeInvalid:
            (en, ko) = ("android-key: the key's purpose does not include signing", "android-key: 키 용도에 서명이 없습니다")
        case .safetyNetVersionMissing:
            (en, ko) = ("android-safetynet: ver is empty", "android-safetynet: ver가 비어 있습니다")
        case let .safetyNetResponseMalformed(w):
            (en, ko) = ("android-safetynet: the response is malformed: \(w)", "android-safetynet: 응답 형식이 잘못되었습니다: \(w)")
        case .safetyNetHostnameMismatch:
            (en, ko) = ("android-safetynet: the certificate is not issued to attest.android.com",
                        "android-safetynet: 인증서가 attest.android.com에 발급되지 않았습니다")
        case .safetyNetNonceMismatch:
            (en, ko) = ("android-safetynet: the nonce does not match", "android-safetynet: nonce가 일치하지 않습니다")
        case .safetyNetCTSProfileMismatch:
            (en, ko) = ("android-safetynet: ctsProfileMatch is not true", "android-safetynet: ctsProfileMatch가 true가 아닙니다")
        case .safetyNetTimestampOutOfRange:
            (en, ko) = ("android-safetynet: timestampMs is outside the accepted window",
                        "android-safetynet: timestampMs가 허용 범위를 벗어났습니다")
        }
        return language.pick(english: en, korean: ko)
    }
}
