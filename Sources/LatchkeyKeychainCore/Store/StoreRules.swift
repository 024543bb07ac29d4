import Foundation

/// Rules every store applies the same way (defaults on add, dates, result shaping).
package enum StoreRules {
    /// Validates a new item and fills in what the store decides: default access group, accessibility, dates.
    package static func prepareForAdd(_ item: inout Item, defaultAccessGroup: String?, now: Date) throws(KeychainStoreError) {
        try item.attributes.validate()
        if item.attributes.accessGroup == nil, let defaultAccessGroup { item.attributes.accessGroup = defaultAccessGroup }
        if let ac = item.attributes.accessControl {
            _ = try ac.alternatives()
            item.attributes.accessibility = ac.accessibility
        } else if item.attributes.accessibility == nil {
            item.attributes.accessibility = .default
        }
        item.attributes.creationDate = now
        item.attributes.modificationDate = now
    }

    /// A modification date strictly later than the previous one (clocks can be coarse).
    package static func nextModificationDate(after previous: Date?, now: Date) -> Date {
        guard let previous, now <= previous else { return now }
        return previous.addingTimeInterval(0.001)
    }

    /// True when an update of an access-controlled item needs its gate opened: the value, the primary key
    /// or the access control changes (the sealed value is bound to them).
    package static func needsGateForUpdate(_ old: ItemAttributes, _ new: ItemAttributes, _ changes: AttributeChanges) -> Bool {
        if changes.value != nil || changes.accessControl != nil { return true }
        let keys = AttributeKey.primaryKey(of: old.itemClass)
        return old.synchronizable != new.synchronizable || keys.contains { key in
            old.values[key].map { key.comparable($0, for: old.itemClass) } != new.values[key].map { key.comparable($0, for: old.itemClass) }
        }
    }

    /// Shapes one result as the query asked.
    package static func result(attributes: ItemAttributes, value: Data, reference: Data, for query: ItemQuery) -> QueryResult {
        QueryResult(attributes: query.returnAttributes || query.returnReference ? attributes : nil,
                    data: query.returnData ? value : nil,
                    persistentReference: query.returnPersistentReference ? reference : nil,
                    reference: query.returnReference ? Item(attributes: attributes, value: value) : nil)
    }
}
