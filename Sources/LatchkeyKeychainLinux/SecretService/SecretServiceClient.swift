#if canImport(CSecret)
import CSecret
import Foundation
import LatchkeyKeychainCore
import LatchkeySupport

/// A thin, synchronous client of the freedesktop Secret Service through libsecret.
///
/// Only libsecret's hash-table entry points are used (the variadic conveniences are unavailable in Swift).
/// Calls never prompt: a locked collection answers ``SecretServiceError/locked`` instead. All calls of one
/// client are serialised; libsecret's sync calls block the calling thread (about 1–4 ms each).
public final class SecretServiceClient: Sendable {
    /// Where new items go: the `default` alias (the login keyring) or the in-memory `session` collection.
    public enum Collection: String, Sendable {
        case `default` = "default"
        case session = "session"
    }

    /// The collection new items are created in.
    public let collection: Collection
    // Serialises libsecret calls; the service object itself is libsecret's process-wide singleton.
    private let lock = Locked(())

    /// Connects lazily; throws ``SecretServiceError/unavailable(_:)`` when no daemon owns the bus name.
    /// - Parameter requireRunningDaemon: when true (the default), refuse to trigger D-Bus activation of a
    ///   keyring daemon that is not already running (such a daemon starts locked and would need a prompt).
    public init(collection: Collection = .default, requireRunningDaemon: Bool = true) throws {
        self.collection = collection
        if requireRunningDaemon {
            guard Self.isDaemonRunning() else {
                throw SecretServiceError.unavailable("no process owns org.freedesktop.secrets on the session bus")
            }
        }
    }

    /// Whether a session bus exists and a Secret Service daemon currently owns `org.freedesktop.secrets`.
    /// Never autolaunches a bus or activates a daemon.
    public static func isDaemonRunning() -> Bool {
        guard sessionBusConfigured() else { return false }
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(Int32(CSECRET_G_BUS_TYPE_SESSION), nil, &error) else {
            if let error { g_error_free(error) }
            return false
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        let argument = g_variant_new_string("org.freedesktop.secrets")
        var children: [OpaquePointer?] = [argument]
        let parameters = children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
        guard let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
            parameters, nil, Int32(CSECRET_G_DBUS_CALL_FLAGS_NO_AUTO_START), 2000, nil, &error)
        else {
            if let error { g_error_free(error) }
            return false
        }
        defer { g_variant_unref(reply) }
        guard let typeString = g_variant_get_type_string(reply), String(cString: typeString) == "(b)",
              let value = g_variant_get_child_value(reply, 0) else { return false }
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }

