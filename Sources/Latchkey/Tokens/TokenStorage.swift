import Foundation
import LatchkeySupport

/// When stored tokens can be read, as the keychain's accessibility classes.
public enum TokenAccessibility: String, Sendable, Hashable, CaseIterable {
    /// Only while the device is unlocked; never leaves this device (the default).
    case whenUnlockedThisDeviceOnly
    /// After the first unlock since boot, also in the background; never leaves this device.
    /// Choose it when the app refreshes tokens in the background.
    case afterFirstUnlockThisDeviceOnly
}

/// Where `TokenManager` keeps the encoded token set: one opaque blob. The default is the keychain
/// (`KeychainTokenStorage`); `MemoryTokenStorage` is for tests and previews.
public protocol TokenStorage: Sendable {
    /// The stored blob, or `nil` when none is stored.
    func load() throws(TokenManagerError) -> Data?
    /// Stores the blob, replacing any previous one.
    func save(_ data: Data) throws(TokenManagerError)
    /// Deletes the blob; deleting nothing is not an error.
    func delete() throws(TokenManagerError)
}

/// Token storage in memory (tests, previews). Thread-safe.
public final class MemoryTokenStorage: TokenStorage {
    private let blob = Locked<Data?>(nil)

    /// Creates empty storage, or storage holding `data`.
    public init(_ data: Data? = nil) {
        blob.withLock { $0 = data }
    }

    public func load() throws(TokenManagerError) -> Data? { blob.withLock { $0 } }
    public func save(_ data: Data) throws(TokenManagerError) { blob.withLock { $0 = data } }
    public func delete() throws(TokenManagerError) { blob.withLock { $0 = nil } }
}
