import Foundation
import LatchkeyAuthCore

/// Translation between SecItem dictionaries (`[String: Any]` with Apple's raw keys, as `CFDictionary`
/// carries them) and the Swift model. Portable: the Linux `Security` facade and `AppleKeychainStore` both
/// use it, and the Linux tests cover it. Malformed input throws errSecParam, never traps.
///
/// Values an outside module supplies: "accc" may be an `AccessControl` or any `AccessControlConvertible`;
/// "u_AuthCtx" may be `any AuthenticationContext` or any `AuthenticationContextConvertible`.
public enum QueryDictionary {
    /// What `SecItemAdd` was asked: the item, the context for access-controlled items, and the return keys.
    public struct AddRequest: Sendable {
        /// The item to add.
        public var item: Item
        /// `kSecUseAuthenticationContext`, if given.
        public var authenticationContext: (any AuthenticationContext)?
        /// The return keys (`r_Data`…), and a query matching the new item, for `SecItemAdd`'s result.
        public var resultQuery: ItemQuery
    }

    // MARK: Parsing

    /// Parses a `SecItemCopyMatching` / `SecItemUpdate` / `SecItemDelete` query.
    public static func query(_ dict: [String: Any]) throws(KeychainStoreError) -> ItemQuery {
        let cls = try itemClass(dict)
        var q = ItemQuery(itemClass: cls)
        let allowed = AttributeKey.applicable(to: cls)
        for (key, value) in dict where key != QueryKeys.itemClass {
            if let attr = AttributeKey(rawValue: key) {
                guard allowed.contains(attr), let v = DictionaryValues.attribute(value, kind: attr.kind(for: cls), key: attr) else {
                    throw .malformed(key)
                }
                q.storedFilters[attr] = v
                continue
            }
            switch key {
            case QueryKeys.synchronizable:
                if let s = DictionaryValues.string(value), s == QueryKeys.synchronizableAny { q.synchronizable = .any }
                else if let b = DictionaryValues.bool(value) { q.synchronizable = b ? .yes : .no }
                else { throw .malformed(key) }
            case QueryKeys.accessible: q.accessibility = try accessibility(value)
            case QueryKeys.matchLimit:
                if let s = DictionaryValues.string(value) {
                    switch s {
                    case QueryKeys.matchLimitOne: q.matchLimit = .one
                    case QueryKeys.matchLimitAll: q.matchLimit = .all
                    default: throw .malformed(key)
                    }
                } else if let n = DictionaryValues.int(value), n >= 1 {
                    q.matchLimit = n == 1 ? .one : .upTo(Int(clamping: n))
                } else { throw .malformed(key) }
            case QueryKeys.returnData: q.returnData = try bool(value, key)
            case QueryKeys.returnAttributes: q.returnAttributes = try bool(value, key)
            case QueryKeys.returnRef: q.returnReference = try bool(value, key)
            case QueryKeys.returnPersistentRef: q.returnPersistentReference = try bool(value, key)
            case QueryKeys.valuePersistentRef:
                guard let d = DictionaryValues.data(value) else { throw .malformed(key) }
                q.persistentReference = d
            case QueryKeys.useAuthenticationContext: q.authenticationContext = try context(value)
            case QueryKeys.useAuthenticationUI:
                guard let s = DictionaryValues.string(value), let ui = AuthenticationUI(rawValue: s) else { throw .malformed(key) }
                q.authenticationUI = ui
            case QueryKeys.useNoAuthenticationUI:
                if try bool(value, key) { q.authenticationUI = .fail }
            case QueryKeys.useOperationPrompt:
                guard let s = DictionaryValues.string(value) else { throw .malformed(key) }
                q.operationPrompt = s
            case QueryKeys.valueData, QueryKeys.creationDate, QueryKeys.modificationDate, QueryKeys.accessControl:
                continue // not search criteria in Keychain Services; accepted and ignored
            default:
                if QueryKeys.ignored.contains(key) { continue }
                throw .malformed(key)
            }
        }
        return q
    }

