import Foundation
import LatchkeyKeychainCore
import LatchkeyCrypto

/// A place the operating system keeps a vault's wrapping key, so a vault opens without a passphrase.
///
/// Keys are identified by a stable vault identifier (not a secret). Implementations: the Secret Service
/// (durable, in the login keyring), the kernel keyring (a fast cache that vanishes on reboot), and
/// ``CachedOSKeyProvider`` pairing the two.
public protocol OSKeyProvider: Sendable {
    /// A short name for messages and `dump` output, e.g. `secret-service`.
    var name: String { get }
    /// Whether the provider can work in this process right now (a daemon is running, the syscall is allowed).
    var isAvailable: Bool { get }
    /// The key stored for `id`, or nil when there is none.
    func loadKey(id: String) throws -> Data?
    /// Stores (or replaces) the key for `id`.
    func storeKey(_ key: Data, id: String) throws
    /// Removes the key for `id`; removing a missing key is not an error.
    func deleteKey(id: String) throws
}

extension OSKeyProvider {
    /// The key for `id`, creating and storing a random 256-bit key first when there is none.
    public func loadOrCreateKey(id: String) throws -> Data {
        if let key = try loadKey(id: id) { return key }
        let key = OSKeyProviderRandom.key(byteCount: 32)
        try storeKey(key, id: id)
        return key
    }
}

/// Random key bytes from libsodium's CSPRNG (through LatchkeyCrypto).
enum OSKeyProviderRandom {
    static func key(byteCount: Int) -> Data {
        SecureRandom.bytes(count: byteCount)
    }
}
