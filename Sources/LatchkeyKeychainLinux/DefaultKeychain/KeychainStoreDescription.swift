import Foundation
import LatchkeyKeychainCore
import LatchkeyCrypto

/// Which store the default keychain opened, and how its key is protected — what `latchkey keychain
/// status` prints and what the library logs once (never a secret).
public struct KeychainStoreDescription: Sendable, Hashable, CustomStringConvertible {
    /// The store in use (never ``KeychainStoreChoice/automatic``).
    public let store: KeychainStoreChoice
    /// The vault file; nil for `memory`.
    public let vaultURL: URL?
    /// The device key file, for `file`.
    public let deviceKeyURL: URL?
    /// True when the vault file does not exist yet (it is created on first use).
    public let isNewVault: Bool
    /// Why this store: `LATCHKEY_KEYCHAIN=…`, or the automatic choice's reason (English).
    public let reason: String

    /// What protects the key, in words (English or Korean).
    public func protection(_ language: MessageLanguage = .current) -> String {
        switch store {
        case .keyring:
            return language.pick(english: "vault key kept by the login keyring (Secret Service)",
                                 korean: "보관소 키를 로그인 키링(Secret Service)이 보관")
        case .file:
            let path = deviceKeyURL?.path ?? "?"
            return language.pick(
                english: "vault key wrapped by the device key file \(path) — as safe as that file (readable by you and root)",
                korean: "보관소 키를 기기 키 파일 \(path)이(가) 감쌈 — 그 파일만큼 안전함(본인과 root가 읽을 수 있음)")
        case .passphrase:
            return language.pick(english: "vault key wrapped by a passphrase (Argon2id); locked until unlocked",
                                 korean: "보관소 키를 암호(Argon2id)가 감쌈; 잠금 해제 전까지 잠김")
        case .memory, .automatic:
            return language.pick(english: "process memory only; nothing is kept after the process ends",
                                 korean: "프로세스 메모리에만 보관; 프로세스가 끝나면 남지 않음")
        }
    }

    /// One line, e.g. `file vault /home/me/.local/share/latchkey/default.vault (vault key wrapped by …; no login keyring runs)`.
    public var description: String {
        let place = vaultURL.map { " vault \($0.path)" + (isNewVault ? " (new)" : "") } ?? ""
        return "\(store.rawValue)\(place): \(protection(.english)); chosen because \(reason)"
    }
}