    /// Parses a `SecItemAdd` dictionary.
    public static func addRequest(_ dict: [String: Any]) throws(KeychainStoreError) -> AddRequest {
        let cls = try itemClass(dict)
        var attributes = ItemAttributes(itemClass: cls)
        var value = Data()
        var resultQuery = ItemQuery(itemClass: cls)
        var context: (any AuthenticationContext)?
        let allowed = AttributeKey.applicable(to: cls)
        for (key, raw) in dict where key != QueryKeys.itemClass {
            if let attr = AttributeKey(rawValue: key) {
                guard allowed.contains(attr), let v = DictionaryValues.attribute(raw, kind: attr.kind(for: cls), key: attr) else {
                    throw .malformed(key)
                }
                attributes.values[attr] = v
                continue
            }
            switch key {
            case QueryKeys.valueData:
                guard let d = DictionaryValues.data(raw) else { throw .malformed(key) }
                value = d
            case QueryKeys.synchronizable:
                guard let b = DictionaryValues.bool(raw) else { throw .malformed(key) }
                attributes.synchronizable = b
            case QueryKeys.accessible: attributes.accessibility = try accessibility(raw)
            case QueryKeys.accessControl: attributes.accessControl = try accessControl(raw)
            case QueryKeys.returnData: resultQuery.returnData = try bool(raw, key)
            case QueryKeys.returnAttributes: resultQuery.returnAttributes = try bool(raw, key)
            case QueryKeys.returnRef: resultQuery.returnReference = try bool(raw, key)
            case QueryKeys.returnPersistentRef: resultQuery.returnPersistentReference = try bool(raw, key)
            case QueryKeys.useAuthenticationContext: context = try self.context(raw)
            case QueryKeys.useAuthenticationUI, QueryKeys.useNoAuthenticationUI, QueryKeys.useOperationPrompt,
                 QueryKeys.creationDate, QueryKeys.modificationDate:
                continue
            default:
                if QueryKeys.ignored.contains(key) { continue }
                throw .malformed(key)
            }
        }
        if let ac = attributes.accessControl {
            if let level = attributes.accessibility, level != ac.accessibility { throw .malformed(QueryKeys.accessible) }
            attributes.accessibility = ac.accessibility
        }
        try attributes.validate()
        let primary = AttributeKey.primaryKey(of: cls)
        for key in primary { if let v = attributes.values[key] { resultQuery.storedFilters[key] = v } }
        resultQuery.synchronizable = attributes.synchronizable ? .yes : .no
        resultQuery.authenticationContext = context
        return AddRequest(item: Item(attributes: attributes, value: value), authenticationContext: context, resultQuery: resultQuery)
    }

    /// Parses the attributes-to-update dictionary of `SecItemUpdate` for items of `itemClass`.
    public static func changes(_ dict: [String: Any], for itemClass: ItemClass) throws(KeychainStoreError) -> AttributeChanges {
        var changes = AttributeChanges()
        let allowed = AttributeKey.applicable(to: itemClass)
        for (key, raw) in dict {
            if let attr = AttributeKey(rawValue: key) {
                guard allowed.contains(attr), let v = DictionaryValues.attribute(raw, kind: attr.kind(for: itemClass), key: attr) else {
                    throw .malformed(key)
                }
                changes.values[attr] = v
                continue
            }
            switch key {
            case QueryKeys.itemClass:
                guard let s = DictionaryValues.string(raw), s == itemClass.rawValue else { throw .malformed(key) }
            case QueryKeys.valueData:
                guard let d = DictionaryValues.data(raw) else { throw .malformed(key) }
                changes.value = d
            case QueryKeys.synchronizable:
                guard let b = DictionaryValues.bool(raw) else { throw .malformed(key) }
                changes.synchronizable = b
            case QueryKeys.accessible: changes.accessibility = try accessibility(raw)
            case QueryKeys.accessControl: changes.accessControl = try accessControl(raw)
            default:
                if QueryKeys.ignored.contains(key) { continue }
                throw .malformed(key)
            }
        }
        try changes.validate(for: itemClass)
        return changes
    }

    // MARK: Results

