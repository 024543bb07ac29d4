import Foundation
import Latchkey

/// add / find / delete / dump.
enum KeychainItemCommands {
    static func add(_ arguments: KeychainArguments, itemClass: ItemClass, access: KeychainVaultAccess) throws -> Int32 {
        let what = itemClass == .genericPassword ? "SERVICE" : "SERVER"
        var attributes = ItemAttributes(itemClass: itemClass)
        let owner = try arguments.required("s", what: what)
        try KeychainItemOptions.identity(arguments, itemClass: itemClass, into: &attributes, requireAccount: true)
        attributes.label = arguments.value("l") ?? owner
        if let comment = arguments.value("j") { attributes.comment = comment }
        if let kind = arguments.value("D") { attributes.itemDescription = kind }
        if let generic = arguments.value("G"), itemClass == .genericPassword { attributes.generic = Data(generic.utf8) }
        if let accessControl = try KeychainItemOptions.accessControl(arguments) {
            attributes.accessControl = accessControl
        }
        guard arguments.has("w") else {
            throw KeychainArguments.UsageError(message: "missing -w [PASSWORD] (give it last to be prompted)")
        }
        // The store first (a vault may ask for its passphrase), then the password.
        let store = try access.openStore()
        let password: String
        if let given = arguments.value("w") {
            password = given
        } else {
            password = try TerminalInput.readSecret(prompt: "password data for new item: ")
        }
        let item = Item(attributes: attributes, value: Data(password.utf8))
        if try addOrReport(item, to: store) { return 0 }
        guard arguments.has("U") else { throw KeychainStoreError.duplicateItem }
        // -U: update the existing item in place (its creation date stays).
        var changes = AttributeChanges(value: item.value)
        for key in [AttributeKey.label, .comment, .itemDescription, .generic] {
            if let value = attributes.values[key], key != .label || arguments.has("l") { changes.values[key] = value }
        }
        try store.update(KeychainItemOptions.exactQuery(for: attributes), with: changes)
        return 0
    }

    /// The matches of `query`; none (instead of errSecItemNotFound) when nothing matches.
    private static func matches(_ query: ItemQuery, in store: any ItemStore) throws(KeychainStoreError) -> [QueryResult] {
        do {
            return try store.copyMatching(query)
        } catch {
            if error.status == .itemNotFound { return [] }
            throw error
        }
    }

    /// Adds `item`; false when an item with its primary key exists.
    private static func addOrReport(_ item: Item, to store: any ItemStore) throws(KeychainStoreError) -> Bool {
        do {
            try store.add(item)
            return true
        } catch {
            if error.status == .duplicateItem { return false }
            throw error
        }
    }

    static func find(_ arguments: KeychainArguments, itemClass: ItemClass, access: KeychainVaultAccess) throws -> Int32 {
        var query = try KeychainItemOptions.searchQuery(arguments, itemClass: itemClass)
        let wantsPassword = arguments.has("w") || arguments.has("g")
        query.returnAttributes = true
        query.returnData = wantsPassword
        let store = try access.openStore()
        guard let result = try store.copyMatching(query).first else { throw KeychainStoreError.itemNotFound }
        if arguments.has("w") {
            print(KeychainPrinting.password(result.data ?? Data()))
            return 0
        }
        if let attributes = result.attributes {
            print(KeychainPrinting.describe(attributes, keychain: access.displayName))
        }
        if arguments.has("g") {
            FileHandle.standardError.write(Data("password: \"\(KeychainPrinting.password(result.data ?? Data()))\"\n".utf8))
        }
        return 0
    }

    static func delete(_ arguments: KeychainArguments, itemClass: ItemClass, access: KeychainVaultAccess) throws -> Int32 {
        // As `security`: delete the first matching item only.
        var query = try KeychainItemOptions.searchQuery(arguments, itemClass: itemClass)
        query.returnAttributes = true
        query.returnPersistentReference = true
        let store = try access.openStore()
        guard let first = try store.copyMatching(query).first, let reference = first.persistentReference else {
            throw KeychainStoreError.itemNotFound
        }
        var exact = ItemQuery(itemClass: itemClass, synchronizable: .any, persistentReference: reference)
        exact.matchLimit = .all
        try store.delete(exact)
        if let attributes = first.attributes {
            print(KeychainPrinting.describe(attributes, keychain: access.displayName))
        }
        print("password has been deleted.")
        return 0
    }

