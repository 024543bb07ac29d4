import Foundation
import LatchkeyCrypto

/// The columns of one stored item and how they are sealed.
///
/// Row identity, bound into every sealed blob as associated data: format tag, class, primary-key MAC,
/// uid (16 random bytes, also the persistent reference), accessibility and access-control flags. A blob
/// moved to another row, or a changed plaintext column, fails to open (errSecDecode).
struct VaultRow {
    var uid: Data
    var itemClass: ItemClass
    var pk: Data
    var lookup: [AttributeKey: Data]
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
    static let lookupKeys: [AttributeKey] = [.accessGroup, .service, .account, .server]

    static func aad(itemClass: ItemClass, pk: Data, uid: Data, accessibility: Accessibility, flags: UInt64, part: UInt8) -> Data {
        // "LKV1" ‖ part ‖ class ‖ len ‖ pk ‖ len ‖ uid ‖ len ‖ pdmn ‖ flags (8 bytes, big-endian)
        var out = [UInt8]()
        out.reserveCapacity(24 + pk.count + uid.count)
        out.append(0x4c); out.append(0x4b); out.append(0x56); out.append(0x31); out.append(part)
        for b in itemClass.rawValue.utf8 { out.append(b) }
        out.append(UInt8(truncatingIfNeeded: pk.count))
        pk.withUnsafeBytes { out.append(contentsOf: $0) }
        out.append(UInt8(truncatingIfNeeded: uid.count))
        uid.withUnsafeBytes { out.append(contentsOf: $0) }
        let level = accessibility.rawValue.utf8
        out.append(UInt8(truncatingIfNeeded: level.count))
        for b in level { out.append(b) }
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((flags >> UInt64(shift)) & 0xff)) }
        return out.withUnsafeBytes { Data($0) }
    }

    func aad(_ part: UInt8) -> Data {
        Self.aad(itemClass: itemClass, pk: pk, uid: uid, accessibility: accessibility, flags: accessControlFlags, part: part)
    }

    /// The MAC stored in a lookup column for an attribute value.
    static func lookupMAC(_ key: AttributeKey, _ value: AttributeValue, keys: VaultKeys) -> Data {
        var bytes = AttributeCoding.Writer(capacity: 64)
        bytes.bytes.append(contentsOf: key.rawValue.utf8)
        bytes.byte(0)
        bytes.value(value)
        return keys.mac(bytes.bytes)
    }

    /// Seals a new or changed item. With `gateSecrets` (an access-controlled item) the value is sealed under
    /// a fresh random item key, wrapped once per alternative under `VaultKeys.gateKey`; otherwise under the
    /// class key. With `keep`, the sealed value and gate of an unchanged identity are reused as they are.
    static func make(uid: Data, attributes: ItemAttributes, value: Data, keys: VaultKeys,
                     gateSecrets: [[Data]]?, keep: (sealedValue: Data, gate: Data?)? = nil, rowid: Int64 = 0) throws(KeychainStoreError) -> VaultRow {
        let level = attributes.effectiveAccessibility
        let classKey = try keys.classKey(for: level)
        let flags = UInt64(attributes.accessControl?.flags.rawValue ?? 0)
        let pkMAC = keys.mac(PrimaryKey.bytes(attributes, value: value))
        var lookup: [AttributeKey: Data] = [:]
        let applicable = AttributeKey.applicable(to: attributes.itemClass)
        let primary = AttributeKey.primaryKey(of: attributes.itemClass)
        for key in lookupKeys where applicable.contains(key) && primary.contains(key) {
            lookup[key] = lookupMAC(key, attributes.values[key] ?? .empty(key.kind(for: attributes.itemClass)), keys: keys)
        }
        var row = VaultRow(uid: uid, itemClass: attributes.itemClass, pk: pkMAC, lookup: lookup,
                           synchronizable: attributes.synchronizable, accessibility: level, accessControlFlags: flags,
                           sealedAttributes: Data(), sealedValue: Data(), gate: nil)
        row.rowid = rowid
        row.sealedAttributes = try VaultSeal.seal(AttributeCoding.encode(attributes), key: classKey, aad: row.aad(0x61))
        if let secrets = gateSecrets, !secrets.isEmpty {
            let itemKey = SymmetricKey(size: .bits256)
            var gate = Data([UInt8(truncatingIfNeeded: secrets.count)])
            for (index, s) in secrets.enumerated() {
                let wrap = try VaultKeys.gateKey(classKey: classKey, secrets: s, uid: uid, alternative: index)
                let keyBytes = itemKey.withUnsafeBytes { Data($0) }
                AttributeCoding.appendBytes(try VaultSeal.seal(keyBytes, key: wrap, aad: row.aad(0x67)), to: &gate)
            }
            row.gate = gate
            row.sealedValue = try VaultSeal.seal(value, key: itemKey, aad: row.aad(0x76))
        } else if let keep {
            row.gate = keep.gate
            row.sealedValue = keep.sealedValue
        } else {
            row.sealedValue = try VaultSeal.seal(value, key: classKey, aad: row.aad(0x76))
        }
        return row
    }

    func openAttributes(keys: VaultKeys) throws(KeychainStoreError) -> ItemAttributes {
        let classKey = try keys.classKey(for: accessibility)
        let a = try AttributeCoding.decode(try VaultSeal.open(sealedAttributes, key: classKey, aad: aad(0x61)))
        guard a.itemClass == itemClass, a.effectiveAccessibility == accessibility else { throw KeychainStoreError(.decode, .corruptItem) }
        return a
    }

    /// The item key of an access-controlled row, unwrapped with the released secrets of one alternative.
    /// A wrong secret (another enrolment for biometryCurrentSet) gives errSecAuthFailed.
    func openItemKey(keys: VaultKeys, alternative: Int, secrets: [Data]) throws(KeychainStoreError) -> SymmetricKey {
        guard let gate else { throw KeychainStoreError(.decode, .corruptItem) }
        var r = AttributeCoding.Reader(bytes: [UInt8](gate))
        let count = Int(try r.byte())
        guard alternative < count else { throw KeychainStoreError(.decode, .corruptItem) }
        var wrapped = Data()
        for index in 0...alternative { let blob = Data(try r.raw()); if index == alternative { wrapped = blob } }
        let classKey = try keys.classKey(for: accessibility)
        let wrap = try VaultKeys.gateKey(classKey: classKey, secrets: secrets, uid: uid, alternative: alternative)
        var keyBytes: Data
        do { keyBytes = try VaultSeal.open(wrapped, key: wrap, aad: aad(0x67)) } catch { throw .authFailed }
        defer { keyBytes.resetBytes(in: 0..<keyBytes.count) }
        return SymmetricKey(data: keyBytes)
    }

    func openValue(keys: VaultKeys, itemKey: SymmetricKey?) throws(KeychainStoreError) -> Data {
        let key: SymmetricKey
        if let itemKey { key = itemKey } else { key = try keys.classKey(for: accessibility) }
        return try VaultSeal.open(sealedValue, key: key, aad: aad(0x76))
    }
}
