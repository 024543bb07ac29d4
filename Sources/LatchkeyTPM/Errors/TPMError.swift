import Foundation
import LatchkeySupport

/// A failure of the TPM engine. Carries tpm2-tss's response code and its text, never key material or auth values.
package enum TPMError: Error, Equatable, Sendable {
    /// No TPM is configured or reachable (`TPMSelection` found none, or the TCTI could not be opened).
    case unavailable(reason: String)
    /// The TPM refused the key's authorization value: the access control was not satisfied.
    case authorizationFailed
    /// The key blob was not made by this TPM (its owner hierarchy was cleared, or it comes from another TPM), or it
    /// was altered.
    case foreignKey
    /// The bytes are not a key blob of the expected kind.
    case malformedKey
    /// An input had the wrong size or form (a digest of another length, a point off the curve).
    case invalidParameter(String)
    /// A tpm2-tss or TPM error, with the operation that failed.
    case failed(operation: String, code: UInt32, text: String)
}

extension TPMError: LocalizedError {
    package var errorDescription: String? {
        let language = MessageLanguage.current
        switch self {
        case let .unavailable(reason):
            return language.pick(english: "No TPM 2.0 is available: \(reason)",
                                 korean: "사용할 수 있는 TPM 2.0이 없습니다: \(reason)")
        case .authorizationFailed:
            return language.pick(english: "The TPM refused the key's authorization (its access control was not satisfied).",
                                 korean: "TPM이 키 인가를 거부했습니다(접근 제어 조건이 충족되지 않았습니다).")
        case .foreignKey:
            return language.pick(english: "The key was not made by this TPM, or it was altered.",
                                 korean: "이 TPM에서 만든 키가 아니거나 변조되었습니다.")
        case .malformedKey:
            return language.pick(english: "The data is not a TPM key blob of the expected kind.",
                                 korean: "데이터가 예상한 종류의 TPM 키 블롭이 아닙니다.")
        case let .invalidParameter(what):
            return language.pick(english: "Invalid input for the TPM: \(what)", korean: "TPM 입력이 잘못되었습니다: \(what)")
        case let .failed(operation, code, text):
            let hex = String(code, radix: 16)
            return language.pick(english: "The TPM operation \(operation) failed: \(text) (0x\(hex))",
                                 korean: "TPM 작업 \(operation) 실패: \(text) (0x\(hex))")
        }
    }
}
