import Foundation
import LatchkeyCrypto

/// One passkey as a Latchkey server lists it (`GET /v1/passkeys`).
public struct PasskeyInfo: Sendable, Hashable, Decodable {
    public var id: String
    public var name: String
    /// ISO 8601 instants, as the server writes them.
    public var createdAt: String
    public var lastUsedAt: String?
    /// BE: the credential may be synced (a multi-device passkey).
    public var backupEligible: Bool
    /// BS: the authenticator said, at the latest use, that it is backed up (synced).
    public var backedUp: Bool
    public var transports: [String]
    public var aaguid: String?
    /// The authenticator's name (FIDO metadata) or AAGUID; nil when unknown.
    public var authenticator: String?

    enum CodingKeys: String, CodingKey {
        case id, name, transports, aaguid, authenticator
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case backupEligible = "backup_eligible"
        case backedUp = "backed_up"
    }

    /// "synced (backed up)", "syncable, not backed up" or "device-bound", from BE and BS.
    public var backupDescription: String {
        let lang = MessageLanguage.current
        if !backupEligible { return lang.pick(english: "device-bound", korean: "기기 전용") }
        return backedUp ? lang.pick(english: "synced (backed up)", korean: "동기화됨 (백업됨)")
                        : lang.pick(english: "syncable, not backed up", korean: "동기화 가능, 백업 안 됨")
    }
}
