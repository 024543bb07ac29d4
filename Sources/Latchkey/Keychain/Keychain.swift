import Foundation
import LatchkeyAuth
import LatchkeyKeychain

/// The app-facing keychain: a key–value store of secrets for one service (or one internet server), in the
/// style of KeychainAccess, Valet and SimpleKeychain, over any ``ItemStore``.
///
/// ```swift
/// let keychain = Keychain(service: "com.example.app", store: store)
/// try keychain.set("s3cr3t", forKey: "token")
/// let token = try keychain.string(forKey: "token")
/// keychain["refresh"] = "…"
/// try keychain.accessibility(.afterFirstUnlock).label("Sync token").set(data, forKey: "sync")
/// try await keychain.set(credentials, forKey: "login")   // Codable, never blocks the caller's actor
/// ```
///
/// Keys are stored as `kSecAttrAccount`; items are generic passwords of the service (`kSecAttrService`), or
/// internet passwords of the server with ``init(server:protocol:authenticationType:port:path:securityDomain:accessGroup:store:)``.
/// Options (accessibility, access control, label, ...) are per call: each modifier returns a configured copy.
/// `set` updates an existing item in place (SecItemUpdate; the creation date stays) and adds it otherwise.
public struct Keychain: Sendable {
    /// What kind of items this keychain keeps.
    public enum ItemKind: Sendable, Hashable {
        /// Generic passwords (`kSecClassGenericPassword`) of a service.
        case genericPassword(service: String)
        /// Internet passwords (`kSecClassInternetPassword`) of a server.
        case internetPassword(server: String, protocol: InternetProtocol?, authenticationType: AuthenticationType?,
                              port: Int?, path: String?, securityDomain: String?)
    }

    /// The kind of items and their service or server.
    public let kind: ItemKind
    /// `kSecAttrAccessGroup`; nil matches items of any group and adds without one.
    public let accessGroup: String?
    /// Where the items live.
    public let store: any ItemStore

    /// The accessibility given to items this keychain writes; nil leaves an existing item's level and adds
    /// new ones with the store's default (`whenUnlocked`).
    public private(set) var accessibility: Accessibility?
    /// The access control given to items this keychain writes.
    public private(set) var accessControl: AccessControl?
    /// Whether items are synchronizable (part of an item's identity, as on Apple platforms).
    public private(set) var synchronizable: Bool = false
    /// `kSecAttrLabel` for items written.
    public private(set) var label: String?
    /// `kSecAttrComment` for items written.
    public private(set) var comment: String?
    /// `kSecAttrDescription` for items written.
    public private(set) var itemDescription: String?
    /// The context that proves the user for access-controlled items.
    public private(set) var authenticationContext: (any AuthenticationContext)?
    /// The reason shown when an access-controlled item is opened (`kSecUseOperationPrompt`).
    public private(set) var authenticationPrompt: String?
    /// Whether reads of access-controlled items may prompt (`kSecUseAuthenticationUI`).
    public private(set) var authenticationUI: AuthenticationUI = .allow

    /// A keychain of generic passwords for `service`, kept in `store`.
    public init(service: String, accessGroup: String? = nil, store: any ItemStore) {
        self.kind = .genericPassword(service: service)
        self.accessGroup = accessGroup
        self.store = store
    }

    /// A keychain of internet passwords for `server` (keys are the accounts), kept in `store`.
    public init(server: String, protocol internetProtocol: InternetProtocol? = nil,
                authenticationType: AuthenticationType? = nil, port: Int? = nil, path: String? = nil,
                securityDomain: String? = nil, accessGroup: String? = nil, store: any ItemStore) {
        self.kind = .internetPassword(server: server, protocol: internetProtocol,
                                      authenticationType: authenticationType, port: port, path: path,
                                      securityDomain: securityDomain)
        self.accessGroup = accessGroup
        self.store = store
    }

    /// The service (generic passwords) or server (internet passwords).
    public var service: String {
        switch kind {
        case .genericPassword(let service): service
        case .internetPassword(let server, _, _, _, _, _): server
        }
    }

    var itemClass: ItemClass {
        switch kind {
        case .genericPassword: .genericPassword
        case .internetPassword: .internetPassword
        }
    }

    // MARK: - Per-call options

    /// A copy that writes items with `accessibility`.
    public func accessibility(_ accessibility: Accessibility) -> Keychain {
        var copy = self
        copy.accessibility = accessibility
        copy.accessControl = nil
        return copy
    }

    /// A copy that writes items readable at `accessibility` and only after proving `flags`
    /// (e.g. `.biometryCurrentSet`, `.userPresence`), as `SecAccessControlCreateWithFlags`.
    public func accessibility(_ accessibility: Accessibility, accessControl flags: AccessControlFlags) -> Keychain {
        accessControl(AccessControl(accessibility: accessibility, flags: flags))
    }

    /// A copy that writes items with `accessControl`.
    public func accessControl(_ accessControl: AccessControl) -> Keychain {
        var copy = self
        copy.accessControl = accessControl
        copy.accessibility = accessControl.accessibility
        return copy
    }

    /// A copy whose items are synchronizable (or not). Synchronizable and other items are distinct.
    public func synchronizable(_ synchronizable: Bool) -> Keychain {
        var copy = self
        copy.synchronizable = synchronizable
        return copy
    }

    /// A copy that writes `label` (`kSecAttrLabel`).
    public func label(_ label: String) -> Keychain {
        var copy = self
        copy.label = label
        return copy
    }

    /// A copy that writes `comment` (`kSecAttrComment`).
    public func comment(_ comment: String) -> Keychain {
        var copy = self
        copy.comment = comment
        return copy
    }

    /// A copy that writes `description` (`kSecAttrDescription`).
    public func itemDescription(_ description: String) -> Keychain {
        var copy = self
        copy.itemDescription = description
        return copy
    }

    /// A copy that opens access-controlled items with `context` (evaluated by the async calls when needed).
    public func authenticationContext(_ context: any AuthenticationContext) -> Keychain {
        var copy = self
        copy.authenticationContext = context
        return copy
    }

    /// A copy that shows `prompt` when an access-controlled item needs authentication.
    public func authenticationPrompt(_ prompt: String) -> Keychain {
        var copy = self
        copy.authenticationPrompt = prompt
        return copy
    }

    /// A copy with another `kSecUseAuthenticationUI` behaviour (`.fail` never prompts, `.skip` skips such items).
    public func authenticationUI(_ ui: AuthenticationUI) -> Keychain {
        var copy = self
        copy.authenticationUI = ui
        return copy
    }
}
