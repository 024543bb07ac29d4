import Foundation

/// A keychain item: attributes plus its secret value (`kSecValueData`).
public struct Item: Sendable, Hashable {
    /// The item's attributes.
    public var attributes: ItemAttributes
    /// The secret (password bytes, key data, certificate DER). May be empty.
    public var value: Data

    /// Creates an item.
    public init(attributes: ItemAttributes, value: Data = Data()) {
        self.attributes = attributes
        self.value = value
    }

    /// A generic password (`kSecClassGenericPassword`) for a service and account.
    public static func genericPassword(service: String, account: String, value: Data, accessGroup: String? = nil,
                                       accessibility: Accessibility? = nil) -> Item {
        var a = ItemAttributes(itemClass: .genericPassword, values: Dictionary(minimumCapacity: 3), accessibility: accessibility)
        a.service = service
        a.account = account
        a.accessGroup = accessGroup
        return Item(attributes: a, value: value)
    }

    /// The canonical bytes of the primary key (class, synchronizable and the class's primary-key attributes,
    /// absent ones as their empty value). Two items with equal bytes cannot coexist.
    public var primaryKey: Data { PrimaryKey.encode(attributes, value: value) }
}

/// The encoding of primary keys: unambiguous (length-prefixed), deterministic, compared bytewise.
package enum PrimaryKey {
    package static func encode(_ a: ItemAttributes, value: Data) -> Data { Data(bytes(a, value: value)) }

    /// The same encoding as bytes (what the vault hashes).
    package static func bytes(_ a: ItemAttributes, value: Data) -> [UInt8] {
        bytes(a, value: value, values: values(a))
    }

    /// The values of the class's primary-key attributes, in `AttributeKey.primaryKey(of:)` order, in their
    /// comparable form (absent ones as their empty value).
    package static func values(_ a: ItemAttributes) -> [AttributeValue] {
        AttributeKey.primaryKey(of: a.itemClass).map { $0.comparable(a.values[$0] ?? .empty($0.kind(for: a.itemClass)), for: a.itemClass) }
    }

    /// True when the item's value is part of its primary key (a certificate or identity without issuer and
    /// serial number: its DER stands in for them).
    package static func usesValue(_ a: ItemAttributes) -> Bool {
        (a.itemClass == .certificate || a.itemClass == .identity) && a.values[.issuer] == nil && a.values[.serialNumber] == nil
    }

    /// True when `new` has the primary key of `old` whatever the values are: neither key includes the value,
    /// and their bytes are equal (so a row's primary-key MAC stays right after the change).
    package static func unchanged(_ old: ItemAttributes, _ new: ItemAttributes) -> Bool {
        !usesValue(old) && !usesValue(new) && bytes(old, value: Data()) == bytes(new, value: Data())
    }

    /// The encoding, from `values(a)` computed by the caller.
    package static func bytes(_ a: ItemAttributes, value: Data, values: [AttributeValue]) -> [UInt8] {
        var out = AttributeCoding.Writer(capacity: 96)
        out.bytes.append(contentsOf: a.itemClass.rawValue.utf8)
        out.byte(a.synchronizable ? 1 : 0)
        var values = values
        if usesValue(a) {
            values.append(.data(value)) // opaque certificates: the DER stands in for issuer + serial number
        }
        for (index, v) in values.enumerated() {
            out.byte(UInt8(truncatingIfNeeded: index))
            out.value(v)
        }
        return out.bytes
    }
}
