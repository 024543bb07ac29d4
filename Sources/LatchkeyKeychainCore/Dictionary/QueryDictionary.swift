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

    /// Which call a query dictionary is for: Apple refuses some keys in some of them (SecItemServer.c).
    public enum Operation: Sendable {
        /// `SecItemCopyMatching`.
        case search
        /// `SecItemUpdate`: return keys are errSecParam.
        case update
        /// `SecItemDelete`: match keys are errSecParam (SecItemServer.c), except a match limit and the insensitive-matching
        /// flags, which the macOS file keychain's delete takes (SecItem.cpp SecItemDelete_osx runs the query as a
        /// search) and code built for Linux sends from its `!os(iOS)` branches; every match is deleted.
        case delete
    }

    // MARK: Parsing

    /// Parses a `SecItemCopyMatching` / `SecItemUpdate` / `SecItemDelete` query, with Apple's rules:
    /// - an attribute the class does not have is errSecNoSuchAttr; a value of a type its kind refuses is errSecParam
    ///   (`DictionaryValues.attribute`);
    /// - `kSecValuePersistentRef` names one item whatever its synchronizable flag, and cannot be combined with
    ///   attributes (errSecParam);
    /// - `kSecMatch…` keys Latchkey does not model are accepted and change nothing, as on the data-protection
    ///   keychain (matching stays exact); `kSecMatchPolicy` / `kSecMatchIssuers` on a class without certificates are
    ///   errSecUnimplemented; `kSecUseItemList` is errSecParam; a delete takes only the match keys of `Operation.delete`.
    public static func query(_ dict: [String: Any]) throws(KeychainStoreError) -> ItemQuery {
        try query(dict, for: .search)
    }

    /// `query(_:)` for `operation`'s dictionary.
    public static func query(_ dict: [String: Any], for operation: Operation) throws(KeychainStoreError) -> ItemQuery {
        let cls = try itemClass(dict)
        var q = ItemQuery(itemClass: cls)
        var explicitSync = false
        for (key, value) in dict where key != QueryKeys.itemClass {
            if let attr = AttributeKey(rawValue: key) {
                q.storedFilters[attr] = try attribute(attr, value, cls)
                continue
            }
            switch key {
            case QueryKeys.synchronizable:
                if let s = DictionaryValues.string(value), s == QueryKeys.synchronizableAny { q.synchronizable = .any; continue }
                guard let b = DictionaryValues.bool(value) else { throw .malformed(key) }
                q.synchronizable = b ? .yes : .no
                explicitSync = true
            case QueryKeys.accessible: q.accessibility = try accessibility(value)
            case QueryKeys.creationDate: q.creationDate = try date(value, key)
            case QueryKeys.modificationDate: q.modificationDate = try date(value, key)
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
            case QueryKeys.returnData, QueryKeys.returnAttributes, QueryKeys.returnRef, QueryKeys.returnPersistentRef:
                let wanted = try bool(value, key)
                if wanted && operation == .update { throw .malformed(key) }
                switch key {
                case QueryKeys.returnData: q.returnData = wanted
                case QueryKeys.returnAttributes: q.returnAttributes = wanted
                case QueryKeys.returnRef: q.returnReference = wanted
                default: q.returnPersistentReference = wanted
                }
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
            case QueryKeys.useItemList:
                if operation != .delete { throw .malformed(key) }
            case QueryKeys.valueData, QueryKeys.accessControl:
                continue // not search criteria in Keychain Services; accepted and ignored
            default:
                if QueryKeys.ignored.contains(key) { continue }
                if key.hasPrefix("m_") {
                    if operation == .delete && !QueryKeys.deleteMatchKeys.contains(key) { throw .malformed(key) }
                    if QueryKeys.certificateMatchKeys.contains(key) && cls != .certificate && cls != .identity {
                        throw KeychainStoreError(.unimplemented, .malformedQuery(key: key))
                    }
                    continue // recorded by Apple, used by no data-protection keychain search
                }
                throw .malformed(key)
            }
        }
        if q.persistentReference != nil {
            // Apple: "both persistent ref and other attributes can't be searched at the same time".
            if !q.storedFilters.isEmpty || q.accessibility != nil || explicitSync || q.creationDate != nil
                || q.modificationDate != nil {
                throw .malformed(QueryKeys.valuePersistentRef)
            }
            q.synchronizable = .any
        }
        return q
    }

    /// Parses a `SecItemAdd` dictionary (attribute rules as `query(_:for:)`; `kSecAttrSynchronizableAny` adds an
    /// item that is not synchronizable, as Apple skips it).
    public static func addRequest(_ dict: [String: Any]) throws(KeychainStoreError) -> AddRequest {
        let cls = try itemClass(dict)
        var attributes = ItemAttributes(itemClass: cls)
        var value = Data()
        var resultQuery = ItemQuery(itemClass: cls)
        var context: (any AuthenticationContext)?
        for (key, raw) in dict where key != QueryKeys.itemClass {
            if let attr = AttributeKey(rawValue: key) {
                attributes.values[attr] = try attribute(attr, raw, cls)
                continue
            }
            switch key {
            case QueryKeys.valueData:
                guard let d = DictionaryValues.data(raw) else { throw .malformed(key) }
                value = d
            case QueryKeys.synchronizable:
                if let s = DictionaryValues.string(raw), s == QueryKeys.synchronizableAny { continue }
                guard let b = DictionaryValues.bool(raw) else { throw .malformed(key) }
                attributes.synchronizable = b
            case QueryKeys.accessible: attributes.accessibility = try accessibility(raw)
            case QueryKeys.accessControl: attributes.accessControl = try accessControl(raw)
            case QueryKeys.returnData: resultQuery.returnData = try bool(raw, key)
            case QueryKeys.returnAttributes: resultQuery.returnAttributes = try bool(raw, key)
            case QueryKeys.returnRef: resultQuery.returnReference = try bool(raw, key)
            case QueryKeys.returnPersistentRef: resultQuery.returnPersistentReference = try bool(raw, key)
            case QueryKeys.useAuthenticationContext: context = try self.context(raw)
            case QueryKeys.useAuthenticationUI, QueryKeys.useNoAuthenticationUI, QueryKeys.useOperationPrompt:
                continue
            case QueryKeys.creationDate, QueryKeys.modificationDate:
                _ = try date(raw, key) // a date, which Apple replaces by the time of the add
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

    /// Parses the attributes-to-update dictionary of `SecItemUpdate` for items of `itemClass` (attribute rules as
    /// `query(_:for:)`).
    public static func changes(_ dict: [String: Any], for itemClass: ItemClass) throws(KeychainStoreError) -> AttributeChanges {
        var changes = AttributeChanges()
        for (key, raw) in dict {
            if let attr = AttributeKey(rawValue: key) {
                changes.values[attr] = try attribute(attr, raw, itemClass)
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

    /// An attributes dictionary as `SecItemCopyMatching` returns it: every attribute as Apple returns its kind
    /// (`AttributeKey.SchemaKind`: blobs as given, numbers as numbers — a string stays a string only when it is not
    /// a decimal integer — strings and bytes as such), the primary-key attributes the item lacks as Apple's defaults
    /// (empty bytes for blobs and data, 0 for numbers; `SecItemDb.c` `query_pre_add`; an internet password's path as
    /// the empty string, as iOS answers), "sync" as the number 0 or 1, "pdmn", "cdat", "mdat", "accc" as an
    /// `AccessControl` value the facade may wrap — for every item, one added without an access control included (its
    /// accessibility and no constraints, as iOS 11.3 and later report) — and "class" (which Apple adds only to
    /// `kSecReturnRef` results).
    public static func dictionary(_ a: ItemAttributes) -> [String: Any] {
        var d: [String: Any] = [QueryKeys.itemClass: a.itemClass.rawValue]
        for (key, value) in a.values { d[key.rawValue] = resultValue(value, key, a.itemClass) }
        for key in AttributeKey.primaryKey(of: a.itemClass) where a.values[key] == nil && key != .accessGroup {
            d[key.rawValue] = switch key {
            case .path: "" as Any
            default: key.schemaKind == .number ? NSNumber(value: 0) as Any : Data() as Any
            }
        }
        d[QueryKeys.synchronizable] = NSNumber(value: a.synchronizable ? 1 : 0)
        d[QueryKeys.accessible] = a.effectiveAccessibility.rawValue
        d[QueryKeys.accessControl] = a.accessControl ?? AccessControl(accessibility: a.effectiveAccessibility, flags: [])
        if let c = a.creationDate { d[QueryKeys.creationDate] = c }
        if let m = a.modificationDate { d[QueryKeys.modificationDate] = m }
        return d
    }

    /// One attribute value as Apple returns it (`String`, `Data`, or a number as an `NSNumber`, which reads as `Int`
    /// and, for 0 and 1, as `Bool`, as Core Foundation numbers do).
    package static func resultValue(_ value: AttributeValue, _ key: AttributeKey, _ itemClass: ItemClass) -> Any {
        var value = value
        if key.schemaKind == .number {
            value = key.comparable(value, for: itemClass)
            if case let .string(s) = value, let n = AttributeKey.canonicalInteger(s) { value = .int(n) }
        }
        switch value {
        case let .string(s): return s
        case let .data(x): return x
        case let .int(i): return NSNumber(value: Int(clamping: i))
        case let .bool(b): return NSNumber(value: b ? 1 : 0)
        }
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

    /// The value attribute `attr` keeps for `raw` in an item of `cls`: errSecNoSuchAttr when the class has no such
    /// attribute (Apple's `SecDbAttrWithKey`), errSecParam when the kind refuses the value's type.
    package static func attribute(_ attr: AttributeKey, _ raw: Any, _ cls: ItemClass) throws(KeychainStoreError) -> AttributeValue {
        guard AttributeKey.isApplicable(attr, to: cls) else {
            throw KeychainStoreError(.noSuchAttr, .malformedQuery(key: attr.rawValue))
        }
        guard let v = DictionaryValues.attribute(raw, key: attr, itemClass: cls) else { throw .malformed(attr.rawValue) }
        return v
    }

    package static func date(_ v: Any, _ key: String) throws(KeychainStoreError) -> Date {
        guard let d = DictionaryValues.date(v) else { throw .malformed(key) }
        return d
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
