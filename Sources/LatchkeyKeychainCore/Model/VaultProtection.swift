import Foundation
import LatchkeyCrypto

/// What protects a vault's key: each wrapping of the key is one row `wrap.<rawValue>` in the vault file.
///
/// A vault can hold several (a passphrase and the login keyring, say). A store never adds a weaker one on its
/// own: a vault protected by the login keyring or a passphrase is not re-wrapped by the device key file.
public enum VaultProtection: String, Sendable, Hashable, CaseIterable, Comparable {
    /// An OS key store: the login keyring (Secret Service, cached in the kernel keyring), or another
    /// `VaultKeyProvider` such as a TPM. Stored as `wrap.provider`.
    case keyring = "provider"
    /// The per-user device key file (`DeviceKeyFileProvider`): as strong as the file's permissions.
    case deviceKey = "device"
    /// A passphrase, stretched with Argon2id.
    case passphrase
    /// A short-lived kernel-keyring key left by `latchkey keychain unlock`.
    case session

    /// The meta row holding this wrapping.
    package var metaName: String { "wrap.\(rawValue)" }

    /// Words for messages (never a secret).
    public func displayName(_ language: MessageLanguage = .current) -> String {
        switch self {
        case .keyring: language.pick(english: "the login keyring", korean: "로그인 키링")
        case .deviceKey: language.pick(english: "the device key file", korean: "기기 키 파일")
        case .passphrase: language.pick(english: "a passphrase", korean: "암호")
        case .session: language.pick(english: "an unlock session", korean: "잠금 해제 세션")
        }
    }

    public static func < (lhs: VaultProtection, rhs: VaultProtection) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
