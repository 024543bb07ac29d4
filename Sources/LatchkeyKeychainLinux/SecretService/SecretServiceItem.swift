#if canImport(CSecret)
import CSecret
import Foundation
import LatchkeyKeychainCore

/// One item of the Secret Service, as a search returned it (holds a reference to libsecret's object).
public final class SecretServiceItem {
    let handle: OpaquePointer

    init(adopting handle: OpaquePointer) { self.handle = handle }

    init(retaining handle: OpaquePointer) {
        g_object_ref(UnsafeMutableRawPointer(handle))
        self.handle = handle
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// The item's attributes (including `xdg:schema`).
    public var attributes: [String: String] {
        let table = secret_item_get_attributes(handle)
        defer { if let table { g_hash_table_unref(table) } }
        return SecretServiceClient.dictionary(of: table)
    }

    /// The item's label.
    public var label: String {
        guard let raw = secret_item_get_label(handle) else { return "" }
        defer { g_free(raw) }
        return String(cString: raw)
    }

    /// Whether the item is locked (its secret cannot be read without an unlock prompt).
    public var isLocked: Bool { secret_item_get_locked(handle) != 0 }

    /// When the item was created (the daemon's clock, whole seconds).
    public var created: Date { Date(timeIntervalSince1970: TimeInterval(secret_item_get_created(handle))) }

    /// When the item was last modified (whole seconds).
    public var modified: Date { Date(timeIntervalSince1970: TimeInterval(secret_item_get_modified(handle))) }
}
#endif
