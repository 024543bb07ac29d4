import Foundation

/// What `update` changes in every matching item (the attributes dictionary of `SecItemUpdate`).
/// `nil` / absent means unchanged. The class cannot change.
public struct AttributeChanges: Sendable, Hashable {
    /// Attributes to set.
    public var values: [AttributeKey: AttributeValue]
    /// A new secret (`kSecValueData`).
    public var value: Data?
    /// A new accessibility level.
    public var accessibility: Accessibility?
    /// A new access control (the item is re-sealed; the query's context must release the new domains).
    public var accessControl: AccessControl?
    /// A new synchronizable flag.
    public var synchronizable: Bool?

    /// Creates a change set.
    public init(values: [AttributeKey: AttributeValue] = [:], value: Data? = nil, accessibility: Accessibility? = nil,
                accessControl: AccessControl? = nil, synchronizable: Bool? = nil) {
        self.values = values
        self.value = value
        self.accessibility = accessibility
        self.accessControl = accessControl
        self.synchronizable = synchronizable
    }

    /// True when nothing would change.
    public var isEmpty: Bool {
        values.isEmpty && value == nil && accessibility == nil && accessControl == nil && synchronizable == nil
    }

    /// Applies the changes to attributes (dates are the store's business).
    public func applied(to attributes: ItemAttributes) -> ItemAttributes {
        var a = attributes
        for (k, v) in values { a.values[k] = v }
        if let accessControl {
            a.accessControl = accessControl
            a.accessibility = accessControl.accessibility
        } else if let accessibility {
            a.accessibility = accessibility
            if a.accessControl != nil { a.accessControl?.accessibility = accessibility }
        }
        if let synchronizable { a.synchronizable = synchronizable }
        return a
    }

    /// Checks the changes against a class (`errSecParam` for attributes of another class or the wrong kind).
    public func validate(for itemClass: ItemClass) throws(KeychainStoreError) {
        for (key, v) in values {
            guard AttributeKey.isApplicable(key, to: itemClass), key.accepts(v.kind, for: itemClass) else {
                throw .malformed(key.rawValue)
            }
        }
        if let accessControl, let accessibility, accessControl.accessibility != accessibility { throw .malformed("accc") }
    }
}
