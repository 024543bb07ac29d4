import Foundation
import LatchkeyAuth
import LatchkeyCrypto

extension FileVault {
    static let rowColumns = "uid, class, pk, agrp, svce, acct, srvr, sync, pdmn, accc, attrs, value, gate"

    public func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) {
        var item = item
        try StoreRules.prepareForAdd(&item, defaultAccessGroup: defaultAccessGroup, now: Date())
        let ac = item.attributes.accessControl
        let secrets: [[Data]]? = try ac.flatMap { ac throws(KeychainStoreError) in
            ac.requiresAuthentication ? try AccessGate.secretsForSealing(ac, context: authenticationContext) : nil
        }
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            let keys = try Self.keys(s, for: item.attributes.effectiveAccessibility)
            let row = try VaultRow.make(uid: SecureRandom.bytes(count: 16), attributes: item.attributes, value: item.value,
                                        keys: keys, gateSecrets: secrets)
            try s.db.immediateTransaction { () throws(KeychainStoreError) in try Self.insert(row, s.db) }
        }
    }

    public func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] {
        try query.validate()
        return try state.withLock { (s: inout State) throws(KeychainStoreError) -> [QueryResult] in
            guard let keys = s.keys else { throw KeychainStoreError(.interactionNotAllowed, .locked) }
            let (rows, needsAttributes) = try Self.candidates(query, s.db, keys)
            var results: [QueryResult] = []
            for row in rows {
                try Self.checkLock(row.accessibility, keys)
                var attributes: ItemAttributes?
                if needsAttributes || query.returnAttributes || query.returnReference {
                    let a = try row.openAttributes(keys: keys)
                    guard query.matches(a) else { continue }
                    attributes = a
                }
                var value = Data()
                if query.needsValue {
                    var itemKey: SymmetricKey?
                    if row.accessControlFlags != 0, let ac = try Self.accessControl(of: row, attributes, keys) {
                        do throws(KeychainStoreError) {
                            itemKey = try Self.openGate(row, ac, query.authenticationContext, keys)
                        } catch where query.authenticationUI == .skip {
                            continue
                        }
                    }
                    value = try row.openValue(keys: keys, itemKey: itemKey)
                }
                let a = attributes ?? ItemAttributes(itemClass: row.itemClass)
                results.append(StoreRules.result(attributes: a, value: value, reference: row.uid, for: query))
                if let limit = query.matchLimit.count, results.count >= limit { break }
            }
            guard !results.isEmpty else { throw .itemNotFound }
            return results
        }
    }

    public func update(_ query: ItemQuery, with changes: AttributeChanges) throws(KeychainStoreError) {
        try query.validate()
        try changes.validate(for: query.itemClass)
        if let ac = changes.accessControl { _ = try ac.alternatives() }
        let now = Date()
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            guard let keys = s.keys else { throw KeychainStoreError(.interactionNotAllowed, .locked) }
            try s.db.immediateTransaction { () throws(KeychainStoreError) in
                let (rows, _) = try Self.candidates(query, s.db, keys)
                var touched = 0
                for row in rows {
                    try Self.checkLock(row.accessibility, keys)
                    let old = try row.openAttributes(keys: keys)
                    guard query.matches(old) else { continue }
                    var new = changes.applied(to: old)
                    try Self.checkLock(new.effectiveAccessibility, keys)
                    new.modificationDate = StoreRules.nextModificationDate(after: old.modificationDate, now: now)
                    let identityChanges = StoreRules.needsGateForUpdate(old, new, changes)
                        || old.effectiveAccessibility != new.effectiveAccessibility
                    let updated: VaultRow
                    if identityChanges {
                        var itemKey: SymmetricKey?
                        if let ac = old.accessControl, ac.requiresAuthentication {
                            itemKey = try Self.openGate(row, ac, query.authenticationContext, keys)
                        }
                        var value: Data
                        if let newValue = changes.value { value = newValue } else { value = try row.openValue(keys: keys, itemKey: itemKey) }
                        defer { value.resetBytes(in: 0..<value.count) }
                        let secrets: [[Data]]? = try new.accessControl.flatMap { ac throws(KeychainStoreError) in
                            ac.requiresAuthentication ? try AccessGate.secretsForSealing(ac, context: query.authenticationContext) : nil
                        }
                        updated = try VaultRow.make(uid: row.uid, attributes: new, value: value, keys: keys, gateSecrets: secrets)
                    } else {
                        updated = try VaultRow.make(uid: row.uid, attributes: new, value: Data(), keys: keys, gateSecrets: nil,
                                                    keep: (row.sealedValue, row.gate))
                    }
                    try Self.replace(updated, s.db)
                    touched += 1
                }
                guard touched > 0 else { throw .itemNotFound }
            }
        }
    }

    public func delete(_ query: ItemQuery) throws(KeychainStoreError) {
        try query.validate()
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            guard let keys = s.keys else { throw KeychainStoreError(.interactionNotAllowed, .locked) }
            try s.db.immediateTransaction { () throws(KeychainStoreError) in
                let (rows, needsAttributes) = try Self.candidates(query, s.db, keys)
                var doomed: [Data] = []
                for row in rows {
                    try Self.checkLock(row.accessibility, keys)
                    if needsAttributes { guard query.matches(try row.openAttributes(keys: keys)) else { continue } }
                    doomed.append(row.uid)
                }
                guard !doomed.isEmpty else { throw .itemNotFound }
                for uid in doomed {
                    try s.db.using("DELETE FROM items WHERE uid = ?1") { st throws(KeychainStoreError) in st.bind(1, uid); try st.run() }
                }
            }
        }
    }

    // MARK: Helpers

    static func keys(_ s: State, for level: Accessibility) throws(KeychainStoreError) -> VaultKeys {
        guard let keys = s.keys else { throw KeychainStoreError(.interactionNotAllowed, .locked) }
        try checkLock(level, keys)
        return keys
    }

    static func checkLock(_ level: Accessibility, _ keys: VaultKeys) throws(KeychainStoreError) {
        guard LockState(isLocked: keys.whenUnlocked == nil, hasBeenUnlocked: true).permits(level) else {
            throw KeychainStoreError(.interactionNotAllowed, .locked)
        }
    }

    static func accessControl(of row: VaultRow, _ attributes: ItemAttributes?, _ keys: VaultKeys) throws(KeychainStoreError) -> AccessControl? {
        if let attributes { return attributes.accessControl }
        return AccessControl(accessibility: row.accessibility, flags: AccessControlFlags(rawValue: UInt(row.accessControlFlags)))
    }

    static func openGate(_ row: VaultRow, _ ac: AccessControl, _ context: (any AuthenticationContext)?, _ keys: VaultKeys) throws(KeychainStoreError) -> SymmetricKey {
        let (index, secrets) = try AccessGate.secretsForOpening(ac, context: context)
        return try row.openItemKey(keys: keys, alternative: index, secrets: secrets)
    }

    /// Rows narrowed by the columns SQL can match (class, uid, lookup MACs, sync, accessibility); `needsAttributes`
    /// is true when other filters remain, to be checked on the opened attributes.
    static func candidates(_ q: ItemQuery, _ db: SQLiteDatabase, _ keys: VaultKeys) throws(KeychainStoreError) -> ([VaultRow], Bool) {
        var sql = "SELECT \(rowColumns) FROM items WHERE class = ?1"
        var blobs: [Data] = []
        var n: Int32 = 1
        func nextIndex() -> Int32 { n += 1; return n }
        if let ref = q.persistentReference { sql += " AND uid = ?\(nextIndex())"; blobs.append(ref) }
        let primary = AttributeKey.primaryKey(of: q.itemClass)
        var remaining = false
        for (key, value) in q.filters.sorted(by: { $0.key < $1.key }) {
            if let column = column(for: key), primary.contains(key) {
                sql += " AND \(column) = ?\(nextIndex())"
                blobs.append(VaultRow.lookupMAC(key, value, keys: keys))
            } else {
                remaining = true
            }
        }
        switch q.synchronizable {
        case .yes: sql += " AND sync = 1"
        case .no: sql += " AND sync = 0"
        case .any: break
        }
        if let level = q.accessibility { sql += " AND pdmn = '\(level.rawValue)'" }
        sql += " ORDER BY rowid"
        return try db.using(sql) { s throws(KeychainStoreError) in
            s.bind(1, q.itemClass.rawValue)
            for (i, b) in blobs.enumerated() { s.bind(Int32(i + 2), b) }
            var rows: [VaultRow] = []
            while try s.step() { rows.append(try row(s)) }
            return (rows, remaining)
        }
    }

    static func column(for key: AttributeKey) -> String? {
        switch key {
        case .accessGroup: "agrp"
        case .service: "svce"
        case .account: "acct"
        case .server: "srvr"
        default: nil
        }
    }

    static func row(_ s: SQLiteStatement) throws(KeychainStoreError) -> VaultRow {
        guard let uid = s.data(0), let clsText = s.text(1), let cls = ItemClass(rawValue: clsText), let pk = s.data(2),
              let pdmnText = s.text(8), let level = Accessibility(rawValue: pdmnText),
              let attrs = s.data(10), let value = s.data(11)
        else { throw KeychainStoreError(.decode, .corruptItem) }
        var lookup: [AttributeKey: Data] = [:]
        for (i, key) in VaultRow.lookupKeys.enumerated() { if let d = s.data(Int32(3 + i)) { lookup[key] = d } }
        return VaultRow(uid: uid, itemClass: cls, pk: pk, lookup: lookup, synchronizable: s.int(7) != 0,
                        accessibility: level, accessControlFlags: UInt64(bitPattern: s.int(9)),
                        sealedAttributes: attrs, sealedValue: value, gate: s.data(12))
    }

    static func bindRow(_ row: VaultRow, _ s: SQLiteStatement) {
        s.bind(1, row.uid)
        s.bind(2, row.itemClass.rawValue)
        s.bind(3, row.pk)
        for (i, key) in VaultRow.lookupKeys.enumerated() { s.bind(Int32(4 + i), row.lookup[key]) }
        s.bind(8, row.synchronizable ? 1 : 0)
        s.bind(9, row.accessibility.rawValue)
        s.bind(10, Int64(bitPattern: row.accessControlFlags))
        s.bind(11, row.sealedAttributes)
        s.bind(12, row.sealedValue)
        s.bind(13, row.gate)
    }

    static func insert(_ row: VaultRow, _ db: SQLiteDatabase) throws(KeychainStoreError) {
        try db.using("INSERT INTO items (\(rowColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)") { s throws(KeychainStoreError) in
            bindRow(row, s)
            try s.run()
        }
    }

    static func replace(_ row: VaultRow, _ db: SQLiteDatabase) throws(KeychainStoreError) {
        try db.using("""
            UPDATE items SET class = ?2, pk = ?3, agrp = ?4, svce = ?5, acct = ?6, srvr = ?7, sync = ?8, pdmn = ?9,
            accc = ?10, attrs = ?11, value = ?12, gate = ?13 WHERE uid = ?1
            """) { s throws(KeychainStoreError) in
            bindRow(row, s)
            try s.run()
        }
    }
}
