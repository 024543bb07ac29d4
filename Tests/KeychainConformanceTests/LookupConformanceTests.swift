import Foundation
import LatchkeyTestSupport
import LocalAuthentication
import Security
import Testing

/// docs/conformance/lookups.tsv: each row's case run on every store; the outcome it observes must be the row's
/// (Apple's, or the documented Linux difference).
extension KeychainConformance {
    @Suite struct Lookups {
        @Test(arguments: StoreKind.available) func everyLookupRow(store: StoreKind) async throws {
            let table = try ConformanceTable.load("lookups.tsv")
            try await onThread {
                for row in table.rows {
                    let facade = try Facade(store)
                    defer { facade.cleanUp() }
                    guard let run = LookupCases.all[row["id"]] else {
                        Issue.record("lookups.tsv \(row["id"]): no case in LookupCases")
                        continue
                    }
                    let expected = row.difference ?? row["apple"]
                    let observed = try run(LookupCases(facade: facade))
                    #expect(observed == expected, "\(store.rawValue) \(row["id"]) (\(row["case"])): \(observed), expected \(expected)")
                }
                #expect(Set(table.rows.map { $0["id"] }) == Set(LookupCases.all.keys), "every case has a row")
            }
        }
    }
}

/// The cases of lookups.tsv by id; each returns the outcome it observed, in the table's words.
struct LookupCases {
    let facade: Facade
    var group: String { facade.group }

