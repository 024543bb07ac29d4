import Foundation
import LatchkeyKeychain

/// How the ``Keychain`` turns keys and options into store queries, items and change sets.
extension Keychain {
    /// Items of this keychain (one key when `key` is given).
    func query(key: String?) -> ItemQuery {
        var query = ItemQuery(itemClass: itemClass)
        switch kind {
        case .genericPassword(let service):
            query.filters[.service] = .string(service)
        case .internetPassword(let server, let internetProtocol, let authenticationType, let port, let path,
                               let securityDomain):
            query.filters[.server] = .string(server)
            if let internetProtocol { query.filters[.internetProtocol] = .string(internetProtocol.rawValue) }
            if let authenticationType { query.filters[.authenticationType] = .string(authenticationType.rawValue) }
            if let port { query.filters[.port] = .int(Int64(port)) }
            if let path { query.filters[.path] = .string(path) }
            if let securityDomain { query.filters[.securityDomain] = .string(securityDomain) }
        }
        if let key { query.filters[.account] = .string(key) }
        if let accessGroup { query.filters[.accessGroup] = .string(accessGroup) }
        query.synchronizable = synchronizable ? .yes : .no
        query.authenticationContext = authenticationContext
        query.authenticationUI = authenticationUI
        query.operationPrompt = authenticationPrompt
        return query
    }

    /// A new item for `key` holding `value`, with this keychain's options.
    func item(key: String, value: Data) -> Item {
        var attributes = ItemAttributes(itemClass: itemClass, synchronizable: synchronizable,
                                        accessibility: accessibility, accessControl: accessControl)
        for (attribute, filter) in query(key: key).filters { attributes.values[attribute] = filter }
        for (attribute, text) in optionalTexts { attributes.values[attribute] = .string(text) }
        return Item(attributes: attributes, value: value)
    }

    /// The change set that writes `value` and this keychain's explicit options onto an existing item.
    func changes(value: Data) -> AttributeChanges {
        var changes = AttributeChanges(value: value)
        for (attribute, text) in optionalTexts { changes.values[attribute] = .string(text) }
        if let accessControl {
            changes.accessControl = accessControl
        } else if let accessibility {
            changes.accessibility = accessibility
        }
        return changes
    }

    private var optionalTexts: [(AttributeKey, String)] {
        var texts: [(AttributeKey, String)] = []
        if let label { texts.append((.label, label)) }
        if let comment { texts.append((.comment, comment)) }
        if let itemDescription { texts.append((.itemDescription, itemDescription)) }
        return texts
    }
}
