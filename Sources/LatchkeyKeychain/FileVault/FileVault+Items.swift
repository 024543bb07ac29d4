import Foundation
import LatchkeyAuth
import LatchkeyCrypto

extension FileVault {
    static let rowColumns = "uid, class, pk, agrp, svce, acct, srvr, sync, pdmn, accc, attrs, value, gate"
    static let selectColumns = rowColumns + ", id"
    /// What a read that opens neither the attributes nor the lookup columns needs (the value, its AAD parts,
    /// the gate): fewer result columns, so SQLite copies and frees fewer values per row.
    static let plainColumns = "uid, class, pk, sync, pdmn, accc, value, gate, id"

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

    /// Adds several items in one transaction (one fsync): all are added, or none (errSecDuplicateItem when
    /// one already exists or two share a primary key). Items with an access control need `authenticationContext`.
    public func addAll(_ items: [Item], authenticationContext: (any AuthenticationContext)? = nil) throws(KeychainStoreError) {
        let now = Date()
        var prepared: [(Item, [[Data]]?)] = []
        for var item in items {
            try StoreRules.prepareForAdd(&item, defaultAccessGroup: defaultAccessGroup, now: now)
            let secrets: [[Data]]? = try item.attributes.accessControl.flatMap { ac throws(KeychainStoreError) in
                ac.requiresAuthentication ? try AccessGate.secretsForSealing(ac, context: authenticationContext) : nil
            }
            prepared.append((item, secrets))
        }
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            var rows: [VaultRow] = []
            for (item, secrets) in prepared {
                let keys = try Self.keys(s, for: item.attributes.effectiveAccessibility)
                rows.append(try VaultRow.make(uid: SecureRandom.bytes(count: 16), attributes: item.attributes,
                                              value: item.value, keys: keys, gateSecrets: secrets))
            }
            try s.db.immediateTransaction { () throws(KeychainStoreError) in
                for row in rows { try Self.insert(row, s.db) }
            }
        }
    }

    public func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] {
        try query.validate()
        return try state.withLock { (s: inout State) throws(KeychainStoreError) -> [QueryResult] in
            guard let keys = s.keys else { throw KeychainStoreError(.interactionNotAllowed, .locked) }
            var results: [QueryResult] = []
            try Self.eachCandidate(query, &s, keys, full: false) { (candidate, needsAttributes) throws(KeychainStoreError) -> Bool in
                if candidate.isPlain, query.returnData, !query.returnPersistentReference,
                   let value = try Self.openPlainValue(candidate.statement, query.itemClass, keys) {
                    results.append(QueryResult(data: value))
                } else if let result = try Self.result(of: try candidate.row(), needsAttributes: needsAttributes, query, keys) {
                    results.append(result)
                }
                if let limit = query.matchLimit.count, results.count >= limit { return false }
                return true
            }
            guard !results.isEmpty else { throw .itemNotFound }
            return results
        }
    }

    /// One row's result as the query asks for it; nil when the row does not match (or is skipped: it needs
    /// authentication and the query says `.skip`).
    static func result(of row: VaultRow, needsAttributes: Bool, _ query: ItemQuery,
                       _ keys: VaultKeys) throws(KeychainStoreError) -> QueryResult? {
        try checkLock(row.accessibility, keys)
        var attributes: ItemAttributes?
        if needsAttributes || query.returnAttributes || query.returnReference {
            let a = try row.openAttributes(keys: keys)
            guard query.matches(a) else { return nil }
            attributes = a
        }
        var value = Data()
        if query.needsValue {
            var itemKey: SymmetricKey?
            if row.accessControlFlags != 0, let ac = try accessControl(of: row, attributes, keys) {
                do throws(KeychainStoreError) {
                    itemKey = try openGate(row, ac, query.authenticationContext, keys)
                } catch where query.authenticationUI == .skip {
                    return nil
                }
            }
            value = try row.openValue(keys: keys, itemKey: itemKey)
        }
        if attributes == nil && !query.returnPersistentReference && !query.returnReference {
            return QueryResult(data: query.returnData ? value : nil)
        }
        let a = attributes ?? ItemAttributes(itemClass: row.itemClass)
        return StoreRules.result(attributes: a, value: value, reference: row.persistentReference, for: query)
    }

    /// The value of a candidate selected with `plainColumns`, opened straight from SQLite's buffers (no copy of
    /// the uid, primary key or sealed value is made); nil for an access-controlled row, which needs its gate.
    /// `cls` is the class the query selected on (`class = ?1`).
    static func openPlainValue(_ st: SQLiteStatement, _ cls: ItemClass, _ keys: VaultKeys) throws(KeychainStoreError) -> Data? {
        guard st.int(5) == 0 else { return nil }
        guard let level = st.text(4).flatMap(Accessibility.init(rawValue:)) else {
            throw KeychainStoreError(.decode, .corruptItem)
        }
        try checkLock(level, keys)
        let key = try keys.classKey(for: level)
        var aad = st.withBlob(2) { pk in
            st.withBlob(0) { uid in RowAAD(itemClass: cls, pk: pk, uid: uid, accessibility: level, flags: 0) }
        }
        return try st.withBlob(6) { (sealed) throws(KeychainStoreError) -> Data in
            try VaultSeal.open(sealed, key: key, aad: &aad, part: 0x76)
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
                let (rows, _) = try Self.candidates(query, &s, keys)
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
                        updated = try VaultRow.make(uid: row.uid, attributes: new, value: value, keys: keys, gateSecrets: secrets, rowid: row.rowid)
                    } else {
                        updated = try VaultRow.make(uid: row.uid, attributes: new, value: Data(), keys: keys, gateSecrets: nil,
                                                    keep: (row.sealedValue, row.gate), rowid: row.rowid)
                    }
                    if updated.pk == row.pk && updated.lookupMACs == row.lookupMACs && updated.synchronizable == row.synchronizable
                        && updated.accessibility == row.accessibility && updated.accessControlFlags == row.accessControlFlags {
                        try Self.replaceSealed(updated, s.db)
                    } else {
                        try Self.replace(updated, s.db)
                    }
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
                let (rows, needsAttributes) = try Self.candidates(query, &s, keys)
                var doomed: [Int64] = []
                for row in rows {
                    try Self.checkLock(row.accessibility, keys)
                    if needsAttributes { guard query.matches(try row.openAttributes(keys: keys)) else { continue } }
                    doomed.append(row.rowid)
                }
                guard !doomed.isEmpty else { throw .itemNotFound }
                for id in doomed {
                    try s.db.using("DELETE FROM items WHERE id = ?1") { st throws(KeychainStoreError) in st.bind(1, id); try st.run() }
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

    /// Rows narrowed by the columns SQL can match (class, rowid + uid, lookup MACs, sync, accessibility);
    /// `needsAttributes` is true when other filters remain, to be checked on the opened attributes.
    /// The SQL text of each query shape and the MACs of recent lookup values are cached (under the state lock).
    static func candidates(_ q: ItemQuery, _ s: inout State, _ keys: VaultKeys, full: Bool = true) throws(KeychainStoreError) -> ([VaultRow], Bool) {
        var rows: [VaultRow] = []
        var remaining = false
        try eachCandidate(q, &s, keys, full: full) { (candidate, rest) throws(KeychainStoreError) -> Bool in
            rows.append(try candidate.row()); remaining = rest; return true
        }
        return (rows, remaining)
    }

    /// A candidate row as SQLite returns it, decoded into a `VaultRow` only when the caller asks.
    struct Candidate {
        let statement: SQLiteStatement
        /// Selected with `plainColumns`.
        let isPlain: Bool
        let full: Bool
        let attributes: Bool

        func row() throws(KeychainStoreError) -> VaultRow {
            isPlain ? try plainRow(statement) : try FileVault.row(statement, full: full, attributes: attributes)
        }
    }

    /// Calls `body` with each candidate row as SQLite returns it (and whether filters remain to be checked on
    /// the opened attributes) until `body` returns false.
    static func eachCandidate(_ q: ItemQuery, _ s: inout State, _ keys: VaultKeys, full: Bool,
                              _ body: (Candidate, Bool) throws(KeychainStoreError) -> Bool) throws(KeychainStoreError) {
        var shape = 0
        // Bound in the order the SQL of the shape names them: the uid (order -1), then lookup columns.
        var blobs: [(order: Int, blob: Data)] = []
        blobs.reserveCapacity(1 + VaultRow.lookupKeys.count)
        var refID: Int64 = 0
        if let ref = q.persistentReference {
            guard let (id, uid) = VaultRow.parseReference(ref) else { throw .itemNotFound }
            refID = id
            blobs.append((-1, uid))
            shape |= 1
        }
        let primary = AttributeKey.primaryKey(of: q.itemClass)
        var remaining = false
        for (key, value) in q.filters {
            guard let column = VaultRow.lookupColumn(of: key), primary.contains(key) else { remaining = true; continue }
            shape |= 2 << column
            let mac = cachedMAC(key, column, key.comparable(value), &s, keys)
            blobs.insert((column, mac), at: blobs.firstIndex { $0.order > column } ?? blobs.endIndex)
        }
        switch q.synchronizable {
        case .yes: shape |= 1 << 6
        case .no: shape |= 1 << 7
        case .any: break
        }
        if let level = q.accessibility, let i = Accessibility.allCases.firstIndex(of: level) { shape |= (i + 1) << 8 }
        let wantsAttributes = full || remaining || q.returnAttributes || q.returnReference
        let plain = !full && !wantsAttributes
        if plain { shape |= 1 << 16 }
        let sql: () -> String = {
            var sql = "SELECT \(plain ? plainColumns : selectColumns) FROM items WHERE class = ?1"
            var n = 2
            if shape & 1 != 0 { sql += " AND id = ?\(n + 100) AND uid = ?\(n)"; n += 1 }
            for (bit, key) in VaultRow.lookupKeys.enumerated() where shape & (2 << bit) != 0 {
                sql += " AND \(column(for: key) ?? "") = ?\(n)"; n += 1
            }
            if shape & (1 << 6) != 0 { sql += " AND sync = 1" }
            if shape & (1 << 7) != 0 { sql += " AND sync = 0" }
            if let level = q.accessibility { sql += " AND pdmn = '\(level.rawValue)'" }
            return sql + " ORDER BY id"
        }
        return try s.db.using(shape: shape, sql) { st throws(KeychainStoreError) in
            st.bind(1, q.itemClass.rawValue)
            for (i, b) in blobs.enumerated() { st.bind(Int32(i + 2), b.blob) }
            if shape & 1 != 0 { st.bind(102, refID) }
            let candidate = Candidate(statement: st, isPlain: plain, full: full, attributes: wantsAttributes)
            while try st.step() {
                guard try body(candidate, remaining) else { break }
            }
        }
    }

    /// The lookup MAC of a value, from a small cache (names, never secrets; cleared when it grows large).
    static func cachedMAC(_ key: AttributeKey, _ column: Int, _ value: AttributeValue, _ s: inout State,
                          _ keys: VaultKeys) -> Data {
        guard case let .string(text) = value else { return VaultRow.lookupMAC(key, value, keys: keys) }
        if s.macCache.count >= 16384 { s.macCache.removeAll(keepingCapacity: true) }
        // One hash of the key whether it is found or inserted (an empty slot is new: a MAC is never empty).
        return fill(&s.macCache[MACCacheKey(column: UInt8(column), text: text), default: Data()]) {
            VaultRow.lookupMAC(key, value, keys: keys)
        }
    }

    private static func fill(_ slot: inout Data, _ make: () -> Data) -> Data {
        if slot.isEmpty { slot = make() }
        return slot
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

    /// Reads a row. Without `full`, the lookup columns and (unless `attributes`) the sealed attributes are
    /// skipped: a plain read needs neither.
    static func row(_ s: SQLiteStatement, full: Bool = true, attributes: Bool = true) throws(KeychainStoreError) -> VaultRow {
        guard let uid = s.data(0), let clsText = s.text(1), let cls = ItemClass(rawValue: clsText), let pk = s.data(2),
              let pdmnText = s.text(8), let level = Accessibility(rawValue: pdmnText),
              let attrs = (full || attributes) ? s.data(10) : Data(), let value = s.data(11)
        else { throw KeychainStoreError(.decode, .corruptItem) }
        let lookup = full ? VaultRow.lookupKeys.indices.map { s.data(Int32(3 + $0)) } : []
        var row = VaultRow(uid: uid, itemClass: cls, pk: pk, lookupMACs: lookup, synchronizable: s.int(7) != 0,
                           accessibility: level, accessControlFlags: UInt64(bitPattern: s.int(9)),
                           sealedAttributes: attrs, sealedValue: value, gate: s.data(12))
        row.rowid = s.int(13)
        return row
    }

    /// Reads a row selected with `plainColumns`: no lookup columns, no sealed attributes.
    static func plainRow(_ s: SQLiteStatement) throws(KeychainStoreError) -> VaultRow {
        guard let uid = s.data(0), let clsText = s.text(1), let cls = ItemClass(rawValue: clsText), let pk = s.data(2),
              let pdmnText = s.text(4), let level = Accessibility(rawValue: pdmnText), let value = s.data(6)
        else { throw KeychainStoreError(.decode, .corruptItem) }
        var row = VaultRow(uid: uid, itemClass: cls, pk: pk, lookupMACs: [], synchronizable: s.int(3) != 0,
                           accessibility: level, accessControlFlags: UInt64(bitPattern: s.int(5)),
                           sealedAttributes: Data(), sealedValue: value, gate: s.data(7))
        row.rowid = s.int(8)
        return row
    }

    static func bindRow(_ row: VaultRow, _ s: SQLiteStatement) {
        s.bind(1, row.uid)
        s.bind(2, row.itemClass.rawValue)
        s.bind(3, row.pk)
        for (i, key) in VaultRow.lookupKeys.enumerated() { s.bind(Int32(4 + i), row.lookup(key)) }
        s.bind(8, row.synchronizable ? 1 : 0)
        s.bind(9, row.accessibility.rawValue)
        s.bind(10, Int64(bitPattern: row.accessControlFlags))
        s.bind(11, row.sealedAttributes)
        s.bind(12, row.sealedValue)
        s.bind(13, row.gate)
    }

    static func insert(_ row: VaultRow, _ db: SQLiteDatabase) throws(KeychainStoreError) {
        try db.using(shape: SQLiteDatabase.StatementID.insertItem, {
            "INSERT INTO items (\(rowColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
        }) { s throws(KeychainStoreError) in
            bindRow(row, s)
            try s.run()
        }
    }

    /// Rewrites only the sealed columns (no index entry changes) when the row's identity is unchanged.
    static func replaceSealed(_ row: VaultRow, _ db: SQLiteDatabase) throws(KeychainStoreError) {
        try db.using("UPDATE items SET attrs = ?2, value = ?3, gate = ?4 WHERE id = ?5 AND uid = ?1") { s throws(KeychainStoreError) in
            s.bind(1, row.uid); s.bind(2, row.sealedAttributes); s.bind(3, row.sealedValue); s.bind(4, row.gate)
            s.bind(5, row.rowid)
            try s.run()
        }
    }

    static func replace(_ row: VaultRow, _ db: SQLiteDatabase) throws(KeychainStoreError) {
        try db.using("""
            UPDATE items SET class = ?2, pk = ?3, agrp = ?4, svce = ?5, acct = ?6, srvr = ?7, sync = ?8, pdmn = ?9,
            accc = ?10, attrs = ?11, value = ?12, gate = ?13 WHERE id = ?14 AND uid = ?1
            """) { s throws(KeychainStoreError) in
            bindRow(row, s)
            s.bind(14, row.rowid)
            try s.run()
        }
    }
}