    /// An attributes dictionary as `SecItemCopyMatching` returns it ("class", every attribute, "sync",
    /// "pdmn", "cdat", "mdat", and "accc" as an `AccessControl` value the facade may wrap).
    public static func dictionary(_ a: ItemAttributes) -> [String: Any] {
        var d: [String: Any] = [QueryKeys.itemClass: a.itemClass.rawValue]
        for (key, value) in a.values {
            switch value {
            case let .string(s): d[key.rawValue] = s
            case let .data(x): d[key.rawValue] = x
            case let .int(i): d[key.rawValue] = Int(clamping: i)
            case let .bool(b): d[key.rawValue] = b
            }
        }
        d[QueryKeys.synchronizable] = a.synchronizable
        d[QueryKeys.accessible] = a.effectiveAccessibility.rawValue
        if let ac = a.accessControl { d[QueryKeys.accessControl] = ac }
        if let c = a.creationDate { d[QueryKeys.creationDate] = c }
        if let m = a.modificationDate { d[QueryKeys.modificationDate] = m }
        return d
    }

    /// The `result` object `SecItemCopyMatching` (or `SecItemAdd`) hands back for these results:
    /// `nil` when no return key was set; with match limit one and a single return key the bare value
    /// (`Data` for data or a persistent ref, `[String: Any]` for attributes, `Item` for a reference);
    /// with several return keys a dictionary (attributes plus "v_Data", "v_PersistentRef", "v_Ref");
    /// with a larger limit an array of those (`[Data]` when only data or only persistent refs were asked).
    public static func result(_ results: [QueryResult], for query: ItemQuery) -> Any? {
        let kinds = [query.returnData, query.returnAttributes, query.returnReference, query.returnPersistentReference]
            .filter { $0 }.count
        guard kinds > 0, !results.isEmpty else { return nil }
        let single = kinds == 1
        func one(_ r: QueryResult) -> Any {
            if single {
                if query.returnData { return r.data ?? Data() }
                if query.returnPersistentReference { return r.persistentReference ?? Data() }
                if query.returnReference, let ref = r.reference { return ref }
                return dictionary(r.attributes ?? ItemAttributes(itemClass: query.itemClass))
            }
            var d: [String: Any] = query.returnAttributes ? dictionary(r.attributes ?? ItemAttributes(itemClass: query.itemClass)) : [:]
            if query.returnData { d[QueryKeys.valueData] = r.data ?? Data() }
            if query.returnPersistentReference { d[QueryKeys.valuePersistentRef] = r.persistentReference ?? Data() }
            if query.returnReference, let ref = r.reference { d[QueryKeys.valueRef] = ref }
            return d
        }
        if query.matchLimit == .one { return one(results[0]) }
        if single && (query.returnData || query.returnPersistentReference) {
            return results.map { one($0) as? Data ?? Data() }
        }
        if single && query.returnReference { return results.map(one) }
        return results.map { one($0) as? [String: Any] ?? [:] }
    }

    // MARK: Helpers

    package static func itemClass(_ dict: [String: Any]) throws(KeychainStoreError) -> ItemClass {
        guard let raw = dict[QueryKeys.itemClass] else { throw KeychainStoreError(.param, .missingClass) }
        guard let s = DictionaryValues.string(raw), let cls = ItemClass(rawValue: s) else {
            throw KeychainStoreError(.param, .missingClass)
        }
        return cls
    }

    package static func bool(_ v: Any, _ key: String) throws(KeychainStoreError) -> Bool {
        guard let b = DictionaryValues.bool(v) else { throw .malformed(key) }
        return b
    }

    package static func accessibility(_ v: Any) throws(KeychainStoreError) -> Accessibility {
        guard let s = DictionaryValues.string(v) else { throw .malformed(QueryKeys.accessible) }
        if let a = Accessibility(rawValue: s) { return a }
        throw .malformed(QueryKeys.accessible)
    }

    package static func accessControl(_ v: Any) throws(KeychainStoreError) -> AccessControl {
        if let ac = v as? AccessControl { return ac }
        if let c = v as? any AccessControlConvertible { return c.latchkeyAccessControl }
        throw .malformed(QueryKeys.accessControl)
    }

    package static func context(_ v: Any) throws(KeychainStoreError) -> any AuthenticationContext {
        if let c = v as? any AuthenticationContext { return c }
        if let c = v as? any AuthenticationContextConvertible { return c.latchkeyAuthenticationContext }
        throw .malformed(QueryKeys.useAuthenticationContext)
    }
}
