import Foundation
import LatchkeyKeychain

/// The synchronous operations of ``Keychain``. They block the calling thread for the store's I/O (µs for
/// FileVault, ms for the Secret Service); from async code use the `async` overloads.
extension Keychain {
    // MARK: Writing

    /// Stores `value` (UTF-8) under `key`, updating an existing item in place.
    public func set(_ value: String, forKey key: String) throws(KeychainError) {
        try set(Data(value.utf8), forKey: key)
    }

    /// Stores `value` under `key`, updating an existing item in place.
    public func set(_ value: Data, forKey key: String) throws(KeychainError) {
        try mapped { () throws(KeychainStoreError) in try storeValue(value, forKey: key) }
    }

    /// Stores `value` JSON-encoded under `key`, updating an existing item in place.
    public func set<T: Encodable>(_ value: T, forKey key: String) throws(KeychainError) {
        try set(try Self.encode(value), forKey: key)
    }

    /// Removes the item for `key`; removing a missing item is not an error.
    public func remove(_ key: String) throws(KeychainError) {
        try mapped { () throws(KeychainStoreError) in try removeItems(key: key) }
    }

    /// Removes every item of this keychain (this service or server, this access group if set).
    public func removeAll() throws(KeychainError) {
        try mapped { () throws(KeychainStoreError) in try removeItems(key: nil) }
    }

    // MARK: Reading

    /// The string stored under `key`, or nil when there is none. Throws ``KeychainError/invalidData`` when
    /// the bytes are not UTF-8.
    public func string(forKey key: String) throws(KeychainError) -> String? {
        guard let data = try data(forKey: key) else { return nil }
        return try Self.decodeString(data)
    }

    /// The bytes stored under `key`, or nil when there is none.
    public func data(forKey key: String) throws(KeychainError) -> Data? {
        try mapped { () throws(KeychainStoreError) in try readValue(forKey: key) }
    }

    /// The `Decodable` value stored (JSON) under `key`, or nil when there is none.
    public func value<T: Decodable>(_ type: T.Type = T.self, forKey key: String) throws(KeychainError) -> T? {
        guard let data = try data(forKey: key) else { return nil }
        return try Self.decode(type, from: data)
    }

    /// Whether an item exists for `key`. Never opens the secret, so never needs authentication.
    public func contains(_ key: String) throws(KeychainError) -> Bool {
        try mapped { () throws(KeychainStoreError) in try containsItem(key: key) }
    }

    /// The keys of every item of this keychain, sorted.
    public func allKeys() throws(KeychainError) -> [String] {
        try allItems().map(\.key).sorted()
    }

    /// The attributes (no secrets) of every item of this keychain.
    public func allItems() throws(KeychainError) -> [KeychainItemInfo] {
        try mapped { () throws(KeychainStoreError) in try readAttributes(key: nil) }
    }

    /// The attributes (no secret) of the item for `key`, or nil when there is none.
    public func attributes(forKey key: String) throws(KeychainError) -> KeychainItemInfo? {
        try mapped { () throws(KeychainStoreError) in try readAttributes(key: key).first }
    }

    // MARK: Subscripts (errors read as nil / are ignored, as KeychainAccess)

    /// The string for `key`; assigning nil removes the item. Errors are swallowed: use `set`/`string` to see them.
    public subscript(key: String) -> String? {
        get { (try? string(forKey: key)) ?? nil }
        nonmutating set {
            if let newValue { try? set(newValue, forKey: key) } else { try? remove(key) }
        }
    }

    /// The string for `key` (same as the plain subscript).
    public subscript(string key: String) -> String? {
        get { self[key] }
        nonmutating set { self[key] = newValue }
    }

    /// The bytes for `key`; assigning nil removes the item.
    public subscript(data key: String) -> Data? {
        get { (try? data(forKey: key)) ?? nil }
        nonmutating set {
            if let newValue { try? set(newValue, forKey: key) } else { try? remove(key) }
        }
    }

    // MARK: - Store-level steps (throwing the store's error, so async callers can see what authentication is needed)

    func storeValue(_ value: Data, forKey key: String) throws(KeychainStoreError) {
        let query = query(key: key)
        do {
            try store.update(query, with: changes(value: value))
            return
        } catch where error.status == .itemNotFound {}
        do {
            try store.add(item(key: key, value: value), authenticationContext: authenticationContext)
        } catch where error.status == .duplicateItem {
            // Another writer added it between our update and add: update what is there now.
            try store.update(query, with: changes(value: value))
        }
    }

    func removeItems(key: String?) throws(KeychainStoreError) {
        do {
            try store.delete(query(key: key))
        } catch where error.status == .itemNotFound {}
    }

    func readValue(forKey key: String) throws(KeychainStoreError) -> Data? {
        var query = query(key: key)
        query.returnData = true
        query.matchLimit = .one
        do {
            return try store.copyMatching(query).first?.data ?? Data()
        } catch where error.status == .itemNotFound {
            return nil
        }
    }

    func containsItem(key: String) throws(KeychainStoreError) -> Bool {
        var query = query(key: key)
        query.returnAttributes = true
        query.authenticationUI = .skip
        do {
            return try !store.copyMatching(query).isEmpty
        } catch where error.status == .itemNotFound {
            return false
        } catch where error.status == .interactionNotAllowed && error.reason != .locked {
            return true  // it exists but needs authentication (as KeychainAccess's `contains`)
        }
    }

    func readAttributes(key: String?) throws(KeychainStoreError) -> [KeychainItemInfo] {
        var query = query(key: key)
        query.returnAttributes = true
        query.matchLimit = key == nil ? .all : .one
        do {
            return try store.copyMatching(query).compactMap { $0.attributes.map(KeychainItemInfo.init) }
        } catch where error.status == .itemNotFound {
            return []
        }
    }

    // MARK: - Helpers

    func mapped<T>(_ body: () throws(KeychainStoreError) -> T) throws(KeychainError) -> T {
        do {
            return try body()
        } catch {
            throw KeychainError(error)
        }
    }

    static func encode<T: Encodable>(_ value: T) throws(KeychainError) -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw .invalidData
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(KeychainError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .invalidData
        }
    }

    static func decodeString(_ data: Data) throws(KeychainError) -> String {
        guard let string = String(data: data, encoding: .utf8) else { throw .invalidData }
        return string
    }
}
