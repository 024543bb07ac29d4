import Foundation
import LatchkeyAuthCore

/// The other direction: the Swift model as SecItem dictionaries, and `SecItemCopyMatching` results back
/// into `QueryResult`s. Used by `AppleKeychainStore`; portable, so the Linux tests cover it.
///
/// "accc" is written as an `AccessControl` value and "u_AuthCtx" as the `AuthenticationContext`: the
/// caller replaces them with `SecAccessControl` / `LAContext` objects (the only Apple-specific step).
extension QueryDictionary {
    /// The `SecItemAdd` dictionary for an item.
    public static func addDictionary(_ item: Item, authenticationContext: (any AuthenticationContext)? = nil) -> [String: Any] {
        var d = valuesDictionary(item.attributes.values)
        d[QueryKeys.itemClass] = item.attributes.itemClass.rawValue
        d[QueryKeys.valueData] = item.value
        d[QueryKeys.synchronizable] = item.attributes.synchronizable
        if let ac = item.attributes.accessControl {
            d[QueryKeys.accessControl] = ac
        } else if let level = item.attributes.accessibility {
            d[QueryKeys.accessible] = level.rawValue
        }
        if let authenticationContext { d[QueryKeys.useAuthenticationContext] = authenticationContext }
        return d
    }

    /// The query dictionary for `SecItemCopyMatching` (or, with `forSearchOnly`, for `SecItemUpdate` /
    /// `SecItemDelete`, which reject match limits and return keys on some systems).
    public static func queryDictionary(_ q: ItemQuery, forSearchOnly: Bool = false) -> [String: Any] {
        var d = valuesDictionary(q.filters)
        d[QueryKeys.itemClass] = q.itemClass.rawValue
        switch q.synchronizable {
        case .yes: d[QueryKeys.synchronizable] = true
        case .no: break
        case .any: d[QueryKeys.synchronizable] = QueryKeys.synchronizableAny
        }
        if let level = q.accessibility { d[QueryKeys.accessible] = level.rawValue }
        if let date = q.creationDate { d[QueryKeys.creationDate] = date }
        if let date = q.modificationDate { d[QueryKeys.modificationDate] = date }
        if let ref = q.persistentReference { d[QueryKeys.valuePersistentRef] = ref }
        if let ctx = q.authenticationContext { d[QueryKeys.useAuthenticationContext] = ctx }
        if q.authenticationUI != .allow { d[QueryKeys.useAuthenticationUI] = q.authenticationUI.rawValue }
        if let prompt = q.operationPrompt { d[QueryKeys.useOperationPrompt] = prompt }
        guard !forSearchOnly else { return d }
        switch q.matchLimit {
        case .one: d[QueryKeys.matchLimit] = QueryKeys.matchLimitOne
        case .all: d[QueryKeys.matchLimit] = QueryKeys.matchLimitAll
        case let .upTo(n): d[QueryKeys.matchLimit] = n
        }
        if q.returnData { d[QueryKeys.returnData] = true }
        if q.returnAttributes { d[QueryKeys.returnAttributes] = true }
        if q.returnReference { d[QueryKeys.returnRef] = true }
        if q.returnPersistentReference { d[QueryKeys.returnPersistentRef] = true }
        return d
    }

    /// The attributes-to-update dictionary of `SecItemUpdate`.
    public static func changesDictionary(_ c: AttributeChanges) -> [String: Any] {
        var d = valuesDictionary(c.values)
        if let v = c.value { d[QueryKeys.valueData] = v }
        // kSecAttrAccessControl and kSecAttrAccessible are mutually exclusive (SecItem.h): an access control
        // carries its own accessibility, so a change to both is written as the access control alone with the
        // change's accessibility in it (the round trip keeps what the change set says — a fuzz finding).
        if var ac = c.accessControl {
            if let level = c.accessibility { ac.accessibility = level }
            d[QueryKeys.accessControl] = ac
        } else if let level = c.accessibility {
            d[QueryKeys.accessible] = level.rawValue
        }
        if let s = c.synchronizable { d[QueryKeys.synchronizable] = s }
        return d
    }

