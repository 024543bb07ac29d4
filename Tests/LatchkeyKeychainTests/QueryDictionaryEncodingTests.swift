import Foundation
import LatchkeyTestSupport
import LatchkeyAuth
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// The model → dictionary direction and results → model, as AppleKeychainStore uses them.
@Suite(.offCooperativePool) struct QueryDictionaryEncodingTests {
    @Test func itemRoundTripsThroughAddDictionary() throws {
        var item = genp("svc", "me", "pw", group: "g", accessibility: .afterFirstUnlock, sync: true)
        item.attributes.label = "L"; item.attributes.generic = Data([9]); item.attributes.values[.creator] = .int(0x41424344)
        let d = QueryDictionary.addDictionary(item)
        #expect(d["class"] as? String == "genp" && d["svce"] as? String == "svc" && d["acct"] as? String == "me")
        #expect(d["v_Data"] as? Data == Data("pw".utf8) && d["pdmn"] as? String == "ck" && d["sync"] as? Bool == true)
        let back = try QueryDictionary.addRequest(d).item
        #expect(back == item)
        var gated = item
        gated.attributes.accessControl = AccessControl(accessibility: .whenUnlockedThisDeviceOnly, flags: [.userPresence])
        gated.attributes.accessibility = .whenUnlockedThisDeviceOnly
        let gd = QueryDictionary.addDictionary(gated)
        #expect(gd["pdmn"] == nil && (gd["accc"] as? AccessControl)?.flags == [.userPresence])
        #expect(try QueryDictionary.addRequest(gd).item == gated)
    }

    @Test func queryRoundTripsThroughQueryDictionary() throws {
        var q = ItemQuery(itemClass: .internetPassword, filters: [.server: .string("h"), .port: .int(8080)],
                          synchronizable: .any, accessibility: .whenUnlocked, matchLimit: .upTo(7),
                          returnData: true, returnAttributes: true, authenticationUI: .skip, operationPrompt: "p")
        var d = QueryDictionary.queryDictionary(q)
        #expect(d["sync"] as? String == "syna" && d["m_Limit"] as? Int == 7 && d["u_AuthUI"] as? String == "u_AuthUIS")
        let back = try QueryDictionary.query(d)
        #expect(back.filters == q.filters && back.synchronizable == .any && back.matchLimit == .upTo(7))
        #expect(back.returnData && back.returnAttributes && back.authenticationUI == .skip && back.operationPrompt == "p")
        q.matchLimit = .all
        d = QueryDictionary.queryDictionary(q, forSearchOnly: true)
        #expect(d["m_Limit"] == nil && d["r_Data"] == nil && d["srvr"] as? String == "h")
        let c = AttributeChanges(values: [.label: .string("x")], value: Data([1]), synchronizable: false)
        let cd = QueryDictionary.changesDictionary(c)
        #expect(try QueryDictionary.changes(cd, for: .genericPassword) == c)
    }

    @Test func resultsParseBackFromEveryShape() throws {
        let store = MemoryStore()
        for i in 0..<3 { try store.add(genp("svc", "a\(i)", "v\(i)")) }
        let shapes: [[String: Any]] = [
            ["class": "genp", "acct": "a1", "r_Data": true],
            ["class": "genp", "acct": "a1", "r_Attributes": true],
            ["class": "genp", "acct": "a1", "r_Attributes": true, "r_Data": true, "r_PersistentRef": true],
            ["class": "genp", "r_Data": true, "m_Limit": "m_LimitAll"],
            ["class": "genp", "r_Attributes": true, "r_Data": true, "m_Limit": "m_LimitAll"],
            ["class": "genp", "r_PersistentRef": true, "m_Limit": "m_LimitAll"],
        ]
        for d in shapes {
            let q = try QueryDictionary.query(d)
            let direct = try store.copyMatching(q)
            let viaDictionary = try QueryDictionary.results(from: QueryDictionary.result(direct, for: q), for: q)
            #expect(viaDictionary.count == direct.count)
            for (a, b) in zip(direct, viaDictionary) {
                #expect(a.data == b.data && a.persistentReference == b.persistentReference)
                #expect(a.attributes == b.attributes)
            }
        }
        let q = try QueryDictionary.query(["class": "genp", "r_Data": true])
        #expect(status { _ = try QueryDictionary.results(from: ["not": "data"], for: q) } == .decode)
        #expect(status { _ = try QueryDictionary.results(from: nil, for: q) } == .decode)
    }
}
