import Foundation

/// The attributes of one keychain item: its class, the `kSecAttr…` values, and the typed
/// synchronizable / accessibility / access-control / date properties.
public struct ItemAttributes: Sendable, Hashable {
    /// The item class (`kSecClass`).
    public var itemClass: ItemClass
    /// The other attributes by Apple key; absent means not set.
    public var values: [AttributeKey: AttributeValue]
    /// `kSecAttrSynchronizable`: part of the primary key. Latchkey never syncs; the flag is kept and matched.
    public var synchronizable: Bool
    /// `kSecAttrAccessible`; `nil` on add means `Accessibility.default` (or the access control's level).
    public var accessibility: Accessibility?
    /// `kSecAttrAccessControl`; when set, `accessibility` equals its level.
    public var accessControl: AccessControl?
    /// Set by the store when the item is added (`kSecAttrCreationDate`).
    public var creationDate: Date?
    /// Set by the store on add and on every update (`kSecAttrModificationDate`).
    public var modificationDate: Date?

    /// Creates attributes of a class.
    public init(itemClass: ItemClass, values: [AttributeKey: AttributeValue] = [:], synchronizable: Bool = false,
                accessibility: Accessibility? = nil, accessControl: AccessControl? = nil,
                creationDate: Date? = nil, modificationDate: Date? = nil) {
        self.itemClass = itemClass
        self.values = values
        self.synchronizable = synchronizable
        self.accessibility = accessibility
        self.accessControl = accessControl
        self.creationDate = creationDate
        self.modificationDate = modificationDate
    }

    /// Reads or writes one attribute.
    public subscript(key: AttributeKey) -> AttributeValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// The level that applies: the access control's, else the explicit one, else the default.
    public var effectiveAccessibility: Accessibility {
        accessControl?.accessibility ?? accessibility ?? .default
    }

    /// `kSecAttrService`.
    public var service: String? { get { values[.service]?.textValue } set { values[.service] = newValue.map(AttributeValue.string) } }
    /// `kSecAttrAccount`.
    public var account: String? { get { values[.account]?.textValue } set { values[.account] = newValue.map(AttributeValue.string) } }
    /// `kSecAttrAccessGroup`.
    public var accessGroup: String? { get { values[.accessGroup]?.stringValue } set { values[.accessGroup] = newValue.map(AttributeValue.string) } }
    /// `kSecAttrLabel`.
    public var label: String? { get { values[.label]?.textValue } set { values[.label] = newValue.map(AttributeValue.string) } }
    /// `kSecAttrComment`.
    public var comment: String? { get { values[.comment]?.textValue } set { values[.comment] = newValue.map(AttributeValue.string) } }
    /// `kSecAttrDescription`.
    public var itemDescription: String? { get { values[.itemDescription]?.textValue } set { values[.itemDescription] = newValue.map(AttributeValue.string) } }
    /// `kSecAttrGeneric`.
    public var generic: Data? { get { values[.generic]?.dataValue } set { values[.generic] = newValue.map(AttributeValue.data) } }
    /// `kSecAttrServer`.
    public var server: String? { get { values[.server]?.textValue } set { values[.server] = newValue.map(AttributeValue.string) } }
    /// `kSecAttrProtocol`.
    public var internetProtocol: InternetProtocol? {
        get { values[.internetProtocol]?.stringValue.map(InternetProtocol.init(rawValue:)) }
        set { values[.internetProtocol] = newValue.map { .string($0.rawValue) } }
    }
    /// `kSecAttrAuthenticationType`.
    public var authenticationType: AuthenticationType? {
        get { values[.authenticationType]?.stringValue.map(AuthenticationType.init(rawValue:)) }
        set { values[.authenticationType] = newValue.map { .string($0.rawValue) } }
    }
    /// `kSecAttrPort`.
    public var port: Int? { get { values[.port]?.intValue.map { Int($0) } } set { values[.port] = newValue.map { .int(Int64($0)) } } }
    /// `kSecAttrPath`.
    public var path: String? { get { values[.path]?.textValue } set { values[.path] = newValue.map(AttributeValue.string) } }
    /// `kSecAttrSecurityDomain`.
    public var securityDomain: String? { get { values[.securityDomain]?.textValue } set { values[.securityDomain] = newValue.map(AttributeValue.string) } }
    /// `kSecAttrApplicationTag` (keys).
    public var applicationTag: Data? { get { values[.applicationTag]?.dataValue } set { values[.applicationTag] = newValue.map(AttributeValue.data) } }
    /// `kSecAttrApplicationLabel` (keys).
    public var applicationLabel: Data? { get { values[.applicationLabel]?.dataValue } set { values[.applicationLabel] = newValue.map(AttributeValue.data) } }
    /// `kSecAttrKeyType` (keys), e.g. "73" for EC, "42" for RSA.
    public var keyType: String? {
        get {
            guard itemClass == .key || itemClass == .identity, let value = values[.type] else { return nil }
            return AttributeKey.type.comparable(value, for: itemClass).stringValue
        }
        set { values[.type] = newValue.map(AttributeValue.string) }
    }
    /// `kSecAttrKeyClass` (keys): "0" public, "1" private, "2" symmetric, however it was given.
    public var keyClass: String? {
        get { values[.keyClass].flatMap { AttributeKey.keyClass.comparable($0, for: itemClass).stringValue } }
        set { values[.keyClass] = newValue.map(AttributeValue.string) }
    }
    /// `kSecAttrKeySizeInBits` (keys).
    public var keySizeInBits: Int? { get { values[.keySizeInBits]?.intValue.map { Int($0) } } set { values[.keySizeInBits] = newValue.map { .int(Int64($0)) } } }

    /// Checks that every attribute applies to the class and has the right kind (`errSecParam` otherwise).
    public func validate() throws(KeychainStoreError) {
        for (key, value) in values {
            guard AttributeKey.isApplicable(key, to: itemClass) else { throw .malformed(key.rawValue) }
            guard key.accepts(value.kind, for: itemClass) else { throw .malformed(key.rawValue) }
        }
        if accessControl != nil, let accessibility, accessibility != accessControl?.accessibility {
            throw .malformed("accc")
        }
    }
}
