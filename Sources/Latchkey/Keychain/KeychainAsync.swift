import Foundation
import LatchkeyAuth
import LatchkeyKeychain

/// The `async` operations of ``Keychain``: the same calls, run on a dedicated queue off the cooperative
/// pool (the caller's actor never waits on I/O). When an access-controlled item needs authentication and
/// the keychain has an ``authenticationContext`` with `authenticationUI == .allow`, the context is evaluated
/// (prompting with ``authenticationPrompt``) and the call retried.
extension Keychain {
    /// Stores `value` (UTF-8) under `key`, updating an existing item in place.
    public func set(_ value: String, forKey key: String) async throws(KeychainError) {
        try await set(Data(value.utf8), forKey: key)
    }

    /// Stores `value` under `key`, updating an existing item in place.
    public func set(_ value: Data, forKey key: String) async throws(KeychainError) {
        try await offPool { () throws(KeychainStoreError) in try storeValue(value, forKey: key) }
    }

    /// Stores `value` JSON-encoded under `key`, updating an existing item in place.
    public func set<T: Encodable>(_ value: T, forKey key: String) async throws(KeychainError) {
        try await set(try Self.encode(value), forKey: key)
    }

    /// The string stored under `key`, or nil.
    public func string(forKey key: String) async throws(KeychainError) -> String? {
        guard let data = try await data(forKey: key) else { return nil }
        return try Self.decodeString(data)
    }

    /// The bytes stored under `key`, or nil.
    public func data(forKey key: String) async throws(KeychainError) -> Data? {
        try await offPool { () throws(KeychainStoreError) in try readValue(forKey: key) }
    }

    /// The `Decodable` value stored under `key`, or nil.
    public func value<T: Decodable>(_ type: T.Type = T.self, forKey key: String) async throws(KeychainError) -> T? {
        guard let data = try await data(forKey: key) else { return nil }
        return try Self.decode(type, from: data)
    }

    /// Removes the item for `key` (missing is not an error).
    public func remove(_ key: String) async throws(KeychainError) {
        try await offPool { () throws(KeychainStoreError) in try removeItems(key: key) }
    }

    /// Removes every item of this keychain.
    public func removeAll() async throws(KeychainError) {
        try await offPool { () throws(KeychainStoreError) in try removeItems(key: nil) }
    }

    /// Whether an item exists for `key`.
    public func contains(_ key: String) async throws(KeychainError) -> Bool {
        try await offPool { () throws(KeychainStoreError) in try containsItem(key: key) }
    }

    /// The keys of every item, sorted.
    public func allKeys() async throws(KeychainError) -> [String] {
        try await allItems().map(\.key).sorted()
    }

    /// The attributes of every item.
    public func allItems() async throws(KeychainError) -> [KeychainItemInfo] {
        try await offPool { () throws(KeychainStoreError) in try readAttributes(key: nil) }
    }

    /// The attributes of the item for `key`, or nil.
    public func attributes(forKey key: String) async throws(KeychainError) -> KeychainItemInfo? {
        try await offPool { () throws(KeychainStoreError) in try readAttributes(key: key).first }
    }

    // MARK: -

    /// Runs `body` off the pool; evaluates the authentication context once if the store asks for it.
    func offPool<T: Sendable>(_ body: @escaping @Sendable () throws(KeychainStoreError) -> T) async throws(KeychainError) -> T {
        do {
            return try await KeychainExecutor.run(body)
        } catch {
            guard authenticationUI == .allow, AccessGate.shouldEvaluate(error, context: authenticationContext, ui: .allow) else {
                throw KeychainError(error)
            }
            // What the access control needs, prompted as its flags say (and its application password, if any).
            do {
                try await AccessGate.evaluate(authenticationContext, for: error, prompt: authenticationPrompt)
            } catch {
                throw KeychainError(error)
            }
            do {
                return try await KeychainExecutor.run(body)
            } catch {
                throw KeychainError(error)
            }
        }
    }
}
