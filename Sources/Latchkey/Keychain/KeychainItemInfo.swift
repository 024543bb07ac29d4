import Foundation
import LatchkeyKeychain

/// What the keychain knows about one item, without its secret (`Keychain.attributes(forKey:)`, `allItems()`).
public struct KeychainItemInfo: Sendable, Hashable {
    /// The item's key (`kSecAttrAccount`).
    public let key: String
    /// The service (generic passwords) or server (internet passwords).
    public let service: String?
    /// `kSecAttrAccessGroup`.
    public let accessGroup: String?
    /// `kSecAttrLabel`.
    public let label: String?
    /// `kSecAttrComment`.
    public let comment: String?
    /// `kSecAttrDescription`.
    public let itemDescription: String?
    /// When the item can be read.
    public let accessibility: Accessibility
    /// The item's access control, if any.
    public let accessControl: AccessControl?
    /// `kSecAttrSynchronizable`.
    public let synchronizable: Bool
    /// `kSecAttrCreationDate`.
    public let creationDate: Date?
    /// `kSecAttrModificationDate`.
    public let modificationDate: Date?
    /// All attributes, for anything not above.
    public let attributes: ItemAttributes

    init(_ attributes: ItemAttributes) {
        self.key = attributes.account ?? ""
        self.service = attributes.itemClass == .internetPassword ? attributes.server : attributes.service
        self.accessGroup = attributes.accessGroup
        self.label = attributes.label
        self.comment = attributes.comment
        self.itemDescription = attributes.itemDescription
        self.accessibility = attributes.effectiveAccessibility
        self.accessControl = attributes.accessControl
        self.synchronizable = attributes.synchronizable
        self.creationDate = attributes.creationDate
        self.modificationDate = attributes.modificationDate
        self.attributes = attributes
    }
}
