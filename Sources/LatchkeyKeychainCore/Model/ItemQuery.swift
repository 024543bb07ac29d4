import Foundation
import LatchkeyAuthCore

/// Which items a search matches by `kSecAttrSynchronizable`.
public enum SynchronizableFilter: Sendable, Hashable {
    /// Only items with synchronizable = true.
    case yes
    /// Only items with synchronizable = false (the default when a query does not mention it).
    case no
    /// Both (`kSecAttrSynchronizableAny`, "syna").
    case any

    package func matches(_ value: Bool) -> Bool {
        switch self {
        case .yes: value
        case .no: !value
        case .any: true
        }
    }
}

/// How many items a search returns (`kSecMatchLimit`).
public enum MatchLimit: Sendable, Hashable {
    /// The first match (`kSecMatchLimitOne`, the default).
    case one
    /// Every match (`kSecMatchLimitAll`).
    case all
    /// At most this many (a number as `kSecMatchLimit`).
    case upTo(Int)

    package var count: Int? {
        switch self {
        case .one: 1
        case .all: nil
        case let .upTo(n): n
        }
    }
}

/// What a read does when an item needs authentication (`kSecUseAuthenticationUI`).
public enum AuthenticationUI: String, Sendable, Hashable {
    /// Evaluate the context (prompt) when needed (`kSecUseAuthenticationUIAllow`, "u_AuthUIA").
    case allow = "u_AuthUIA"
    /// Fail with errSecInteractionNotAllowed instead of prompting (`kSecUseAuthenticationUIFail`, "u_AuthUIF").
    case fail = "u_AuthUIF"
    /// Leave items that need authentication out of the results (`kSecUseAuthenticationUISkip`, "u_AuthUIS").
    case skip = "u_AuthUIS"
}

/// A search: the class, attribute filters, and what to return — the Swift form of a SecItem query dictionary.
public struct ItemQuery: Sendable {
    /// The class to search (`kSecClass`, required).
    public var itemClass: ItemClass
    /// Exact-match filters on any attribute; an absent primary-key attribute of an item matches its empty value.
    public var filters: [AttributeKey: AttributeValue] {
        get { storedFilters.dictionary }
        set { storedFilters = QueryFilters(newValue) }
    }
    /// The filters as kept: the lookup attributes in places of their own, no dictionary for them.
    package var storedFilters: QueryFilters
    /// Synchronizable filter; `.no` unless the query says otherwise (as Apple).
    public var synchronizable: SynchronizableFilter
    /// Only items with this accessibility (`kSecAttrAccessible` in a query).
    public var accessibility: Accessibility?
    /// Only the item with this persistent reference (`kSecValuePersistentRef`).
    public var persistentReference: Data?
    /// Only items created at exactly this time (`kSecAttrCreationDate` in a query).
    public var creationDate: Date?
    /// Only items last modified at exactly this time (`kSecAttrModificationDate` in a query).
    public var modificationDate: Date?
    /// `kSecMatchLimit` (copyMatching only; update and delete act on every match).
    public var matchLimit: MatchLimit
    /// `kSecReturnData`.
    public var returnData: Bool
    /// `kSecReturnAttributes`.
    public var returnAttributes: Bool
    /// `kSecReturnRef`: the result carries the whole item in `QueryResult.reference`.
    public var returnReference: Bool
    /// `kSecReturnPersistentRef`.
    public var returnPersistentReference: Bool
    /// `kSecUseAuthenticationContext`: the context that proves the user for access-controlled items.
    public var authenticationContext: (any AuthenticationContext)?
    /// `kSecUseAuthenticationUI`.
    public var authenticationUI: AuthenticationUI
    /// `kSecUseOperationPrompt`: the reason shown when the store evaluates the context itself.
    public var operationPrompt: String?

