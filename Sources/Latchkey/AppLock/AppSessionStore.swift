import Foundation
import LatchkeySupport

/// Remembers when the app was last active while unlocked, so a relaunch within the timeout stays unlocked.
public protocol AppSessionStore: Sendable {
    /// The last moment the app was active and unlocked, or `nil`.
    func lastActive() -> Date?
    /// Records it (`nil` ends the session).
    func setLastActive(_ date: Date?)
}

/// In memory (tests, previews, an app that never wants relaunch-unlocked).
public final class MemoryAppSessionStore: AppSessionStore {
    private let value = Locked<Date?>(nil)

    /// Creates a store, optionally holding `date`.
    public init(_ date: Date? = nil) { value.withLock { $0 = date } }

    public func lastActive() -> Date? { value.withLock { $0 } }
    public func setLastActive(_ date: Date?) { value.withLock { $0 = date } }
}

/// In the keychain (so the timestamp cannot be moved forward by editing a plain file).
public struct KeychainAppSessionStore: AppSessionStore {
    /// The keychain holding the item.
    public let keychain: Keychain
    /// The item's key.
    public let key: String

    /// A store in `keychain` under `key`.
    public init(keychain: Keychain, key: String = "applock.session") {
        self.keychain = keychain.accessibility(.whenUnlockedThisDeviceOnly)
        self.key = key
    }

    public func lastActive() -> Date? {
        guard let text = try? keychain.string(forKey: key), let seconds = Double(text) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    public func setLastActive(_ date: Date?) {
        if let date {
            try? keychain.set(String(date.timeIntervalSince1970), forKey: key)
        } else {
            try? keychain.remove(key)
        }
    }
}
