import Foundation
import LatchkeyKeychainCore

/// What a lookup column stores for a name: the first 16 bytes of its HMAC-SHA256 under the index key (see
/// `VaultRow.lookupMAC`; vault format 2, `VaultFormat`), held inline — no allocation and no reference count — the
/// form the read path caches and binds. 128 bits keep lookups exact (a stray match has probability 2⁻¹²⁸, and a row
/// matched by mistake would still not open under another item's identity) and make the index entries half as wide.
struct LookupMAC: Sendable {
    static let byteCount = 16
    static let zero = LookupMAC()
    private var words: (UInt64, UInt64) = (0, 0)

    private init() {}

    /// The stored form of the HMAC `mac`; nil unless it has 32 bytes (an HMAC OpenSSL failed to compute is empty).
    init?(_ mac: Data) {
        guard mac.count == 32 else { return nil }
        Swift.withUnsafeMutableBytes(of: &words) { out in mac.withUnsafeBytes { out.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(Self.byteCount))) } }
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: words, body)
    }
}

/// One value per lookup column (`VaultRow.lookupColumns`), inline (no array).
struct LookupColumnSlots<Value> {
    private var accessGroup, service, account, server: Value

    init(repeating value: Value) {
        accessGroup = value; service = value; account = value; server = value
    }

    subscript(column: Int) -> Value {
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

/// One `LookupMAC` per lookup column.
typealias LookupMACs = LookupColumnSlots<LookupMAC>

extension LookupColumnSlots where Value == LookupMAC {
    init() { self.init(repeating: .zero) }
}

/// The last string looked up in each lookup column and its MAC, in front of the vault's MAC cache: a query
/// that names the same service (or the same item) as the one before finds its MAC with one string comparison,
/// without hashing.
struct RecentLookups {
    private var texts = LookupColumnSlots<String?>(repeating: nil)
    private var macs = LookupMACs()

    /// The MAC of `text` in `column`, if it is that column's last lookup.
    func mac(_ column: Int, _ text: String) -> LookupMAC? {
        texts[column] == text ? macs[column] : nil
    }

    mutating func record(_ column: Int, _ text: String, _ mac: LookupMAC) {
        texts[column] = text
        macs[column] = mac
    }
}
