import Foundation
import LatchkeyKeychainCore
import LatchkeyCrypto

/// Errors of the OS key providers. Never contain key material.
public enum OSKeyProviderError: Error, Equatable, Sendable {
    /// The provider cannot be used here (no daemon, syscall refused...).
    case unavailable(provider: String, reason: String)
    /// The provider refused because it is locked and would need user interaction.
    case interactionNotAllowed(provider: String)
    /// The stored key has the wrong shape.
    case invalidKey(provider: String)
    /// A system call failed.
    case systemError(provider: String, operation: String, errno: Int32)
}

extension OSKeyProviderError: LocalizedError {
    public var errorDescription: String? {
        let language = MessageLanguage.current
        switch self {
        case .unavailable(let provider, let reason):
            return language.pick(english: "The \(provider) key store is not available: \(reason)",
                                 korean: "\(provider) 키 저장소를 사용할 수 없습니다: \(reason)")
        case .interactionNotAllowed(let provider):
            return language.pick(english: "The \(provider) key store is locked and needs user interaction.",
                                 korean: "\(provider) 키 저장소가 잠겨 있어 사용자 상호작용이 필요합니다.")
        case .invalidKey(let provider):
            return language.pick(english: "The key kept by \(provider) is malformed.",
                                 korean: "\(provider)에 보관된 키의 형식이 잘못되었습니다.")
        case .systemError(let provider, let operation, let code):
            let reason = String(cString: strerror(code))
            return language.pick(english: "\(provider): \(operation) failed: \(reason) (errno \(code))",
                                 korean: "\(provider): \(operation) 실패: \(reason) (errno \(code))")
        }
    }
}
