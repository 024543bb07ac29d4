import Foundation

/// One item found by `copyMatching`, holding what the query asked to return.
public struct QueryResult: Sendable, Hashable {
    /// The attributes, when `returnAttributes` (or `returnReference`) was asked.
    public var attributes: ItemAttributes?
    /// The secret, when `returnData` was asked.
    public var data: Data?
    /// A stable reference to the item (`kSecReturnPersistentRef`), when asked.
    public var persistentReference: Data?
    /// The whole item, when `returnReference` was asked (the facade turns it into a SecKey/SecCertificate).
    public var reference: Item?

    /// Creates a result.
    public init(attributes: ItemAttributes? = nil, data: Data? = nil, persistentReference: Data? = nil, reference: Item? = nil) {
        self.attributes = attributes
        self.data = data
        self.persistentReference = persistentReference
        self.reference = reference
    }
}
