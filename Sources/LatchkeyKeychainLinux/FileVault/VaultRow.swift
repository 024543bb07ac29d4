import Foundation
import LatchkeyKeychainCore
import CryptoKit
import LatchkeyOpenSSL
import LatchkeySupport

/// The columns of one stored item and how they are sealed.
///
/// Row identity, bound into every sealed blob as associated data: format tag, class, primary-key MAC,
/// uid (16 random bytes, also the persistent reference), accessibility and access-control flags. A blob
/// moved to another row, or a changed plaintext column, fails to open (errSecDecode).
struct VaultRow {
    var uid: Data
    var itemClass: ItemClass
    var pk: Data
    /// The lookup-column MACs (stored form, `LookupMAC`) in `lookupKeys` order (nil: no such column for the class); empty
    /// when not read.
    var lookupMACs: [Data?]
    var synchronizable: Bool
    var accessibility: Accessibility
    var accessControlFlags: UInt64
    var sealedAttributes: Data
    var sealedValue: Data
    var gate: Data?
    /// SQLite rowid (locates the row; not part of the sealed identity).
    var rowid: Int64 = 0

    /// The persistent reference: rowid (8 bytes, big-endian) ‖ uid.
    var persistentReference: Data {
        var d = Data()
        AttributeCoding.appendUInt64(UInt64(bitPattern: rowid), to: &d)
        d.append(uid)
        return d
    }

    static func parseReference(_ ref: Data) -> (Int64, Data)? {
        guard ref.count == 24 else { return nil }
        var id: UInt64 = 0
        for b in ref.prefix(8) { id = (id << 8) | UInt64(b) }
        return (Int64(bitPattern: id), Data(ref.suffix(16)))
    }

    /// Lookup columns, in table order.
    static let lookupKeys: [AttributeKey] = QueryFilters.places

    /// `lookupKeys.indices`, without the array.
    static var lookupColumns: Range<Int> { 0..<4 }

    /// `lookupKeys[column]` without the array (`column` in `lookupColumns`).
    static func lookupKey(column: Int) -> AttributeKey { QueryFilters.key(place: column) }

    /// The MAC in the lookup column of `key`, if the row has one.
    func lookup(_ key: AttributeKey) -> Data? {
        guard let column = Self.lookupColumn(of: key), column < lookupMACs.count else { return nil }
        return lookupMACs[column]
    }

    /// The position of `key` in `lookupKeys`, if it has a lookup column.
    static func lookupColumn(of key: AttributeKey) -> Int? { QueryFilters.place(of: key) }

    /// The AAD of one sealed part, as `Data` (the sealing and opening paths use `RowAAD` directly).
    func aad(_ part: UInt8) -> Data {
        var aad = rowAAD
        return aad.with(part: part) { Data($0) }
    }

    var rowAAD: RowAAD {
        pk.withUnsafeBytes { pk in
            uid.withUnsafeBytes { uid in
                RowAAD(itemClass: itemClass, pk: pk, uid: uid, accessibility: accessibility, flags: accessControlFlags)
            }
        }
    }

    /// What a lookup column stores for an attribute value: the first `LookupMAC.byteCount` bytes of `lookupMAC`.
    static func storedLookupMAC(_ key: AttributeKey, _ value: AttributeValue, keys: VaultKeys) -> Data {
        lookupMAC(key, value, keys: keys).prefix(LookupMAC.byteCount)
    }

    /// The HMAC of a lookup attribute's value (the lookup columns store its first bytes: `storedLookupMAC`).
    static func lookupMAC(_ key: AttributeKey, _ value: AttributeValue, keys: VaultKeys) -> Data {
        var bytes = AttributeCoding.Writer(capacity: 64)
        bytes.bytes.append(contentsOf: key.rawValue.utf8)
        bytes.byte(0)
        bytes.value(value)
        return keys.mac(bytes.bytes)
    }