    /// A session bus address is known without GLib having to autolaunch one (`dbus-launch` needs X11).
    static func sessionBusConfigured() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return FileManager.default.fileExists(atPath: runtime + "/bus")
        }
        return false
    }

    // MARK: - Password-style calls (one secret per attribute set)
    //
    // Built on the item-level calls rather than secret_password_*_sync: those unlock locked collections
    // (a prompt on a desktop), and these calls must never prompt.

    /// Stores `secret` under `attributes`, replacing the item of the schema with exactly these attributes.
    public func store(schema: SecretServiceSchema, attributes: [String: String], label: String, secret: Data) throws {
        let wanted = attributes.merging(["xdg:schema": schema.name]) { given, _ in given }
        let existing = try search(schema: schema, attributes: attributes, loadSecrets: false)
            .first { $0.attributes == wanted }
        if let existing {
            try update(existing, schema: schema, attributes: nil, label: label, secret: secret)
        } else {
            _ = try create(schema: schema, attributes: attributes, label: label, secret: secret)
        }
    }

    /// The secret of the first item matching `attributes`, or nil when none matches.
    /// Throws ``SecretServiceError/locked`` when the matching item is locked.
    public func lookup(schema: SecretServiceSchema, attributes: [String: String]) throws -> Data? {
        guard let item = try search(schema: schema, attributes: attributes, loadSecrets: true).first else { return nil }
        return try secret(of: item)
    }

    /// Deletes every item matching `attributes`; returns whether anything was deleted.
    @discardableResult
    public func clear(schema: SecretServiceSchema, attributes: [String: String]) throws -> Bool {
        let items = try search(schema: schema, attributes: attributes, loadSecrets: false)
        for item in items { try delete(item) }
        return !items.isEmpty
    }

    // MARK: - Item-level calls (labels, dates, update in place)

    /// Items of `schema` whose attributes include `attributes` (an empty dictionary matches all of the schema).
    /// - Parameter loadSecrets: also fetch each unlocked item's secret (one round trip for all).
    ///
    /// libsecret loads each item the daemon lists in a call of its own: one another client deletes in between fails
    /// the whole search ("No such secret item at path"), so the search is asked again — the daemon no longer lists it.
    public func search(schema: SecretServiceSchema, attributes: [String: String],
                       loadSecrets: Bool) throws -> [SecretServiceItem] {
        var attempt = 1
        while true {
            do {
                return try searchOnce(schema: schema, attributes: attributes, loadSecrets: loadSecrets)
            } catch SecretServiceError.noSuchObject where attempt < Self.searchAttempts {
                attempt += 1
            }
        }
    }

    /// How many times a search meeting deleted items is asked before it fails.
    static let searchAttempts = 8

    private func searchOnce(schema: SecretServiceSchema, attributes: [String: String],
                            loadSecrets: Bool) throws -> [SecretServiceItem] {
        try lock.withLock { _ in
            let service = try Self.service()
            defer { g_object_unref(UnsafeMutableRawPointer(service)) }
            return try schema.withHandle { schemaHandle in
                try Self.withTable(attributes) { table in
                    var error: UnsafeMutablePointer<GError>?
                    var flags = Int32(CSECRET_SEARCH_ALL)
                    if loadSecrets { flags |= Int32(CSECRET_SEARCH_LOAD_SECRETS) }
                    let list = secret_service_search_sync(service, schemaHandle, table, flags, nil, &error)
                    if let error {
                        csecret_list_free_objects(list)
                        throw Self.translate(error)
                    }
                    defer { csecret_list_free_objects(list) }
                    var items: [SecretServiceItem] = []
                    var node = list
                    while let current = node {
                        if let raw = current.pointee.data {
                            items.append(SecretServiceItem(retaining: OpaquePointer(raw)))
                        }
                        node = current.pointee.next
                    }
                    return items
                }
            }
        }
    }

    /// Creates an item in ``collection``. Fails with ``SecretServiceError/alreadyExists`` only if the daemon
    /// enforces it; keychain-level duplicate rules are the caller's (search first).
    public func create(schema: SecretServiceSchema, attributes: [String: String], label: String,
                       secret: Data) throws -> SecretServiceItem {
        try lock.withLock { _ in
            let service = try Self.service()
            defer { g_object_unref(UnsafeMutableRawPointer(service)) }
            var error: UnsafeMutablePointer<GError>?
            guard let target = secret_collection_for_alias_sync(service, collection.rawValue,
                                                                Int32(CSECRET_COLLECTION_NONE), nil, &error) else {
                if let error { throw Self.translate(error) }
                throw SecretServiceError.noSuchObject
            }
            defer { g_object_unref(UnsafeMutableRawPointer(target)) }
            if secret_collection_get_locked(target) != 0 { throw SecretServiceError.locked }
            return try schema.withHandle { schemaHandle in
                try Self.withTable(attributes) { table in
                    try Self.withValue(secret) { value in
                        guard let item = secret_item_create_sync(target, schemaHandle, table, label, value,
                                                                 Int32(CSECRET_ITEM_CREATE_NONE), nil, &error) else {
                            if let error { throw Self.translate(error) }
                            throw SecretServiceError.failed(domain: "secret", code: 0, message: "no item created")
                        }
                        return SecretServiceItem(adopting: item)
                    }
                }
            }
        }
    }

    /// Changes an item in place: whichever of attributes, label and secret is non-nil.
    public func update(_ item: SecretServiceItem, schema: SecretServiceSchema, attributes: [String: String]?,
                       label: String?, secret: Data?) throws {
        try lock.withLock { _ in
            if item.isLocked { throw SecretServiceError.locked }
            var error: UnsafeMutablePointer<GError>?
            if let attributes {
                try schema.withHandle { schemaHandle in
                    try Self.withTable(attributes) { table in
                        let ok = secret_item_set_attributes_sync(item.handle, schemaHandle, table, nil, &error)
                        try Self.check(ok != 0, error)
                    }
                }
            }
            if let label {
                let ok = secret_item_set_label_sync(item.handle, label, nil, &error)
                try Self.check(ok != 0, error)
            }
            if let secret {
                try Self.withValue(secret) { value in
                    let ok = secret_item_set_secret_sync(item.handle, value, nil, &error)
                    try Self.check(ok != 0, error)
                }
            }
        }
    }

    /// Deletes one item.
    public func delete(_ item: SecretServiceItem) throws {
        try lock.withLock { _ in
            var error: UnsafeMutablePointer<GError>?
            let ok = secret_item_delete_sync(item.handle, nil, &error)
            try Self.check(ok != 0, error)
        }
    }

    /// The item's secret, loading it if the search did not. Locked items throw ``SecretServiceError/locked``.
    public func secret(of item: SecretServiceItem) throws -> Data {
        try lock.withLock { _ in
            if item.isLocked { throw SecretServiceError.locked }
            if let value = secret_item_get_secret(item.handle) {
                defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
                return Self.data(of: value)
            }
            var error: UnsafeMutablePointer<GError>?
            let ok = secret_item_load_secret_sync(item.handle, nil, &error)
            try Self.check(ok != 0, error)
            guard let value = secret_item_get_secret(item.handle) else { throw SecretServiceError.locked }
            defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
            return Self.data(of: value)
        }
    }

    // MARK: - Helpers

    private static func service() throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        let flags = Int32(CSECRET_SERVICE_OPEN_SESSION)
        guard let service = secret_service_get_sync(flags, nil, &error) else {
            if let error {
                let translated = translate(error)
                if case .failed(_, _, let message) = translated { throw SecretServiceError.unavailable(message) }
                throw translated
            }
            throw SecretServiceError.unavailable("no Secret Service")
        }
        return service
    }

    static func withTable<R>(_ attributes: [String: String],
                             _ body: (OpaquePointer) throws -> R) throws -> R {
        guard let table = csecret_string_table_new() else {
            throw SecretServiceError.failed(domain: "glib", code: 0, message: "out of memory")
        }
        defer { g_hash_table_unref(table) }
        for (key, value) in attributes { csecret_string_table_insert(table, key, value) }
        return try body(table)
    }

    private static func withValue<R>(_ secret: Data, _ body: (OpaquePointer) throws -> R) throws -> R {
        // secret_value_new copies the bytes (into non-pageable memory) before returning.
        let value: OpaquePointer? = secret.isEmpty
            ? secret_value_new("", 0, "application/octet-stream")
            : secret.withUnsafeBytes { bytes in
                secret_value_new(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count,
                                 "application/octet-stream")
            }
        guard let value else { throw SecretServiceError.failed(domain: "secret", code: 0, message: "out of memory") }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        return try body(value)
    }

    static func data(of value: OpaquePointer) -> Data {
        var length = 0
        guard let bytes = secret_value_get(value, &length), length > 0 else { return Data() }
        return Data(bytes: bytes, count: length)
    }

    static func dictionary(of table: OpaquePointer?) -> [String: String] {
        guard let table else { return [:] }
        var result: [String: String] = [:]
        let keys = g_hash_table_get_keys(table)
        defer { g_list_free(keys) }
        var node = keys
        while let current = node {
            if let key = current.pointee.data, let value = g_hash_table_lookup(table, key) {
                result[String(cString: key.assumingMemoryBound(to: CChar.self))] =
                    String(cString: value.assumingMemoryBound(to: CChar.self))
            }
            node = current.pointee.next
        }
        return result
    }

    private static func check(_ ok: Bool, _ error: UnsafeMutablePointer<GError>?) throws {
        if let error { throw translate(error) }
        if !ok { throw SecretServiceError.failed(domain: "secret", code: 0, message: "the call failed") }
    }

    /// Turns a GError into a typed error and frees it.
    static func translate(_ error: UnsafeMutablePointer<GError>) -> SecretServiceError {
        defer { g_error_free(error) }
        let code = error.pointee.code
        let message = error.pointee.message.map { String(cString: $0) } ?? ""
        let domain = g_quark_to_string(error.pointee.domain).map { String(cString: $0) } ?? "unknown"
        if error.pointee.domain == secret_error_get_quark() {
            switch code {
            case Int32(CSECRET_ERROR_IS_LOCKED): return .locked
            case Int32(CSECRET_ERROR_NO_SUCH_OBJECT): return .noSuchObject
            case Int32(CSECRET_ERROR_ALREADY_EXISTS): return .alreadyExists
            default: break
            }
        }
        // D-Bus errors libsecret did not map carry the remote error name in the message.
        if message.contains("org.freedesktop.Secret.Error.IsLocked") || message.contains("locked collection") {
            return .locked
        }
        // libsecret's own words (G_DBUS_ERROR_UNKNOWN_METHOD) for an item gone before it could load it.
        if message.contains("org.freedesktop.Secret.Error.NoSuchObject") || message.hasPrefix("No such secret item") {
            return .noSuchObject
        }
        if message.contains("org.freedesktop.DBus.Error.ServiceUnknown")
            || message.contains("org.freedesktop.DBus.Error.NameHasNoOwner") {
            return .unavailable(message)
        }
        if domain == "g-io-error-quark", code == 19 /* G_IO_ERROR_CANCELLED */ { return .dismissed }
        return .failed(domain: domain, code: code, message: message)
    }
}
#endif
