import Foundation
import LatchkeyKeychainCore

/// A durable provider fronted by a fast cache: reads try the cache first and refill it from the durable
/// store; writes and deletes go to both. A failing cache never fails an operation.
///
/// On Linux the usual pair is ``SecretServiceKeyProvider`` (durable) + ``KernelKeyringProvider`` (cache).
public struct CachedOSKeyProvider: OSKeyProvider {
    /// Where the key really lives.
    public let durable: any OSKeyProvider
    /// Where a copy is kept for speed.
    public let cache: any OSKeyProvider

    public var name: String { "\(durable.name)+\(cache.name)" }

    /// Pairs `durable` with `cache`.
    public init(durable: any OSKeyProvider, cache: any OSKeyProvider) {
        self.durable = durable
        self.cache = cache
    }

    /// Available when the durable store is (the cache alone would lose the key at reboot).
    public var isAvailable: Bool { durable.isAvailable }

    public func loadKey(id: String) throws -> Data? {
        if cache.isAvailable, let key = try? cache.loadKey(id: id) { return key }
        guard let key = try durable.loadKey(id: id) else { return nil }
        if cache.isAvailable { try? cache.storeKey(key, id: id) }
        return key
    }

    public func storeKey(_ key: Data, id: String) throws {
        try durable.storeKey(key, id: id)
        if cache.isAvailable { try? cache.storeKey(key, id: id) }
    }

    public func deleteKey(id: String) throws {
        if cache.isAvailable { try? cache.deleteKey(id: id) }
        try durable.deleteKey(id: id)
    }
}

extension CachedOSKeyProvider {
    /// The platform's best provider: on Linux the Secret Service cached in the kernel keyring;
    /// nil when no durable OS key store exists in this build.
    public static func platformDefault(cacheTimeout: UInt32? = 3600) -> (any OSKeyProvider)? {
        #if canImport(CSecret) && canImport(CKeyutils)
        return CachedOSKeyProvider(durable: SecretServiceKeyProvider(),
                                   cache: KernelKeyringProvider(timeout: cacheTimeout))
        #elseif canImport(CSecret)
        return SecretServiceKeyProvider()
        #else
        return nil
        #endif
    }
}

/// The OS key providers this build has, for code that must not depend on which C libraries exist.
public enum OSKeyProviders {
    /// The kernel keyring (a cache that vanishes on reboot), or nil when this build or process has none.
    public static func kernelKeyring(timeout: UInt32?, descriptionPrefix: String) -> (any OSKeyProvider)? {
        #if canImport(CKeyutils)
        let provider = KernelKeyringProvider(timeout: timeout, descriptionPrefix: descriptionPrefix)
        return provider.isAvailable ? provider : nil
        #else
        return nil
        #endif
    }

    /// The Secret Service (durable, the login keyring), or nil when this build has none or no daemon runs.
    public static func secretService() -> (any OSKeyProvider)? {
        #if canImport(CSecret)
        let provider = SecretServiceKeyProvider()
        return provider.isAvailable ? provider : nil
        #else
        return nil
        #endif
    }
}