    /// Seals a new or changed item. With `gateKeys` (an access-controlled item: the sealing keys of each alternative's
    /// domains, `AccessGate.keysForSealing`) the value is sealed under a fresh random item key, wrapped once per
    /// alternative (`VaultGate`); otherwise under the class key. With `keep`, the sealed value and gate of an unchanged
    /// identity are reused as they are.
    static func make(uid: Data, attributes: ItemAttributes, value: Data, keys: VaultKeys,
                     gateKeys: [[Data]]?, keep: (sealedValue: Data, gate: Data?)? = nil, rowid: Int64 = 0) throws(KeychainStoreError) -> VaultRow {
        try make(uid: uid, attributes: attributes, value: value, keys: keys, gateKeys: gateKeys, keep: keep, rowid: rowid,
                 primaryKeyMAC: nil) { (key, _, value) throws(KeychainStoreError) -> Data in storedLookupMAC(key, value, keys: keys) }
    }

    /// As `make(uid:attributes:value:keys:gateKeys:keep:rowid:)`, with the MACs of the row's identity from
    /// the caller: `lookupMAC(key, column, value)` is the MAC of a lookup column (the vault's cache), and
    /// `primaryKeyMAC`, when given, the row's own primary-key MAC, for a change that leaves the primary-key bytes
    /// as they were (see `PrimaryKey.unchanged`).
    static func make(uid: Data, attributes: ItemAttributes, value: Data, keys: VaultKeys,
                     gateKeys: [[Data]]?, keep: (sealedValue: Data, gate: Data?)? = nil, rowid: Int64 = 0,
                     primaryKeyMAC: Data?,
                     lookupMAC: (AttributeKey, Int, AttributeValue) throws(KeychainStoreError) -> Data) throws(KeychainStoreError) -> VaultRow {
        let level = attributes.effectiveAccessibility
        let classKey = try keys.classKey(for: level)
        let flags = UInt64(attributes.accessControl?.flags.rawValue ?? 0)
        let primaryValues = PrimaryKey.values(attributes)
        let pkMAC = primaryKeyMAC ?? keys.mac(PrimaryKey.bytes(attributes, value: value, values: primaryValues))
        let primary = AttributeKey.primaryKey(of: attributes.itemClass)
        var lookup: [Data?] = []
        lookup.reserveCapacity(lookupKeys.count)
        for column in lookupColumns {
            let key = lookupKey(column: column)
            guard AttributeKey.isApplicable(key, to: attributes.itemClass), let i = primary.firstIndex(of: key) else {
                lookup.append(nil)
                continue
            }
            lookup.append(try lookupMAC(key, column, primaryValues[i]))
        }
        var row = VaultRow(uid: uid, itemClass: attributes.itemClass, pk: pkMAC, lookupMACs: lookup,
                           synchronizable: attributes.synchronizable, accessibility: level, accessControlFlags: flags,
                           sealedAttributes: Data(), sealedValue: Data(), gate: nil)
        row.rowid = rowid
        var aad = row.rowAAD
        row.sealedAttributes = try VaultSeal.seal(AttributeCoding.encode(attributes), key: classKey, aad: &aad, part: 0x61)
        if let gateKeys {
            // An access control no alternative of which can be proven here gets no wrapped key at all: its value is
            // sealed under a key nobody keeps.
            let itemKey = SymmetricKey(size: .bits256)
            row.gate = try VaultGate.seal(itemKey, to: gateKeys, classKey: classKey, uid: uid, aad: &aad)
            row.sealedValue = try VaultSeal.seal(value, key: itemKey, aad: &aad, part: 0x76)
        } else if let keep {
            row.gate = keep.gate
            row.sealedValue = keep.sealedValue
        } else {
            row.sealedValue = try VaultSeal.seal(value, key: classKey, aad: &aad, part: 0x76)
        }
        return row
    }

    func openAttributes(keys: VaultKeys) throws(KeychainStoreError) -> ItemAttributes {
        let classKey = try keys.classKey(for: accessibility)
        var aad = rowAAD
        let a = try AttributeCoding.decode(try VaultSeal.open(sealedAttributes, key: classKey, aad: &aad, part: 0x61))
        guard a.itemClass == itemClass, a.effectiveAccessibility == accessibility else { throw KeychainStoreError(.decode, .corruptItem) }
        return a
    }

