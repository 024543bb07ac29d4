/// The attribute filters of an `ItemQuery`, stored so that the usual ones cost no dictionary: the four
/// attributes a store looks items up by (access group, service, account, server) have a place of their own,
/// any other goes to a dictionary that allocates only once it holds something. A query such as
/// `ItemQuery.genericPassword(service:account:)` is built, checked and read without hashing or allocating.
///
/// The same filters as `ItemQuery.filters` (a key is in one place or the other, never both); iteration order is
/// unspecified, as a dictionary's.
package struct QueryFilters: Sendable {
    private(set) var accessGroup: AttributeValue?
    private(set) var service: AttributeValue?
    private(set) var account: AttributeValue?
    private(set) var server: AttributeValue?
    /// Every filter on another attribute.
    private(set) var others: [AttributeKey: AttributeValue] = [:]
    /// The kind of the value in each place of its own (3 bits each, in `places` order; 0: no filter), so that
    /// presence and kinds are read without copying a value.
    private var kinds: UInt16 = 0

    /// The attributes with a place of their own, in the order of their bits in `kinds`.
    package static let places: [AttributeKey] = [.accessGroup, .service, .account, .server]

    /// `places[place]` without the array.
    package static func key(place: Int) -> AttributeKey {
        switch place {
        case 0: .accessGroup
        case 1: .service
        case 2: .account
        default: .server
        }
    }

    package init() {}

    /// The filters of `ItemQuery.genericPassword(service:account:accessGroup:)`.
    package init(service: String, account: String?, accessGroup: String?) {
        self.service = .string(service)
        kinds = Self.code(.string) << 3
        if let account { self.account = .string(account); kinds |= Self.code(.string) << 6 }
        if let accessGroup { self.accessGroup = .string(accessGroup); kinds |= Self.code(.string) }
    }

    package init(_ filters: [AttributeKey: AttributeValue]) {
        for (key, value) in filters { self[key] = value }
    }

    package subscript(key: AttributeKey) -> AttributeValue? {
        get {
            switch key {
            case .accessGroup: accessGroup
            case .service: service
            case .account: account
            case .server: server
            default: others.isEmpty ? nil : others[key]
            }
        }
        set {
            guard let place = Self.place(of: key) else { others[key] = newValue; return }
            switch place {
            case 0: accessGroup = newValue
            case 1: service = newValue
            case 2: account = newValue
            default: server = newValue
            }
            let shift = UInt16(3 * place)
            kinds = kinds & ~(7 << shift) | (newValue.map { Self.code($0.kind) } ?? 0) << shift
        }
    }

    /// True when there is a filter on `key`.
    package func contains(_ key: AttributeKey) -> Bool {
        guard let place = Self.place(of: key) else { return !others.isEmpty && others[key] != nil }
        return kinds >> UInt16(3 * place) & 7 != 0
    }

    /// True when every filter is on an attribute with a place of its own.
    package var hasOnlyPlacedFilters: Bool { others.isEmpty }

    /// Checks each filter against the class (`errSecParam` for attributes of another class or of the wrong kind).
    package func validate(for itemClass: ItemClass) throws(KeychainStoreError) {
        for place in 0..<4 {
            let code = kinds >> UInt16(3 * place) & 7
            if code != 0 { try Self.check(Self.key(place: place), Self.kind(code), itemClass) }
        }
        if others.isEmpty { return }
        for (key, value) in others { try Self.check(key, value.kind, itemClass) }
    }

    private static func check(_ key: AttributeKey, _ kind: AttributeValue.Kind, _ itemClass: ItemClass) throws(KeychainStoreError) {
        guard AttributeKey.isApplicable(key, to: itemClass), key.accepts(kind, for: itemClass) else {
            throw .malformed(key.rawValue)
        }
    }

    package var isEmpty: Bool { kinds == 0 && others.isEmpty }

    /// The filters as a dictionary (what `ItemQuery.filters` returns).
    package var dictionary: [AttributeKey: AttributeValue] {
        var all = others
        if let accessGroup { all[.accessGroup] = accessGroup }
        if let service { all[.service] = service }
        if let account { all[.account] = account }
        if let server { all[.server] = server }
        return all
    }

    /// Calls `body` with each filter (the attributes with a place of their own first, in `places` order).
    package func forEach<E: Error>(_ body: (AttributeKey, AttributeValue) throws(E) -> Void) throws(E) {
        if let accessGroup { try body(.accessGroup, accessGroup) }
        if let service { try body(.service, service) }
        if let account { try body(.account, account) }
        if let server { try body(.server, server) }
        for (key, value) in others { try body(key, value) }
    }

    /// The place of `key` among `places` (the vault's lookup columns are in the same order), if it has one.
    package static func place(of key: AttributeKey) -> Int? {
        switch key {
        case .accessGroup: 0
        case .service: 1
        case .account: 2
        case .server: 3
        default: nil
        }
    }

    private static func code(_ kind: AttributeValue.Kind) -> UInt16 {
        switch kind {
        case .string: 1
        case .data: 2
        case .int: 3
        case .bool: 4
        }
    }

    private static func kind(_ code: UInt16) -> AttributeValue.Kind {
        switch code {
        case 1: .string
        case 2: .data
        case 3: .int
        default: .bool
        }
    }
}
