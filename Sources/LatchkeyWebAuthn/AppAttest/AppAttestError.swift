import Foundation
import LatchkeyCrypto

/// Why an App Attest attestation or assertion was refused, naming the check of Apple's "Validating apps that connect
/// to your server" that failed (`step`). Shared by the verifying server, which sends `step` in its error answers, and the
/// kit, which reads it back.
public enum AppAttestError: Error, Sendable, Hashable {
    /// The attestation object is not CBOR of `{fmt, attStmt, authData}`, or a member has the wrong type.
    case malformedAttestation(String)
    /// The assertion is not CBOR of `{signature, authenticatorData}`.
    case malformedAssertion(String)
    /// `fmt` is not `apple-appattest`.
    case formatInvalid(String)
    /// Step 1: the `x5c` certificates do not parse or do not chain to an App Attest root at the instant of checking.
    case certificateChainInvalid(String)
    /// Steps 2–4: the credential certificate has no readable nonce extension (1.2.840.113635.100.8.2).
    case nonceMissing
    /// Steps 2–4: the nonce extension is not `SHA256(authData ‖ clientDataHash)`.
    case nonceMismatch
    /// Step 5: the credential certificate's key is not a P-256 key whose SHA-256 is the key identifier.
    case keyIdentifierMismatch
    /// Step 6 (attestation), step 4 (assertion): the RP ID hash is not `SHA256(TEAMID.bundle.id)` of an accepted app.
    case appIDMismatch
    /// Step 7: an attestation's counter is not 0.
    case counterNotZero(UInt32)
    /// Step 8: the AAGUID is not the configured environment's.
    case environmentMismatch(expected: AppAttestEnvironment)
    /// Step 9: the credential ID is not the key identifier.
    case credentialIDMismatch
    /// Assertion: the key identifier names no attested key.
    case unknownKey
    /// Assertion steps 1–3: the signature does not verify with the attested key.
    case signatureInvalid
    /// Assertion step 5: the counter is not greater than the one last accepted for the key.
    case counterNotIncreasing(stored: UInt32, received: UInt32)
    /// Assertion step 6: the challenge is unknown, expired or was already used.
    case challengeInvalid
    /// The route requires an assertion and the request carries none.
    case assertionMissing
    /// The assertion header is not `<key id>.<challenge>.<assertion>` in base64url.
    case headerMalformed(String)

    /// The checks, by the names the server's error answers carry (`"step"`).
    public enum Step: String, Sendable, Hashable, Codable, CaseIterable {
        case malformed
        case format
        case certificateChain = "certificate_chain"
        case nonce
        case keyIdentifier = "key_id"
        case appID = "app_id"
        case counter
        case environment
        case credentialID = "credential_id"
        case unknownKey = "unknown_key"
        case signature
        case challenge
        case missing
    }

    /// The check that failed.
    public var step: Step {
        switch self {
        case .malformedAttestation, .malformedAssertion, .headerMalformed: .malformed
        case .formatInvalid: .format
        case .certificateChainInvalid: .certificateChain
        case .nonceMissing, .nonceMismatch: .nonce
        case .keyIdentifierMismatch: .keyIdentifier
        case .appIDMismatch: .appID
        case .counterNotZero, .counterNotIncreasing: .counter
        case .environmentMismatch: .environment
        case .credentialIDMismatch: .credentialID
        case .unknownKey: .unknownKey
        case .signatureInvalid: .signature
        case .challengeInvalid: .challenge
        case .assertionMissing: .missing
        }
    }
}

extension AppAttestError: LocalizedError {
    public var errorDescription: String? { message(in: .current) }

    /// The text in `language`. Never quotes the submitted bytes.
    public func message(in language: MessageLanguage) -> String {
        let (en, ko): (String, String)
        switch self {
        case .malformedAttestation(let why):
            (en, ko) = ("App Attest: the attestation object is malformed (\(why))",
                        "App Attest: 증명 객체의 형식이 잘못되었습니다 (\(why))")
        case .malformedAssertion(let why):
            (en, ko) = ("App Attest: the assertion is malformed (\(why))", "App Attest: 어서션의 형식이 잘못되었습니다 (\(why))")
        case .formatInvalid(let format):
            (en, ko) = ("App Attest: the attestation format \(format) is not apple-appattest",
                        "App Attest: 증명 형식 \(format)은(는) apple-appattest가 아닙니다")
        case .certificateChainInvalid(let why):
            (en, ko) = ("App Attest: the certificate chain does not lead to an App Attest root (\(why))",
                        "App Attest: 인증서 체인이 App Attest 루트로 이어지지 않습니다 (\(why))")
        case .nonceMissing:
            (en, ko) = ("App Attest: the credential certificate has no nonce extension",
                        "App Attest: 자격 증명 인증서에 nonce 확장이 없습니다")
        case .nonceMismatch:
            (en, ko) = ("App Attest: the nonce is not the hash of the authenticator data and the challenge",
                        "App Attest: nonce가 인증기 데이터와 챌린지의 해시가 아닙니다")
        case .keyIdentifierMismatch:
            (en, ko) = ("App Attest: the key identifier is not the hash of the certified key",
                        "App Attest: 키 식별자가 인증된 키의 해시가 아닙니다")
        case .appIDMismatch:
            (en, ko) = ("App Attest: the RP ID hash is not that of an accepted app ID",
                        "App Attest: RP ID 해시가 허용된 앱 ID의 해시가 아닙니다")
        case .counterNotZero(let counter):
            (en, ko) = ("App Attest: the attestation's counter is \(counter), not 0",
                        "App Attest: 증명의 카운터가 0이 아니라 \(counter)입니다")
        case .environmentMismatch(let expected):
            (en, ko) = ("App Attest: the AAGUID is not the \(expected.rawValue) environment's",
                        "App Attest: AAGUID가 \(expected.rawValue) 환경의 것이 아닙니다")
        case .credentialIDMismatch:
            (en, ko) = ("App Attest: the credential ID is not the key identifier",
                        "App Attest: 자격 증명 ID가 키 식별자가 아닙니다")
        case .unknownKey:
            (en, ko) = ("App Attest: no attested key has this identifier", "App Attest: 이 식별자의 증명된 키가 없습니다")
        case .signatureInvalid:
            (en, ko) = ("App Attest: the assertion's signature is invalid", "App Attest: 어서션의 서명이 유효하지 않습니다")
        case let .counterNotIncreasing(stored, received):
            (en, ko) = ("App Attest: the counter \(received) is not greater than \(stored), the last one accepted",
                        "App Attest: 카운터 \(received)이(가) 마지막으로 받아들인 \(stored)보다 크지 않습니다")
        case .challengeInvalid:
            (en, ko) = ("App Attest: the challenge is unknown, expired or already used",
                        "App Attest: 챌린지를 알 수 없거나 만료되었거나 이미 사용되었습니다")
        case .assertionMissing:
            (en, ko) = ("App Attest: this request needs an assertion (X-App-Attest-Assertion)",
                        "App Attest: 이 요청에는 어서션(X-App-Attest-Assertion)이 필요합니다")
        case .headerMalformed(let why):
            (en, ko) = ("App Attest: the X-App-Attest-Assertion header is malformed (\(why))",
                        "App Attest: X-App-Attest-Assertion 헤더의 형식이 잘못되었습니다 (\(why))")
        }
        return language.pick(english: en, korean: ko)
    }
}