    /// The item key of an access-controlled row, unwrapped with the released secrets of one alternative.
    /// A wrong secret (another enrolment for biometryCurrentSet) gives errSecAuthFailed.
    func openItemKey(keys: VaultKeys, alternative: Int, secrets: [Data]) throws(KeychainStoreError) -> SymmetricKey {
        guard let gate else { throw KeychainStoreError(.decode, .corruptItem) }
        var aad = rowAAD
        return try VaultGate.open(gate, alternative: alternative, secrets: secrets,
                                  classKey: try keys.classKey(for: accessibility), uid: uid, aad: &aad)
    }

    func openValue(keys: VaultKeys, itemKey: SymmetricKey?) throws(KeychainStoreError) -> Data {
        let key: SymmetricKey
        if let itemKey { key = itemKey } else { key = try keys.classKey(for: accessibility) }
        var aad = rowAAD
        return try VaultSeal.open(sealedValue, key: key, aad: &aad, part: 0x76)
    }
}

/// The associated data of a row's sealed parts, built once per row (the parts differ only in one byte):
/// "LKV1" ‖ part ‖ class ‖ len ‖ pk ‖ len ‖ uid ‖ len ‖ pdmn ‖ flags (8 bytes, big-endian).
struct RowAAD {
    private var bytes: [UInt8]
    private static let partIndex = 4

    init(itemClass: ItemClass, pk: UnsafeRawBufferPointer, uid: UnsafeRawBufferPointer, accessibility: Accessibility,
         flags: UInt64) {
        var level = accessibility.rawValue
        bytes = level.withUTF8 { level in
            let count = Self.count(itemClass, pk: pk, uid: uid, level: level.count)
            return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                initialized = Self.write(into: UnsafeMutableRawBufferPointer(out), itemClass: itemClass, pk: pk, uid: uid,
                                         level: UnsafeRawBufferPointer(level), flags: flags, part: 0)
            }
        }
    }

    /// Calls `body` with the AAD of one part (0x61 attributes, 0x76 value, 0x67 gate).
    mutating func with<R, E: Error>(part: UInt8, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        bytes[Self.partIndex] = part
        return try withTypedBytes(of: bytes, body)
    }

    /// Calls `body` with the AAD of one part of a row, written on the stack (for a row whose one part is opened).
    /// `level` is the raw value of the row's accessibility as UTF-8 (its column's bytes).
    static func withBytes<R, E: Error>(itemClass: ItemClass, pk: UnsafeRawBufferPointer, uid: UnsafeRawBufferPointer,
                                       level: UnsafeRawBufferPointer, flags: UInt64, part: UInt8,
                                       _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeTemporaryAllocation(byteCount: count(itemClass, pk: pk, uid: uid, level: level.count), alignment: 1) {
            (out) throws(E) -> R in
            let written = write(into: out, itemClass: itemClass, pk: pk, uid: uid, level: level, flags: flags, part: part)
            return try body(UnsafeRawBufferPointer(rebasing: out[..<written]))
        }
    }

    private static func count(_ itemClass: ItemClass, pk: UnsafeRawBufferPointer, uid: UnsafeRawBufferPointer, level: Int) -> Int {
        5 + itemClass.rawValueUTF8.utf8CodeUnitCount + 1 + pk.count + 1 + uid.count + 1 + level + 8
    }

    /// Writes the AAD into `out` (at least `count(...)` bytes) and returns how many bytes it wrote.
    private static func write(into out: UnsafeMutableRawBufferPointer, itemClass: ItemClass, pk: UnsafeRawBufferPointer,
                              uid: UnsafeRawBufferPointer, level: UnsafeRawBufferPointer, flags: UInt64, part: UInt8) -> Int {
        var i = 0
        func put(_ b: UInt8) { out[i] = b; i += 1 }
        func put(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            (out.baseAddress! + i).copyMemory(from: base, byteCount: bytes.count)
            i += bytes.count
        }
        put(0x4c); put(0x4b); put(0x56); put(0x31); put(part) // "LKV1", part
        itemClass.rawValueUTF8.withUTF8Buffer { put(UnsafeRawBufferPointer($0)) }
        put(UInt8(truncatingIfNeeded: pk.count)); put(pk)
        put(UInt8(truncatingIfNeeded: uid.count)); put(uid)
        put(UInt8(truncatingIfNeeded: level.count)); put(level)
        for shift in stride(from: 56, through: 0, by: -8) { put(UInt8((flags >> UInt64(shift)) & 0xff)) }
        return i
    }
}
