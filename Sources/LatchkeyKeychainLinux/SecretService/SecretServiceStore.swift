#if canImport(CSecret)
import Foundation
import LatchkeyKeychainCore
import LatchkeyAuthCore
import LatchkeySupport

/// An ``ItemStore`` over the freedesktop Secret Service (GNOME Keyring, KWallet, KeePassXC) — for Linux
/// desktops, where the login keyring is unlocked with the session.
///
/// Semantics as the other stores (primary keys, match limits, errSec codes), with the Secret Service's limits:
/// - the keyring's lock is the only lock: while the collection is locked every operation that touches an
///   item answers errSecInteractionNotAllowed (no prompt is ever shown), whatever the item's accessibility;
/// - items with an ``AccessControl`` that needs a device authentication are refused (errSecUnimplemented,
///   `unsupportedAccessControl`): the daemon cannot gate a secret on a biometric proof — use `FileVault`;
///   `.applicationPassword` items are kept, their secret sealed under the application password;
/// - an update touching several items is not one transaction (the Secret Service has none).
/// Item layout: see `SecretServiceItemMapping`.
public final class SecretServiceStore: ItemStore {
    private let client: SecretServiceClient
    private let settings = Locked(Settings())

    private struct Settings {
        var kdf = ApplicationPasswordKDF.default
        var defaultAccessGroup: String?
    }

    /// The Argon2id costs of application-password items added or changed from now on (`.default`).
    public var applicationPasswordKDF: ApplicationPasswordKDF {
        get { settings.withLock { $0.kdf } }
        set { settings.withLock { $0.kdf = newValue } }
    }

    /// The access group given to items added without one (`nil`: none), as the other stores'.
    public var defaultAccessGroup: String? {
        get { settings.withLock { $0.defaultAccessGroup } }
        set { settings.withLock { $0.defaultAccessGroup = newValue } }
    }

    /// Connects to the running Secret Service; errSecNotAvailable when there is none.
    /// - Parameter collection: the login keyring (`.default`) or the in-memory `.session` collection.
    public init(collection: SecretServiceClient.Collection = .default) throws(KeychainStoreError) {
        do {
            client = try SecretServiceClient(collection: collection)
        } catch {
            throw KeychainStoreError(.notAvailable)
        }
    }

    /// The collection items are added to.
    public var collection: SecretServiceClient.Collection { client.collection }

