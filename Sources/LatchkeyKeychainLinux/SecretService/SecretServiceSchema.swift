import LatchkeyKeychainCore
#if canImport(CSecret)
import CSecret

/// A Secret Service schema: a name (stored as the item attribute `xdg:schema`) and typed attribute names.
public struct SecretServiceSchema: Sendable, Hashable {
    /// The type of one schema attribute.
    public enum AttributeType: Int32, Sendable {
        case string = 0, integer = 1, boolean = 2
    }

    /// The schema name, e.g. `org.latchkey.Item`.
    public let name: String
    /// The attributes items of this schema may carry.
    public let attributes: [String: AttributeType]

    /// A schema; libsecret allows at most 32 attributes.
    public init(name: String, attributes: [String: AttributeType]) {
        self.name = name
        self.attributes = attributes
    }

    func withHandle<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        guard let table = csecret_schema_table_new() else {
            throw SecretServiceError.failed(domain: "glib", code: 0, message: "out of memory")
        }
        for (key, type) in attributes { csecret_schema_table_insert(table, key, type.rawValue) }
        // secret_schema_newv copies the names; the table is ours to release.
        let schema = secret_schema_newv(name, Int32(CSECRET_SCHEMA_NONE), table)
        g_hash_table_unref(table)
        guard let schema else { throw SecretServiceError.failed(domain: "secret", code: 0, message: "bad schema") }
        defer { secret_schema_unref(schema) }
        return try body(schema)
    }
}
#endif