    static let all: [String: @Sendable (LookupCases) throws -> String] = [
        "persistent-ref-alone": { c in try c.byReference(sync: false) },
        "persistent-ref-synchronizable": { c in try c.byReference(sync: true) },
        "persistent-ref-update": { c in
            let ref = try c.addReturningReference(account: "a", sync: false)
            guard c.facade.update(["v_PersistentRef": ref], ["v_Data": Data("new".utf8)]) == errSecSuccess else { return "not updated" }
            return c.facade.copy(["v_PersistentRef": ref, "r_Data": true]).1 as? Data == Data("new".utf8) ? "updated" : "unchanged"
        },
        "persistent-ref-delete": { c in
            let ref = try c.addReturningReference(account: "a", sync: true)
            let status = c.facade.delete(["v_PersistentRef": ref])
            guard status == errSecSuccess else { return statusName(status) }
            return c.count(["sync": "syna"]) == 0 ? "deleted" : "still there"
        },
        "persistent-ref-stable": { c in
            let ref = try c.addReturningReference(account: "a", sync: false)
            _ = c.facade.update(["class": "genp", "agrp": c.group, "acct": "a"], ["labl": "changed", "v_Data": Data("v2".utf8)])
            return c.outcome(c.facade.copy(["v_PersistentRef": ref, "r_Data": true]))
        },
        "persistent-ref-deleted-item": { c in
            let ref = try c.addReturningReference(account: "a", sync: false)
            _ = c.facade.delete(["class": "genp", "agrp": c.group])
            return c.outcome(c.facade.copy(["v_PersistentRef": ref, "r_Data": true]))
        },
        "persistent-ref-with-attribute": { c in
            let ref = try c.addReturningReference(account: "a", sync: false)
            return c.outcome(c.facade.copy(["class": "genp", "v_PersistentRef": ref, "acct": "a", "r_Data": true]))
        },
        "persistent-ref-delete-with-attribute": { c in
            let ref = try c.addReturningReference(account: "a", sync: false)
            return statusName(c.facade.delete(["class": "genp", "v_PersistentRef": ref, "acct": "a"]))
        },
        "persistent-ref-not-a-reference": { c in
            try c.add("a")
            return c.outcome(c.facade.copy(["v_PersistentRef": Data("no reference at all".utf8), "r_Data": true]))
        },
        "match-limit-default": { c in try c.addAll(2); return c.shape(c.facade.copy(c.query(["r_Data": true]))) },
        "match-limit-one": { c in try c.addAll(2); return c.shape(c.facade.copy(c.query(["r_Attributes": true, "m_Limit": "m_LimitOne"]))) },
        "match-limit-all": { c in try c.addAll(3); return c.shape(c.facade.copy(c.query(["r_Attributes": true, "m_Limit": "m_LimitAll"]))) },
        "match-limit-number": { c in try c.addAll(3); return c.shape(c.facade.copy(c.query(["r_Data": true, "m_Limit": 2]))) },
        "match-limit-all-none": { c in c.shape(c.facade.copy(c.query(["r_Data": true, "m_Limit": "m_LimitAll"]))) },
        "match-limit-delete": { c in try c.addAll(1); return statusName(c.facade.delete(c.query(["m_Limit": "m_LimitAll"]))) },
        "sync-absent": { c in try c.addSyncPair(); return c.shape(c.facade.copy(c.query(["r_Attributes": true, "m_Limit": "m_LimitAll"]))) },
        "sync-true": { c in try c.addSyncPair(); return c.shape(c.facade.copy(c.query(["sync": true, "r_Attributes": true, "m_Limit": "m_LimitAll"]))) },
        "sync-any": { c in try c.addSyncPair(); return c.shape(c.facade.copy(c.query(["sync": "syna", "r_Attributes": true, "m_Limit": "m_LimitAll"]))) },
        "sync-any-update": { c in
            try c.addSyncPair()
            guard c.facade.update(c.query(["sync": "syna"]), ["labl": "both"]) == errSecSuccess else { return "not updated" }
            return "updated:\(c.count(["sync": "syna", "labl": "both"]))"
        },
        "sync-absent-delete": { c in
            try c.addSyncPair()
            _ = c.facade.delete(c.query([:]))
            return "deleted:\(2 - c.count(["sync": "syna"]))"
        },
        "sync-any-delete": { c in
            try c.addSyncPair()
            _ = c.facade.delete(c.query(["sync": "syna"]))
            return "deleted:\(2 - c.count(["sync": "syna"]))"
        },
        "sync-any-add": { c in
            guard c.facade.add(["class": "genp", "agrp": c.group, "acct": "a", "sync": "syna", "v_Data": Data()]) == errSecSuccess else { return "not added" }
            return c.count(["sync": false]) == 1 ? "added-local" : "added synchronizable"
        },
        "match-item-list": { c in
            try c.addAll(2)
            let ref = try #require(c.facade.copy(c.query(["acct": "a0", "r_PersistentRef": true])).1 as? Data)
            return c.shape(c.facade.copy(c.query(["m_ItemList": [ref], "m_Limit": "m_LimitAll", "r_Data": true])))
        },
        "match-item-list-delete": { c in try c.addAll(1); return statusName(c.facade.delete(c.query(["m_ItemList": [Data()]]))) },
        "use-item-list": { c in try c.addAll(1); return c.outcome(c.facade.copy(c.query(["u_ItemList": [Data()], "r_Data": true]))) },
        "data-protection-keychain": { c in
            let nleg: [String: Any] = ["nleg": true]
            guard c.facade.add(c.query(["acct": "a", "v_Data": Data("v".utf8)]).merging(nleg) { $1 }) == errSecSuccess,
                  c.facade.copy(c.query(["acct": "a"]).merging(nleg) { $1 }).0 == errSecSuccess,
                  c.facade.update(c.query(["acct": "a"]).merging(nleg) { $1 }, ["labl": "x"]) == errSecSuccess,
                  c.facade.delete(c.query(["acct": "a"]).merging(nleg) { $1 }) == errSecSuccess else { return "refused" }
            return "no-effect"
        },
        "case-insensitive": { c in try c.insensitive("m_CaseInsensitive", stored: "Alice", asked: "ALICE") },
        "diacritic-insensitive": { c in try c.insensitive("m_DiacriticInsensitive", stored: "café", asked: "cafe") },
        "width-insensitive": { c in try c.insensitive("m_WidthInsensitive", stored: "a", asked: "\u{FF41}") },
        "case-insensitive-delete": { c in try c.addAll(1); return statusName(c.facade.delete(c.query(["m_CaseInsensitive": true]))) },
        "return-in-update": { c in try c.addAll(1); return statusName(c.facade.update(c.query(["r_Data": true]), ["labl": "x"])) },
        "match-policy-other-class": { c in
            try c.addAll(1)
            return c.outcome(c.facade.copy(c.query(["m_Policy": SecPolicyCreateBasicX509(), "r_Data": true])))
        },
        "missing-class": { c in try c.addAll(1); return c.outcome(c.facade.copy(["agrp": c.group, "r_Data": true])) },
        "attribute-of-another-class": { c in
            let add = c.facade.add(c.query(["srvr": "example.com", "v_Data": Data()]))
            let copy = c.facade.copy(c.query(["srvr": "example.com"])).0
            return add == copy ? statusName(add) : "\(statusName(add)) / \(statusName(copy))"
        },
        "unknown-key": { c in try c.addAll(1); return c.outcome(c.facade.copy(c.query(["x_Unknown": true]))) },
        "return-data-all": { c in
            try c.addAll(2)
            let (status, result) = c.facade.copy(c.query(["r_Data": true, "m_Limit": "m_LimitAll"]))
            guard status == errSecSuccess else { return statusName(status) }
            guard let list = result as? [Any], list.allSatisfy({ $0 is Data }) else { return "not an array of data" }
            return "array-of-data:\(list.count)"
        },
        "return-attributes-and-data": { c in
            try c.addAll(1)
            let (status, result) = c.facade.copy(c.query(["r_Data": true, "r_Attributes": true]))
            guard status == errSecSuccess else { return statusName(status) }
            guard let dict = result as? NSDictionary, dict["v_Data"] is Data, dict["acct"] != nil else { return "not a dictionary" }
            return "dictionary-with-v_Data"
        },
        "ui-skip": { c in
            try c.addAll(1)
            let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .applicationPassword, nil))
            let writer = LAContext()
            writer.setCredential(Data("pw".utf8), type: .applicationPassword)
            try #require(c.facade.add(c.query(["acct": "gated", "accc": control, "v_Data": Data("g".utf8), "u_AuthCtx": writer])) == errSecSuccess)
            return c.shape(c.facade.copy(c.query(["r_Data": true, "m_Limit": "m_LimitAll", "u_AuthUI": "u_AuthUIS"])))
        },
    ]

    /// A generic-password query in this test's access group, plus `extra`.
    func query(_ extra: [String: Any]) -> [String: Any] {
        var q: [String: Any] = ["class": "genp", "agrp": group]
        for (k, v) in extra { q[k] = v }
        return q
    }

    func add(_ account: String, sync: Bool = false) throws {
        let status = facade.add(query(["acct": account, "sync": sync, "v_Data": Data("v-\(account)".utf8)]))
        try #require(status == errSecSuccess, "add \(account): \(statusName(status))")
    }

    func addAll(_ count: Int) throws { for i in 0..<count { try add("a\(i)") } }

    func addSyncPair() throws {
        try add("local")
        try add("synced", sync: true)
    }

    func addReturningReference(account: String, sync: Bool) throws -> Data {
        let (status, ref) = facade.addReturning(query(["acct": account, "sync": sync, "v_Data": Data("v".utf8), "r_PersistentRef": true]))
        try #require(status == errSecSuccess)
        return try #require(ref as? Data)
    }

    func byReference(sync: Bool) throws -> String {
        let ref = try addReturningReference(account: "a", sync: sync)
        return outcome(facade.copy(["v_PersistentRef": ref, "r_Data": true]))
    }

    /// How many items match `extra` in this test's group.
    func count(_ extra: [String: Any]) -> Int {
        let (status, result) = facade.copy(query(extra.merging(["r_Attributes": true, "m_Limit": "m_LimitAll"]) { $1 }))
        return status == errSecSuccess ? (result as? [Any])?.count ?? 0 : 0
    }

    func insensitive(_ key: String, stored: String, asked: String) throws -> String {
        try add(stored)
        let (status, _) = facade.copy(query(["acct": asked, key: true, "r_Data": true]))
        if status == errSecItemNotFound { return facade.copy(query(["acct": stored, key: true])).0 == errSecSuccess ? "exact" : "never matches" }
        return status == errSecSuccess ? "insensitive" : statusName(status)
    }

    /// "found", or the status.
    func outcome(_ result: (OSStatus, AnyObject?)) -> String { result.0 == errSecSuccess ? "found" : statusName(result.0) }

    /// "one-object", "array:N", or the status.
    func shape(_ result: (OSStatus, AnyObject?)) -> String {
        guard result.0 == errSecSuccess else { return statusName(result.0) }
        if let list = result.1 as? [Any] { return "array:\(list.count)" }
        return result.1 == nil ? "nothing" : "one-object"
    }
}
