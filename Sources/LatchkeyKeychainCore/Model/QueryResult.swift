import Foundation

/// One item found by `copyMatching`, holding what the query asked to return.
///
/// The attributes and the whole item, which only some queries ask for, are kept in one shared box, so that the
/// common result — the secret alone — is three words to copy into and out of the results array (the full set
/// of fields cost a few hundred instructions of outlined copying per keychain read).
public struct QueryResult: Sendable, Hashable {
    /// The secret, when `returnData` was asked.
    public var data: Data?
    /// A stable reference to the item (`kSecReturnPersistentRef`), when asked.
    public var persistentReference: Data?
    private var details: Details?

    /// The attributes and the item of a result that has either (immutable: a change makes a new box).
    private final class Details: Sendable {
        let attributes: ItemAttributes?
        let reference: Item?
        init(attributes: ItemAttributes?, reference: Item?) { self.attributes = attributes; self.reference = reference }
    }

    /// The attributes, when `returnAttributes` (or `returnReference`) was asked.
    public var attributes: ItemAttributes? {
        get { details?.attributes }
        set { details = Self.details(attributes: newValue, reference: reference) }
    }

    /// The whole item, when `returnReference` was asked (the facade turns it into a SecKey/SecCertificate).
    public var reference: Item? {
        get { details?.reference }
        set { details = Self.details(attributes: attributes, reference: newValue) }
    }

    /// Creates a result.
    public init(attributes: ItemAttributes? = nil, data: Data? = nil, persistentReference: Data? = nil, reference: Item? = nil) {
        self.data = data
        self.persistentReference = persistentReference
        details = Self.details(attributes: attributes, reference: reference)
    }

    private static func details(attributes: ItemAttributes?, reference: Item?) -> Details? {
        attributes == nil && reference == nil ? nil : Details(attributes: attributes, reference: reference)
    }

    public static func == (a: QueryResult, b: QueryResult) -> Bool {
        a.data == b.data && a.persistentReference == b.persistentReference && a.attributes == b.attributes
            && a.reference == b.reference
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(attributes)
        hasher.combine(data)
        hasher.combine(persistentReference)
        hasher.combine(reference)
    }
}
