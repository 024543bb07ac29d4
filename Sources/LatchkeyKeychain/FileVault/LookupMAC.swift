import Foundation

/// What a lookup column stores for a name (HMAC-SHA256 under the index key, see `VaultRow.lookupMAC`), held
/// inline: 32 bytes, no allocation and no reference count — the form the read path caches and binds.
struct LookupMAC: Sendable {
    static let byteCount = 32
    static let zero = LookupMAC()
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    private init() {}

    /// The MAC in `mac`; nil unless it has 32 bytes (an HMAC OpenSSL failed to compute is empty).
    init?(_ mac: Data) {
        guard mac.count == Self.byteCount else { return nil }
        Swift.withUnsafeMutableBytes(of: &words) { out in mac.withUnsafeBytes { out.copyMemory(from: $0) } }
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: words, body)
    }
}

/// One `LookupMAC` per lookup column, in `VaultRow.lookupKeys` order, inline (no array).
struct LookupMACs {
    private var accessGroup = LookupMAC.zero, service = LookupMAC.zero, account = LookupMAC.zero, server = LookupMAC.zero

    subscript(column: Int) -> LookupMAC {
        get {
            switch column {
            case 0: accessGroup
            case 1: service
            case 2: account
            default: server
            }
        }
        set {
            switch column {
            case 0: accessGroup = newValue
            case 1: service = newValue
            case 2: account = newValue
            default: server = newValue
            }
        }
    }
}

/// The last string looked up in each lookup column and its MAC, in front of the vault's MAC cache: a query
/// that names the same service (or the same item) as the one before finds its MAC with one string comparison,
/// without hashing.
struct RecentLookups {
    private var accessGroup: String?, service: String?, account: String?, server: String?
    private var macs = LookupMACs()

    /// The MAC of `text` in `column`, if it is that column's last lookup.
    func mac(_ column: Int, _ text: String) -> LookupMAC? {
        let last: String? = switch column {
        case 0: accessGroup
        case 1: service
        case 2: account
        default: server
        }
        return last == text ? macs[column] : nil
    }

    mutating func record(_ column: Int, _ text: String, _ mac: LookupMAC) {
        switch column {
        case 0: accessGroup = text
        case 1: service = text
        case 2: account = text
        default: server = text
        }
        macs[column] = mac
    }
}