    /// Creates a query for a class with optional filters.
    public init(itemClass: ItemClass, filters: [AttributeKey: AttributeValue] = [:],
                synchronizable: SynchronizableFilter = .no, accessibility: Accessibility? = nil,
                persistentReference: Data? = nil, matchLimit: MatchLimit = .one,
                returnData: Bool = false, returnAttributes: Bool = false, returnReference: Bool = false,
                returnPersistentReference: Bool = false, authenticationContext: (any AuthenticationContext)? = nil,
                authenticationUI: AuthenticationUI = .allow, operationPrompt: String? = nil) {
        self.init(itemClass: itemClass, storedFilters: QueryFilters(filters),
                  synchronizable: synchronizable, accessibility: accessibility, persistentReference: persistentReference,
                  matchLimit: matchLimit, returnData: returnData, returnAttributes: returnAttributes,
                  returnReference: returnReference, returnPersistentReference: returnPersistentReference,
                  authenticationContext: authenticationContext, authenticationUI: authenticationUI,
                  operationPrompt: operationPrompt)
    }

    /// The same, with the filters as kept (no dictionary to convert).
    package init(itemClass: ItemClass, storedFilters: QueryFilters,
         synchronizable: SynchronizableFilter = .no, accessibility: Accessibility? = nil,
         persistentReference: Data? = nil, matchLimit: MatchLimit = .one,
         returnData: Bool = false, returnAttributes: Bool = false, returnReference: Bool = false,
         returnPersistentReference: Bool = false, authenticationContext: (any AuthenticationContext)? = nil,
         authenticationUI: AuthenticationUI = .allow, operationPrompt: String? = nil) {
        self.itemClass = itemClass
        self.storedFilters = storedFilters
        self.synchronizable = synchronizable
        self.accessibility = accessibility
        self.persistentReference = persistentReference
        self.matchLimit = matchLimit
        self.returnData = returnData
        self.returnAttributes = returnAttributes
        self.returnReference = returnReference
        self.returnPersistentReference = returnPersistentReference
        self.authenticationContext = authenticationContext
        self.authenticationUI = authenticationUI
        self.operationPrompt = operationPrompt
    }

    /// A generic-password query by service (and account when given).
    public static func genericPassword(service: String, account: String? = nil, accessGroup: String? = nil) -> ItemQuery {
        ItemQuery(itemClass: .genericPassword,
                  storedFilters: QueryFilters(service: service, account: account, accessGroup: accessGroup))
    }

    /// True when the query needs the secret value (data or a reference).
    public var needsValue: Bool { returnData || returnReference }

    /// Checks filters against the class (`errSecParam` for attributes of another class or of the wrong kind).
    public func validate() throws(KeychainStoreError) {
        try storedFilters.validate(for: itemClass)
        if case let .upTo(n) = matchLimit, n < 1 { throw .malformed("m_Limit") }
    }

    /// True when a filter can only be checked on an item's opened attributes (not on a store's lookup columns):
    /// an attribute without a place of its own, or a date.
    package var hasUnplacedFilters: Bool {
        !storedFilters.hasOnlyPlacedFilters || creationDate != nil || modificationDate != nil
    }

    /// True when `attributes` satisfy every filter of this query (class, attributes, synchronizable, accessibility,
    /// dates).
    public func matches(_ attributes: ItemAttributes) -> Bool {
        guard attributes.itemClass == itemClass, synchronizable.matches(attributes.synchronizable) else { return false }
        if let accessibility, attributes.effectiveAccessibility != accessibility { return false }
        if let creationDate, attributes.creationDate != creationDate { return false }
        if let modificationDate, attributes.modificationDate != modificationDate { return false }
        let primary = AttributeKey.primaryKey(of: itemClass)
        var matching = true
        storedFilters.forEach { key, wanted in
            guard matching else { return }
            let have = attributes.values[key] ?? (primary.contains(key) ? .empty(key.kind(for: itemClass)) : nil)
            if let have, key.comparable(have, for: itemClass) == key.comparable(wanted, for: itemClass) { return }
            matching = false
        }
        return matching
    }
}