    static func dump(access: KeychainVaultAccess) throws -> Int32 {
        let store = try access.openStore()
        var blocks: [String] = []
        for itemClass in ItemClass.allCases {
            var query = ItemQuery(itemClass: itemClass, synchronizable: .any, matchLimit: .all, returnAttributes: true,
                                  authenticationUI: .skip)
            query.returnData = false
            for result in try matches(query, in: store) {
                if let attributes = result.attributes {
                    blocks.append(KeychainPrinting.describe(attributes, keychain: access.displayName))
                }
            }
        }
        if !blocks.isEmpty { print(blocks.joined(separator: "\n")) }
        return 0
    }
}

/// Turning `security`-style options into attributes and queries.
enum KeychainItemOptions {
    /// Service/server, account and the internet-password identity options into `attributes`.
    static func identity(_ arguments: KeychainArguments, itemClass: ItemClass, into attributes: inout ItemAttributes,
                         requireAccount: Bool) throws {
        for (key, value) in try filters(arguments, itemClass: itemClass) { attributes.values[key] = value }
        if requireAccount, attributes.account == nil {
            throw KeychainArguments.UsageError(message: "missing -a ACCOUNT")
        }
    }

    /// The filters the options name (used to search, and as the identity of a new item).
    static func filters(_ arguments: KeychainArguments, itemClass: ItemClass) throws -> [AttributeKey: AttributeValue] {
        var filters: [AttributeKey: AttributeValue] = [:]
        if let owner = arguments.value("s") { filters[itemClass == .genericPassword ? .service : .server] = .string(owner) }
        if let account = arguments.value("a") { filters[.account] = .string(account) }
        guard itemClass == .internetPassword else { return filters }
        if let name = arguments.value("r") { filters[.internetProtocol] = .string(try protocolCode(name)) }
        if let port = try arguments.integer("P") {
            guard (0...65535).contains(port) else { throw KeychainArguments.UsageError(message: "-P needs a port 0-65535") }
            filters[.port] = .int(Int64(port))
        }
        if let path = arguments.value("p") { filters[.path] = .string(path) }
        if let domain = arguments.value("d") { filters[.securityDomain] = .string(domain) }
        if let type = arguments.value("t") { filters[.authenticationType] = .string(try fourCharCode(type, option: "t")) }
        return filters
    }

    /// The query of a find/delete: the given filters (plus the label with -l), first match.
    static func searchQuery(_ arguments: KeychainArguments, itemClass: ItemClass) throws -> ItemQuery {
        var query = ItemQuery(itemClass: itemClass, filters: try filters(arguments, itemClass: itemClass))
        if let label = arguments.value("l") { query.filters[.label] = .string(label) }
        query.synchronizable = .any
        return query
    }

    /// The query matching exactly the item with these attributes' primary key (absent parts as empty).
    static func exactQuery(for attributes: ItemAttributes) -> ItemQuery {
        var query = ItemQuery(itemClass: attributes.itemClass)
        for key in AttributeKey.primaryKey(of: attributes.itemClass) where key != .accessGroup {
            query.filters[key] = attributes.values[key] ?? .empty(key.kind(for: attributes.itemClass))
        }
        if let group = attributes.accessGroup { query.filters[.accessGroup] = .string(group) }
        return query
    }

    /// The access control an added item gets. None yet: `--require biometry-current-set|biometry-any|
    /// user-presence` (issue 4) will map to `AccessControl(accessibility: .whenPasscodeSetThisDeviceOnly, flags:)`
    /// here, with the option added to `KeychainSubcommand.options`.
    static func accessControl(_ arguments: KeychainArguments) throws -> AccessControl? {
        nil
    }

    /// `-r` accepts Apple's four-character codes ("htps", "ftp ") and the usual names ("https", "ftp").
    static func protocolCode(_ name: String) throws -> String {
        let names: [String: InternetProtocol] = [
            "https": .https, "http": .http, "ftp": .ftp, "ssh": .ssh, "smb": .smb, "imap": .imap, "imaps": .imaps,
            "smtp": .smtp, "pop3": .pop3, "ldap": .ldap,
        ]
        if let known = names[name.lowercased()] { return known.rawValue }
        return try fourCharCode(name, option: "r")
    }

    static func fourCharCode(_ text: String, option: String) throws -> String {
        guard !text.isEmpty, text.utf8.count <= 4, text.allSatisfy(\.isASCII) else {
            throw KeychainArguments.UsageError(message: "-\(option) needs a code of up to four characters, got '\(text)'")
        }
        return text.padding(toLength: 4, withPad: " ", startingAt: 0)
    }
}