    /// Attributes from a dictionary `SecItemCopyMatching` returned (unknown keys are skipped; an access
    /// control object must be an `AccessControl` or `AccessControlConvertible`, else it is dropped).
    public static func attributes(from d: [String: Any], itemClass fallback: ItemClass) -> ItemAttributes {
        let cls = d[QueryKeys.itemClass].flatMap(DictionaryValues.string).flatMap(ItemClass.init(rawValue:)) ?? fallback
        var a = ItemAttributes(itemClass: cls)
        for (key, raw) in d {
            if let attr = AttributeKey(rawValue: key), AttributeKey.isApplicable(attr, to: cls),
               let v = DictionaryValues.attribute(raw, key: attr, itemClass: cls) {
                a.values[attr] = v
            }
        }
        a.synchronizable = d[QueryKeys.synchronizable].flatMap(DictionaryValues.bool) ?? false
        if let s = d[QueryKeys.accessible].flatMap(DictionaryValues.string) {
            a.accessibility = Accessibility(rawValue: s)
        }
        // Every item reports an access control (iOS 11.3 and later): one without a constraint or an application
        // password is the item's accessibility alone, which the model keeps as no access control.
        if let raw = d[QueryKeys.accessControl], let ac = try? accessControl(raw), !ac.flags.isEmpty { a.accessControl = ac }
        a.creationDate = d[QueryKeys.creationDate].flatMap(DictionaryValues.date)
        a.modificationDate = d[QueryKeys.modificationDate].flatMap(DictionaryValues.date)
        return a
    }

    /// Turns the `result` of `SecItemCopyMatching` back into results, following the shapes `result(_:for:)`
    /// produces. A shape that does not fit the query is errSecDecode.
    public static func results(from result: Any?, for q: ItemQuery) throws(KeychainStoreError) -> [QueryResult] {
        let kinds = [q.returnData, q.returnAttributes, q.returnReference, q.returnPersistentReference].filter { $0 }.count
        guard kinds > 0 else { return [QueryResult()] }
        guard let result else { throw KeychainStoreError(.decode) }
        func one(_ r: Any) throws(KeychainStoreError) -> QueryResult {
            if kinds == 1 && !q.returnAttributes {
                if q.returnReference { return QueryResult(reference: r as? Item) }
                guard let data = DictionaryValues.data(r) else { throw KeychainStoreError(.decode) }
                return q.returnData ? QueryResult(data: data) : QueryResult(persistentReference: data)
            }
            guard let d = r as? [String: Any] else { throw KeychainStoreError(.decode) }
            return QueryResult(attributes: q.returnAttributes ? attributes(from: d, itemClass: q.itemClass) : nil,
                               data: q.returnData ? d[QueryKeys.valueData].flatMap(DictionaryValues.data) : nil,
                               persistentReference: q.returnPersistentReference
                                   ? d[QueryKeys.valuePersistentRef].flatMap(DictionaryValues.data) : nil,
                               reference: d[QueryKeys.valueRef] as? Item)
        }
        if q.matchLimit == .one { return [try one(result)] }
        guard let list = result as? [Any] else { throw KeychainStoreError(.decode) }
        var out: [QueryResult] = []
        for r in list { out.append(try one(r)) }
        return out
    }

    package static func valuesDictionary(_ values: [AttributeKey: AttributeValue]) -> [String: Any] {
        var d: [String: Any] = [:]
        for (key, value) in values {
            switch value {
            case let .string(s): d[key.rawValue] = s
            case let .data(x): d[key.rawValue] = x
            case let .int(i): d[key.rawValue] = Int(clamping: i)
            case let .bool(b): d[key.rawValue] = b
            }
        }
        return d
    }
}
