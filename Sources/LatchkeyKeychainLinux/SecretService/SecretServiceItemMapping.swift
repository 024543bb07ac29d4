#if canImport(CSecret)
import Foundation
import LatchkeyKeychainCore

/// How keychain items map to Secret Service items.
///
/// - The secret is the item's value (binary, `application/octet-stream`).
/// - Lookup attributes under readable names, so other tools can find them (`secret-tool lookup service S
///   account A`): `class`, `service`, `account`, `server`, `protocol`, `port`, `path`, `domain`, `authtype`,
///   `access-group`, `synchronizable`, `accessible`. Absent ones (all are primary-key attributes) are stored
///   as their empty value ("" or "0"), so exact matches follow Apple's "absent equals empty" rule.
/// - `latchkey:attributes`: the whole attribute set (typed values, dates, access control), base64 of the
///   canonical encoding — the source of truth when reading. `latchkey:ref`: the persistent reference.
/// - The Secret Service label is the item's label, or "service (account)" for keyring browsers.
enum SecretServiceItemMapping {
    static let schema = SecretServiceSchema(name: "org.latchkey.Item", attributes: Dictionary(
        uniqueKeysWithValues: (Array(indexed.values) + ["class", "synchronizable", "accessible", blobKey, referenceKey])
            .map { ($0, SecretServiceSchema.AttributeType.string) }))

    static let blobKey = "latchkey:attributes"
    static let referenceKey = "latchkey:ref"

    /// Keychain attributes stored as their own Secret Service attributes (searchable by the daemon).
    static let indexed: [AttributeKey: String] = [
        .service: "service", .account: "account", .server: "server", .internetProtocol: "protocol",
        .port: "port", .path: "path", .securityDomain: "domain", .authenticationType: "authtype",
        .accessGroup: "access-group",
    ]

    /// The Secret Service attributes of an item.
    static func attributes(of attributes: ItemAttributes, reference: String) -> [String: String] {
        var result: [String: String] = [
            "class": attributes.itemClass.rawValue,
            "synchronizable": attributes.synchronizable ? "1" : "0",
            "accessible": attributes.effectiveAccessibility.rawValue,
            blobKey: AttributeCoding.encode(attributes).base64EncodedString(),
            referenceKey: reference,
        ]
        let applicable = AttributeKey.applicable(to: attributes.itemClass)
        for (key, name) in indexed where applicable.contains(key) {
            result[name] = text(key.comparable(attributes.values[key] ?? .empty(key.kind(for: attributes.itemClass)), for: attributes.itemClass))
        }
        return result
    }

    /// The daemon-side part of a query's filters (the rest is matched after decoding).
    static func searchAttributes(for query: ItemQuery) -> [String: String] {
        var result: [String: String] = ["class": query.itemClass.rawValue]
        for (key, value) in query.filters {
            if let name = indexed[key] { result[name] = text(key.comparable(value, for: query.itemClass)) }
        }
        switch query.synchronizable {
        case .yes: result["synchronizable"] = "1"
        case .no: result["synchronizable"] = "0"
        case .any: break
        }
        if let accessibility = query.accessibility { result["accessible"] = accessibility.rawValue }
        if let reference = query.persistentReference {
            result[referenceKey] = String(decoding: reference, as: UTF8.self)
        }
        return result
    }

    /// The keychain attributes stored with an item (nil when it is not a Latchkey item or was damaged).
    static func decode(_ attributes: [String: String]) throws(KeychainStoreError) -> ItemAttributes {
        guard let blob = attributes[blobKey], let data = Data(base64Encoded: blob) else {
            throw KeychainStoreError(.decode, .corruptItem)
        }
        return try AttributeCoding.decode(data)
    }

    /// The label shown by keyring browsers.
    static func displayLabel(_ attributes: ItemAttributes) -> String {
        if let label = attributes.label, !label.isEmpty { return label }
        let owner = attributes.service ?? attributes.server ?? attributes.itemClass.rawValue
        if let account = attributes.account, !account.isEmpty { return "\(owner) (\(account))" }
        return owner
    }

    private static func text(_ value: AttributeValue) -> String {
        switch value {
        case .string(let string): string
        case .int(let number): String(number)
        case .bool(let flag): flag ? "1" : "0"
        case .data(let data): data.base64EncodedString()
        }
    }
}
#endif