    public func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) {
        var item = item
        try StoreRules.prepareForAdd(&item, defaultAccessGroup: defaultAccessGroup, now: Date())
        if item.attributes.accessControl?.requiresAuthentication == true {
            throw KeychainStoreError(.unimplemented, .unsupportedAccessControl)
        }
        let key = item.primaryKey
        // Only items agreeing on the daemon-indexed part of the primary key can collide.
        let itemClass = item.attributes.itemClass
        var probe = ItemQuery(itemClass: itemClass, synchronizable: item.attributes.synchronizable ? .yes : .no)
        for attribute in AttributeKey.primaryKey(of: itemClass) where SecretServiceItemMapping.indexed[attribute] != nil {
            probe.storedFilters[attribute] = item.attributes.values[attribute] ?? .empty(attribute.kind(for: itemClass))
        }
        let candidates = try candidates(probe, loadValues: Self.valueInPrimaryKey(itemClass))
        if candidates.contains(where: { $0.primaryKey == key }) { throw .duplicateItem }
        item.value = try AccessGate.storedValue(item.value, item.attributes.accessControl, context: authenticationContext,
                                                kdf: applicationPasswordKDF)
        let reference = UUID().uuidString
        try mapped {
            _ = try client.create(schema: SecretServiceItemMapping.schema,
                                  attributes: SecretServiceItemMapping.attributes(of: item.attributes,
                                                                                   reference: reference),
                                  label: SecretServiceItemMapping.displayLabel(item.attributes), secret: item.value)
        }
    }

    public func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] {
        try query.validate()
        var results: [QueryResult] = []
        for found in try candidates(query, loadValues: query.needsValue) where query.matches(found.attributes) {
            var value = found.value ?? Data()
            if query.needsValue {
                do throws(KeychainStoreError) {
                    value = try AccessGate.value(stored: value, found.attributes.accessControl, context: query.authenticationContext)
                } catch where query.authenticationUI == .skip {
                    continue
                }
            }
            results.append(StoreRules.result(attributes: found.attributes, value: value,
                                             reference: Data(found.reference.utf8), for: query))
            if let limit = query.matchLimit.count, results.count >= limit { break }
        }
        guard !results.isEmpty else { throw .itemNotFound }
        return results
    }

    public func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError) {
        try query.validate()
        try changes.validate(for: query.itemClass)
        if changes.accessControl?.requiresAuthentication == true {
            throw KeychainStoreError(.unimplemented, .unsupportedAccessControl)
        }
        let all = try candidates(ItemQuery(itemClass: query.itemClass, synchronizable: .any),
                                 loadValues: Self.valueInPrimaryKey(query.itemClass) || changes.accessControl != nil)
        let now = Date()
        var planned: [(found: Found, attributes: ItemAttributes, secret: Data?)] = []
        var keys = Set<Data>()
        for found in all {
            guard matches(found, query) else {
                keys.insert(found.primaryKey)
                continue
            }
            var updated = changes.applied(to: found.attributes)
            updated.modificationDate = StoreRules.nextModificationDate(after: found.attributes.modificationDate, now: now)
            var secret: Data?
            if changes.value != nil || changes.accessControl != nil {
                secret = try AccessGate.restoredValue(found.value ?? Data(), newValue: changes.value,
                                                      from: found.attributes.accessControl, to: updated.accessControl,
                                                      context: query.authenticationContext, kdf: applicationPasswordKDF)
            }
            planned.append((found, updated, secret))
        }
        guard !planned.isEmpty else { throw .itemNotFound }
        for plan in planned {
            let value = changes.value ?? plan.found.value ?? Data()
            guard keys.insert(PrimaryKey.encode(plan.attributes, value: value)).inserted else { throw .duplicateItem }
        }
        for plan in planned {
            try mapped {
                try client.update(plan.found.item, schema: SecretServiceItemMapping.schema,
                                  attributes: SecretServiceItemMapping.attributes(of: plan.attributes,
                                                                                   reference: plan.found.reference),
                                  label: SecretServiceItemMapping.displayLabel(plan.attributes), secret: plan.secret)
            }
        }
    }

    public func delete(_ query: ItemQuery) throws(KeychainStoreError) {
        try query.validate()
        let doomed = try candidates(query, loadValues: false).filter { matches($0, query) }
        guard !doomed.isEmpty else { throw .itemNotFound }
        for found in doomed {
            try mapped { try client.delete(found.item) }
        }
    }

    // MARK: - Searching

    struct Found {
        let item: SecretServiceItem
        let attributes: ItemAttributes
        let reference: String
        let value: Data?

        var primaryKey: Data { PrimaryKey.encode(attributes, value: value ?? Data()) }
    }

    /// Latchkey items the daemon matches on the query's indexed attributes, decoded; values loaded if asked.
    private func candidates(_ query: ItemQuery, loadValues: Bool) throws(KeychainStoreError) -> [Found] {
        let items = try mapped {
            try client.search(schema: SecretServiceItemMapping.schema,
                              attributes: SecretServiceItemMapping.searchAttributes(for: query),
                              loadSecrets: loadValues)
        }
        var found: [Found] = []
        for item in items {
            if item.isLocked { throw KeychainStoreError(.interactionNotAllowed, .locked) }
            let stored = item.attributes
            let attributes = try SecretServiceItemMapping.decode(stored)
            let value: Data?
            do throws(KeychainStoreError) {
                value = loadValues ? try mapped { try client.secret(of: item) } : nil
            } catch where error.status == .itemNotFound {
                continue  // deleted by another client since the search: not there
            }
            found.append(Found(item: item, attributes: attributes,
                               reference: stored[SecretServiceItemMapping.referenceKey] ?? "", value: value))
        }
        // Oldest first, so "match limit one" is stable.
        return found.sorted { ($0.attributes.creationDate ?? .distantPast) < ($1.attributes.creationDate ?? .distantPast) }
    }

    private func matches(_ found: Found, _ query: ItemQuery) -> Bool {
        if let reference = query.persistentReference, Data(found.reference.utf8) != reference { return false }
        return query.matches(found.attributes)
    }

    private static func valueInPrimaryKey(_ itemClass: ItemClass) -> Bool {
        itemClass == .certificate || itemClass == .identity
    }

    private func mapped<R>(_ body: () throws -> R) throws(KeychainStoreError) -> R {
        do {
            return try body()
        } catch let error as SecretServiceError {
            throw Self.map(error)
        } catch {
            throw KeychainStoreError(.internalComponent)
        }
    }

    /// The keychain status for a Secret Service failure.
    static func map(_ error: SecretServiceError) -> KeychainStoreError {
        switch error {
        case .locked, .dismissed: KeychainStoreError(.interactionNotAllowed, .locked)
        case .unavailable: KeychainStoreError(.notAvailable)
        case .noSuchObject: KeychainStoreError(.itemNotFound)
        case .alreadyExists: KeychainStoreError(.duplicateItem)
        case .failed: KeychainStoreError(.internalComponent)
        }
    }
}
#endif
