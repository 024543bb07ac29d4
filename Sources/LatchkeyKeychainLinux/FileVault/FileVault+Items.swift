import Foundation
import LatchkeyKeychainCore
import LatchkeyAuthCore
import CryptoKit
import LatchkeyOpenSSL
import LatchkeySupport

extension FileVault {
    /// A row's columns as `row(_:)` reads them and `bindRow` binds them (format 2: `VaultFormat`); `gen` is bound last.
    static let rowColumns = "uid, class, pk, agrp, lookup, sync, pdmn, accc, attrs, value, gate"
    static let selectColumns = rowColumns + ", id"
    /// What `plainData` reads of a row: the sealed value and the rest of its AAD (the class is the query's),
    /// and the access-control flags (a gated row is left to the general path). SQLite copies every selected
    /// text or blob out of its page and frees it at reset, so each column left out is an allocation saved.
    static let plainColumns = "uid, pk, pdmn, accc, value, id"

    public func add(_ item: Item, authenticationContext: (any AuthenticationContext)?) throws(KeychainStoreError) {
        var item = item
        try StoreRules.prepareForAdd(&item, defaultAccessGroup: defaultAccessGroup, now: Date())
        let ac = item.attributes.accessControl
        let gateKeys: [[Data]]? = try ac.flatMap { ac throws(KeychainStoreError) in
            ac.requiresAuthentication ? try AccessGate.keysForSealing(ac, context: authenticationContext) : nil
        }
        item.value = try AccessGate.storedValue(item.value, ac, context: authenticationContext, kdf: applicationPasswordKDF)
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            let keys = try Self.keys(s, for: item.attributes.effectiveAccessibility)
            let row = try VaultRow.make(uid: SodiumRandom.bytes(count: 16), attributes: item.attributes, value: item.value,
                                        keys: keys, gateKeys: gateKeys, primaryKeyMAC: nil) {
                (key, column, value) throws(KeychainStoreError) -> Data in try Self.cachedMACData(key, column, value, &s, keys)
            }
            try s.db.immediateTransaction { () throws(KeychainStoreError) in try Self.insert(row, s.db) }
        }
    }

    /// Adds several items in one transaction (one fsync): all are added, or none (errSecDuplicateItem when
    /// one already exists or two share a primary key). Items with an access control need `authenticationContext`.
    public func addAll(_ items: [Item], authenticationContext: (any AuthenticationContext)? = nil) throws(KeychainStoreError) {
        _ = try insertAll(items, authenticationContext: authenticationContext, skippingDuplicates: false)
    }

    /// Inserts `items` in one transaction and returns how many were added. With `skippingDuplicates`, an item whose
    /// primary key is taken is left out (the transaction goes on); otherwise it fails the whole transaction.
    func insertAll(_ items: [Item], authenticationContext: (any AuthenticationContext)?,
                   skippingDuplicates: Bool) throws(KeychainStoreError) -> Int {
        let now = Date()
        var prepared: [(Item, [[Data]]?)] = []
        for var item in items {
            try StoreRules.prepareForAdd(&item, defaultAccessGroup: defaultAccessGroup, now: now)
            let gateKeys: [[Data]]? = try item.attributes.accessControl.flatMap { ac throws(KeychainStoreError) in
                ac.requiresAuthentication ? try AccessGate.keysForSealing(ac, context: authenticationContext) : nil
            }
            item.value = try AccessGate.storedValue(item.value, item.attributes.accessControl, context: authenticationContext,
                                                    kdf: applicationPasswordKDF)
            prepared.append((item, gateKeys))
        }
        return try state.withLock { (s: inout State) throws(KeychainStoreError) -> Int in
            var rows: [VaultRow] = []
            for (item, gateKeys) in prepared {
                let keys = try Self.keys(s, for: item.attributes.effectiveAccessibility)
                rows.append(try VaultRow.make(uid: SodiumRandom.bytes(count: 16), attributes: item.attributes,
                                              value: item.value, keys: keys, gateKeys: gateKeys, primaryKeyMAC: nil) {
                    (key, column, value) throws(KeychainStoreError) -> Data in try Self.cachedMACData(key, column, value, &s, keys)
                })
            }
            return try s.db.immediateTransaction { () throws(KeychainStoreError) -> Int in
                var added = 0
                for row in rows {
                    do throws(KeychainStoreError) {
                        try Self.insert(row, s.db)
                        added += 1
                    } catch where skippingDuplicates && error.status == .duplicateItem {
                        continue
                    }
                }
                return added
            }
        }
    }

    public func copyMatching(_ query: ItemQuery) throws(KeychainStoreError) -> [QueryResult] {
        try query.validate()
        let plain = query.returnData && !query.returnAttributes && !query.returnReference && !query.returnPersistentReference
            && Self.sqlMatchesEveryFilter(query)
        return try state.withLock { (s: inout State) throws(KeychainStoreError) -> [QueryResult] in
            guard let keys = s.keys else { throw KeychainStoreError(.interactionNotAllowed, .locked) }
            if plain, let results = try Self.plainData(query, &s, keys) { return results }
            var results: [QueryResult] = []
            try Self.eachCandidate(query, &s, keys, full: false) { (candidate, needsAttributes) throws(KeychainStoreError) -> Bool in
                if let result = try Self.result(of: try candidate.row(), needsAttributes: needsAttributes, query, keys) {
                    results.append(result)
                }
                if let limit = query.matchLimit.count, results.count >= limit { return false }
                return true
            }
            guard !results.isEmpty else { throw .itemNotFound }
            return results
        }
    }

    /// The results of a query that asks for the data alone and whose every filter SQL matches: each value
    /// opened in place from a row selected with `plainColumns`, no row decoded. Nil when a candidate is
    /// access-controlled: the caller then runs the general path, which opens gates.
    /// (Kept apart from the general path so that what it captures is small: no copy of the query.)
    static func plainData(_ query: ItemQuery, _ s: inout State, _ keys: VaultKeys) throws(KeychainStoreError) -> [QueryResult]? {
        let limit = query.matchLimit.count ?? Int.max
        var results: [QueryResult] = []
        var gated = false
        // One result: the oldest match, picked here from the rows in index order (usually one) rather than sorted by SQLite.
        var oldest = Int64.max
        try eachCandidate(query, &s, keys, full: false, plainData: true, anyOrder: limit == 1) {
            (candidate, _) throws(KeychainStoreError) -> Bool in
            let id = candidate.statement.int(5)
            if limit == 1, id > oldest { return true }
            guard candidate.isPlain, let value = try openPlainValue(candidate.statement, candidate.itemClass, keys) else {
                gated = true
                return false
            }
            if limit == 1 {
                oldest = id
                results = [QueryResult(data: value)]
                return true
            }
            results.append(QueryResult(data: value))
            return results.count < limit
        }
        if gated { return nil }
        guard !results.isEmpty else { throw .itemNotFound }
        return results
    }

    /// True when every filter of `q` is on a lookup column of its class's primary key (SQL matches it: no
    /// attributes need opening).
    static func sqlMatchesEveryFilter(_ q: ItemQuery) -> Bool {
        guard !q.hasUnplacedFilters else { return false }
        for column in VaultRow.lookupColumns {
            let key = VaultRow.lookupKey(column: column)
            if q.storedFilters.contains(key), !AttributeKey.isPrimaryKey(key, of: q.itemClass) { return false }
        }
        return true
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
            let ac = row.accessControlFlags == 0 ? nil : try accessControl(of: row, attributes, keys)
            if let ac, ac.requiresAuthentication {
                do throws(KeychainStoreError) {
                    itemKey = try openGate(row, ac, query.authenticationContext, keys)
                } catch where query.authenticationUI == .skip {
                    return nil
                }
            }
            value = try row.openValue(keys: keys, itemKey: itemKey)
            if let ac, ac.requiresApplicationPassword {
                do throws(KeychainStoreError) {
                    value = try AccessGate.value(stored: value, ac, context: query.authenticationContext)
                } catch where query.authenticationUI == .skip {
                    return nil
                }
            }
        }
        if attributes == nil && !query.returnPersistentReference && !query.returnReference {
            return QueryResult(data: query.returnData ? value : nil)
        }
        let a = attributes ?? ItemAttributes(itemClass: row.itemClass)
        return StoreRules.result(attributes: a, value: value, reference: row.persistentReference, for: query)
    }

    /// The value of a candidate selected with `plainColumns`, opened straight from SQLite's buffers (no copy of
    /// the uid, primary key or sealed value is made, the AAD is built on the stack); nil for an access-controlled
    /// row, which needs its gate. `cls` is the class the statement selected on.
    static func openPlainValue(_ st: SQLiteStatement, _ cls: ItemClass, _ keys: VaultKeys) throws(KeychainStoreError) -> Data? {
        guard st.int(3) == 0 else { return nil }
        return try st.withBlob(2) { (level) throws(KeychainStoreError) -> Data in
            guard let accessibility = Accessibility(utf8: level) else { throw KeychainStoreError(.decode, .corruptItem) }
            try checkLock(accessibility, keys)
            let key = try keys.classKey(for: accessibility)
            return try st.withBlob(1) { (pk) throws(KeychainStoreError) -> Data in
                try st.withBlob(0) { (uid) throws(KeychainStoreError) -> Data in
                    try RowAAD.withBytes(itemClass: cls, pk: pk, uid: uid, level: level, flags: 0, part: 0x76) {
                        (aad) throws(KeychainStoreError) -> Data in
                        try st.withBlob(4) { (sealed) throws(KeychainStoreError) -> Data in
                            try VaultSeal.open(sealed, key: key, aadBytes: aad)
                        }
                    }
                }
            }
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
                    // The primary-key MAC is kept when the primary key's bytes are (it is in the AAD the attributes
                    // just opened under, so it is the row's own); the lookup MACs come from the cache.
                    let primaryKeyMAC = PrimaryKey.unchanged(old, new) ? row.pk : nil
                    func lookupMAC(_ key: AttributeKey, _ column: Int, _ value: AttributeValue) throws(KeychainStoreError) -> Data {
                        try Self.cachedMACData(key, column, value, &s, keys)
                    }
                    let updated: VaultRow
                    if identityChanges {
                        var itemKey: SymmetricKey?
                        if let ac = old.accessControl, ac.requiresAuthentication {
                            itemKey = try Self.openGate(row, ac, query.authenticationContext, keys)
                        }
                        var value: Data
                        if changes.value != nil {
                            value = Data() // replaced below: the old value is not needed
                        } else {
                            value = try row.openValue(keys: keys, itemKey: itemKey)
                        }
                        if changes.value != nil || changes.accessControl != nil {
                            value = try AccessGate.restoredValue(value, newValue: changes.value, from: old.accessControl,
                                                                 to: new.accessControl, context: query.authenticationContext,
                                                                 kdf: applicationPasswordKDF)
                        }
                        defer { value.resetBytes(in: 0..<value.count) }
                        let gateKeys: [[Data]]? = try new.accessControl.flatMap { ac throws(KeychainStoreError) in
                            ac.requiresAuthentication ? try AccessGate.keysForSealing(ac, context: query.authenticationContext) : nil
                        }
                        updated = try VaultRow.make(uid: row.uid, attributes: new, value: value, keys: keys, gateKeys: gateKeys,
                                                    rowid: row.rowid, primaryKeyMAC: primaryKeyMAC, lookupMAC: lookupMAC)
                    } else {
                        // The identity is unchanged, so is the primary key (with a certificate's DER when it stands
                        // in for issuer and serial number: the value is not at hand here, the row's own MAC is).
                        updated = try VaultRow.make(uid: row.uid, attributes: new, value: Data(), keys: keys, gateKeys: nil,
                                                    keep: (row.sealedValue, row.gate), rowid: row.rowid,
                                                    primaryKeyMAC: row.pk, lookupMAC: lookupMAC)
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
        /// The class the statement selected on.
        let itemClass: ItemClass
        /// Selected with `plainColumns` (read by `openPlainValue`; `row()` is not for such a candidate).
        let isPlain: Bool
        let full: Bool
        let attributes: Bool

        func row() throws(KeychainStoreError) -> VaultRow {
            try FileVault.row(statement, full: full, attributes: attributes)
        }
    }

    /// Calls `body` with each candidate row as SQLite returns it (and whether filters remain to be checked on
    /// the opened attributes) until `body` returns false.
    ///
    /// The statement of each query shape (class, which lookup columns, sync and accessibility filters, plain or
    /// not) is prepared once; the class and the fixed filters are literals of its SQL, and the lookup MACs are
    /// bound in place from the statement's own buffer, so a run binds without SQLite allocating.
    ///
    /// With `plainData` and no filter left to check on the attributes, the candidates are selected with
    /// `plainColumns` (`isPlain`). Candidates come oldest first, unless `anyOrder`.
    static func eachCandidate(_ q: ItemQuery, _ s: inout State, _ keys: VaultKeys, full: Bool, plainData: Bool = false,
                              anyOrder: Bool = false,
                              _ body: (Candidate, Bool) throws(KeychainStoreError) -> Bool) throws(KeychainStoreError) {
        var shape = 0
        var reference: (id: Int64, uid: Data)?
        if let ref = q.persistentReference {
            guard let parsed = VaultRow.parseReference(ref) else { throw .itemNotFound }
            reference = parsed
            shape |= 1
        }
        // The lookup MACs in column order, which is the order the SQL of the shape binds them in.
        var macs = LookupMACs()
        let remaining = !sqlMatchesEveryFilter(q)
        for column in VaultRow.lookupColumns {
            let key = VaultRow.lookupKey(column: column)
            guard let value = q.storedFilters[key], AttributeKey.isPrimaryKey(key, of: q.itemClass) else { continue }
            shape |= 2 << column
            macs[column] = try cachedMAC(key, column, key.comparable(value, for: q.itemClass), &s, keys)
        }
        switch q.synchronizable {
        case .yes: shape |= 1 << 6
        case .no: shape |= 1 << 7
        case .any: break
        }
        if let level = q.accessibility { shape |= (Int(level.tag) + 1) << 8 }
        let wantsAttributes = full || remaining || q.returnAttributes || q.returnReference
        let plain = plainData && !remaining
        if plain { shape |= 1 << 16 }
        if anyOrder { shape |= 1 << 20 }
        shape |= (Int(q.itemClass.tag) + 1) << 17
        let itemClass = q.itemClass, accessibility = q.accessibility
        return try s.db.using(shape: shape, rebindsAll: true, {
            selectSQL(shape: shape, itemClass: itemClass, accessibility: accessibility)
        }) { st throws(KeychainStoreError) in
            var n: Int32 = 1
            if let reference {
                reference.uid.withUnsafeBytes { st.bindInPlace(n, $0) }
                st.bind(n + 100, reference.id)
                n += 1
            }
            if shape & (2 << 0) != 0 {
                macs[0].withUnsafeBytes { st.bindInPlace(n, $0) }
                n += 1
            }
            bindLookup(shape, macs, st, &n)
            let candidate = Candidate(statement: st, itemClass: itemClass, isPlain: plain, full: full,
                                      attributes: wantsAttributes)
            while try st.step() {
                guard try body(candidate, remaining) else { break }
            }
        }
    }

    /// Binds the `lookup` part of a query shape (see `selectSQL`): the whole key when service (or server) and account are
    /// given, the range of a service's (or server's) keys when it alone is, the account's half when it alone is.
    private static func bindLookup(_ shape: Int, _ macs: LookupMACs, _ st: SQLiteStatement, _ n: inout Int32) {
        let service = shape & (2 << 1) != 0 ? 1 : shape & (2 << 3) != 0 ? 3 : nil
        let account = shape & (2 << 2) != 0
        let half = LookupMAC.byteCount
        withUnsafeTemporaryAllocation(byteCount: 2 * half, alignment: 1) { key in
            if let service {
                macs[service].withUnsafeBytes { key.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: half) }
                if account {
                    macs[2].withUnsafeBytes { (key.baseAddress! + half).copyMemory(from: $0.baseAddress!, byteCount: half) }
                    st.bindInPlace(n, UnsafeRawBufferPointer(key))
                    n += 1
                } else {
                    st.bindInPlace(n, UnsafeRawBufferPointer(rebasing: key[..<half]))
                    (key.baseAddress! + half).initializeMemory(as: UInt8.self, repeating: 0xff, count: half)
                    st.bindInPlace(n + 1, UnsafeRawBufferPointer(key))
                    n += 2
                }
            } else if account {
                macs[2].withUnsafeBytes { st.bindInPlace(n, $0) }
                n += 1
            }
        }
    }

    /// The SQL of one query shape (see `eachCandidate`).
    private static func selectSQL(shape: Int, itemClass: ItemClass, accessibility: Accessibility?) -> String {
        let plain = shape & (1 << 16) != 0
        // `lookup` is the service's (or the server's) lookup MAC then the account's, so the one index (lookup, pk) finds
        // an item by both, and a service's items as a range. A lookup MAC covers its attribute's name: only generic
        // passwords have service MACs and only internet passwords server MACs, so a lookup by service (or server) leaves
        // the class out, and SQLite reads no class from any row. Keys, certificates and identities (neither service,
        // server nor account) are the index's range of an empty `lookup`.
        let service = shape & (2 << 1 | 2 << 3) != 0, account = shape & (2 << 2) != 0
        var sql = "SELECT \(plain ? plainColumns : selectColumns) FROM items WHERE "
            + (service ? "1" : "class = '\(itemClass.rawValue)'")
        var n = 1
        if shape & 1 != 0 { sql += " AND id = ?\(n + 100) AND uid = ?\(n)"; n += 1 }
        if shape & (2 << 0) != 0 { sql += " AND agrp = ?\(n)"; n += 1 }
        if service && account {
            sql += " AND lookup = ?\(n)"
        } else if service {
            sql += " AND lookup BETWEEN ?\(n) AND ?\(n + 1)"
        } else if account {
            sql += " AND substr(lookup, \(LookupMAC.byteCount + 1)) = ?\(n)"
        } else if itemClass != .genericPassword && itemClass != .internetPassword {
            sql += " AND lookup = x''"
        }
        if shape & (1 << 6) != 0 { sql += " AND sync = 1" }
        if shape & (1 << 7) != 0 { sql += " AND sync = 0" }
        if let accessibility { sql += " AND pdmn = '\(accessibility.rawValue)'" }
        // The index orders a lookup's matches by primary-key MAC, so `ORDER BY id` costs SQLite a sorter (8 k instructions,
        // a third of a read: docs/PERFORMANCE.md, "Vault format 2"); a caller that picks the oldest itself (`plainData`
        // with one result) does without.
        return shape & (1 << 20) != 0 ? sql : sql + " ORDER BY id"
    }

    /// The lookup MAC of a value, from a small cache (names, never secrets; cleared when it grows large).
    static func cachedMAC(_ key: AttributeKey, _ column: Int, _ value: AttributeValue, _ s: inout State,
                          _ keys: VaultKeys) throws(KeychainStoreError) -> LookupMAC {
        guard case let .string(text) = value else { return try computedMAC(key, value, keys) }
        if let mac = s.recentLookups.mac(column, text) { return mac }
        let cacheKey = MACCacheKey(column: UInt8(column), text: text)
        let mac: LookupMAC
        if let cached = s.macCache[cacheKey] {
            mac = cached
        } else {
            mac = try computedMAC(key, value, keys)
            if s.macCache.count >= 16384 { s.macCache.removeAll(keepingCapacity: true) }
            s.macCache[cacheKey] = mac
        }
        s.recentLookups.record(column, text, mac)
        return mac
    }

    /// `cachedMAC` as the `Data` a `VaultRow` holds.
    static func cachedMACData(_ key: AttributeKey, _ column: Int, _ value: AttributeValue, _ s: inout State,
                              _ keys: VaultKeys) throws(KeychainStoreError) -> Data {
        try cachedMAC(key, column, value, &s, keys).withUnsafeBytes { Data($0) }
    }

    private static func computedMAC(_ key: AttributeKey, _ value: AttributeValue, _ keys: VaultKeys) throws(KeychainStoreError) -> LookupMAC {
        guard let mac = LookupMAC(VaultRow.lookupMAC(key, value, keys: keys)) else { throw KeychainStoreError(.internalComponent) }
        return mac
    }

    /// Reads a row. Without `full`, the lookup columns and (unless `attributes`) the sealed attributes are
    /// skipped: a plain read needs neither.
    static func row(_ s: SQLiteStatement, full: Bool = true, attributes: Bool = true) throws(KeychainStoreError) -> VaultRow {
        guard let uid = s.data(0), let clsText = s.text(1), let cls = ItemClass(rawValue: clsText), let pk = s.data(2),
              let pdmnText = s.text(6), let level = Accessibility(rawValue: pdmnText),
              let attrs = (full || attributes) ? s.data(8) : Data(), let value = s.data(9)
        else { throw KeychainStoreError(.decode, .corruptItem) }
        var lookup: [Data?] = []
        if full {
            // `lookup`: the service's (generic passwords) or the server's (internet passwords) MAC, then the account's.
            let key = s.data(4) ?? Data(), half = LookupMAC.byteCount
            let first = key.count == 2 * half ? key.prefix(half) : nil, account = key.count == 2 * half ? key.suffix(half) : nil
            lookup = [s.data(3), cls == .genericPassword ? first : nil, account, cls == .internetPassword ? first : nil]
        }
        var row = VaultRow(uid: uid, itemClass: cls, pk: pk, lookupMACs: lookup, synchronizable: s.int(5) != 0,
                           accessibility: level, accessControlFlags: UInt64(bitPattern: s.int(7)),
                           sealedAttributes: attrs, sealedValue: value, gate: s.data(10))
        row.rowid = s.int(11)
        return row
    }

    /// Binds a row's 11 columns and its generation (12), the blobs and texts in place (one copy into the statement's
    /// parameter buffer, sized for them first; none made or freed by SQLite). `lookup` is the service's (or the server's)
    /// MAC then the account's; empty (not NULL: it is in the unique index) for a class without them.
    static func bindRow(_ row: VaultRow, _ s: SQLiteStatement, generation: Int64) {
        var level = row.accessibility.rawValue
        let lookups = row.lookupMACs.reduce(0) { $0 + ($1?.count ?? 0) }
        s.reserveParameterBytes(row.uid.count + 4 + row.pk.count + lookups + level.utf8.count + row.sealedAttributes.count
                                + row.sealedValue.count + (row.gate?.count ?? 0))
        s.bindInPlace(1, row.uid)
        row.itemClass.rawValueUTF8.withUTF8Buffer { s.bindTextInPlace(2, UnsafeRawBufferPointer($0)) }
        s.bindInPlace(3, row.pk)
        s.bindInPlace(4, row.lookup(.accessGroup))
        if let first = row.lookup(.service) ?? row.lookup(.server), let account = row.lookup(.account) {
            s.bindInPlace(5, first + account)
        } else {
            s.bindInPlace(5, Data())
        }
        s.bind(6, row.synchronizable ? 1 : 0)
        level.withUTF8 { s.bindTextInPlace(7, UnsafeRawBufferPointer($0)) }
        s.bind(8, Int64(bitPattern: row.accessControlFlags))
        s.bindInPlace(9, row.sealedAttributes)
        s.bindInPlace(10, row.sealedValue)
        s.bindInPlace(11, row.gate)
        s.bind(12, generation)
    }

    static func insert(_ row: VaultRow, _ db: SQLiteDatabase) throws(KeychainStoreError) {
        try db.using(shape: SQLiteDatabase.StatementID.insertItem, {
            "INSERT INTO items (\(rowColumns), gen) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
        }) { s throws(KeychainStoreError) in
            bindRow(row, s, generation: db.stampGeneration())
            try s.run()
        }
    }

    /// Rewrites only the sealed columns (no index entry changes) when the row's identity is unchanged.
    static func replaceSealed(_ row: VaultRow, _ db: SQLiteDatabase) throws(KeychainStoreError) {
        try db.using("UPDATE items SET attrs = ?2, value = ?3, gate = ?4, gen = ?6 WHERE id = ?5 AND uid = ?1") {
            s throws(KeychainStoreError) in
            s.bind(1, row.uid); s.bind(2, row.sealedAttributes); s.bind(3, row.sealedValue); s.bind(4, row.gate)
            s.bind(5, row.rowid)
            s.bind(6, db.stampGeneration())
            try s.run()
        }
    }

    static func replace(_ row: VaultRow, _ db: SQLiteDatabase) throws(KeychainStoreError) {
        try db.using("""
            UPDATE items SET class = ?2, pk = ?3, agrp = ?4, lookup = ?5, sync = ?6, pdmn = ?7, accc = ?8,
            attrs = ?9, value = ?10, gate = ?11, gen = ?12 WHERE id = ?13 AND uid = ?1
            """) { s throws(KeychainStoreError) in
            bindRow(row, s, generation: db.stampGeneration())
            s.bind(13, row.rowid)
            try s.run()
        }
    }
}
