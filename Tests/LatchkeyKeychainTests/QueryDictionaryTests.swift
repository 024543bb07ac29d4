import Foundation
import LatchkeyTestSupport
import LatchkeyAuth
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// The portable SecItem dictionary translation (what the Security facade and AppleKeychainStore call).
@Suite(.offCooperativePool) struct QueryDictionaryTests {
    func statusOf(_ body: () throws -> Void) -> KeychainStatus { status(body) }

    @Test func addDictionaryParsesAppleKeysAndBridgedValues() throws {
        let ctx = FakeContext()
        let dict: [String: Any] = [
            "class": "genp", "svce": "svc" as NSString, "acct": "me", "agrp": "group.x", "labl": "Label",
            "v_Data": NSData(data: Data("pw".utf8)), "sync": NSNumber(value: true), "pdmn": "cku",
            "gena": Data([1, 2]), "crtr": NSNumber(value: 0x6c6b6368), "nleg": true, "r_Attributes": true,
            "u_AuthCtx": ctx,
        ]
        let req = try QueryDictionary.addRequest(dict)
        let a = req.item.attributes
        #expect(a.itemClass == .genericPassword && a.service == "svc" && a.account == "me" && a.accessGroup == "group.x")
        #expect(a.label == "Label" && a.generic == Data([1, 2]) && a.values[.creator] == .int(0x6c6b6368))
        #expect(a.synchronizable && a.accessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(req.item.value == Data("pw".utf8))
        #expect(req.resultQuery.returnAttributes && req.authenticationContext === ctx)
        #expect(req.resultQuery.filters[.service] == .string("svc") && req.resultQuery.synchronizable == .yes)
    }

    @Test func accessControlAndLegacyAccessibility() throws {
        let ac = AccessControl(accessibility: .whenPasscodeSetThisDeviceOnly, flags: [.biometryCurrentSet])
        let req = try QueryDictionary.addRequest(["class": "genp", "svce": "s", "accc": ac])
        #expect(req.item.attributes.accessControl == ac && req.item.attributes.accessibility == .whenPasscodeSetThisDeviceOnly)
        #expect(statusOf { _ = try QueryDictionary.addRequest(["class": "genp", "accc": ac, "pdmn": "ak"]) } == .param)
        // Deprecated "dk"/"dku" are kept as given (Apple reports them back) and protected as afterFirstUnlock(…ThisDeviceOnly).
        let always = try QueryDictionary.addRequest(["class": "genp", "pdmn": "dk"]).item.attributes
        #expect(always.accessibility == .always && !Accessibility.always.needsUnlock && !Accessibility.always.isThisDeviceOnly)
        #expect(QueryDictionary.dictionary(always)["pdmn"] as? String == "dk")
        #expect(try QueryDictionary.addRequest(["class": "genp", "pdmn": "dku"]).item.attributes.accessibility == .alwaysThisDeviceOnly)
        #expect(!Accessibility.alwaysThisDeviceOnly.needsUnlock && Accessibility.alwaysThisDeviceOnly.isThisDeviceOnly)
        struct Wrapped: AccessControlConvertible { var latchkeyAccessControl: AccessControl }
        let w = try QueryDictionary.addRequest(["class": "genp", "accc": Wrapped(latchkeyAccessControl: ac)])
        #expect(w.item.attributes.accessControl == ac)
        #expect(AccessControlFlags.userPresence.rawValue == 1 && AccessControlFlags.biometryAny.rawValue == 2)
        #expect(AccessControlFlags.biometryCurrentSet.rawValue == 8 && AccessControlFlags.devicePasscode.rawValue == 16)
        #expect(AccessControlFlags.or.rawValue == 1 << 14 && AccessControlFlags.and.rawValue == 1 << 15)
        #expect(AccessControlFlags.privateKeyUsage.rawValue == 1 << 30 && AccessControlFlags.applicationPassword.rawValue == 1 << 31)
    }

    @Test func malformedDictionariesAreParamNotCrashes() {
        let bad: [[String: Any]] = [
            [:],
            ["svce": "no class"],
            ["class": "nope"],
            ["class": 42],
            ["class": "genp", "svce": 12.5],
            ["class": "genp", "unknownKey": "x"],
            ["class": "genp", "m_Limit": "m_LimitSome"],
            ["class": "genp", "m_Limit": 0],
            ["class": "genp", "r_Data": "yes"],
            ["class": "genp", "pdmn": "zz"],
            ["class": "genp", "sync": "maybe"],
            ["class": "genp", "u_AuthCtx": "not a context"],
            ["class": "genp", "u_AuthUI": "u_AuthUIX"],
            ["class": "inet", "port": Data([80])],
            ["class": "genp", "acct": true],
            ["class": "genp", "v_PersistentRef": 5],
        ]
        for d in bad {
            #expect(statusOf { _ = try QueryDictionary.query(d) } == .param, "query \(d.keys.sorted())")
        }
        #expect(statusOf { _ = try QueryDictionary.addRequest(["class": "genp", "v_Data": 5]) } == .param)
        #expect(statusOf { _ = try QueryDictionary.addRequest(["class": "genp", "accc": "string"]) } == .param)
        // An attribute the class does not have is errSecNoSuchAttr, as Apple's SecDbAttrWithKey answers.
        #expect(statusOf { _ = try QueryDictionary.addRequest(["class": "keys", "svce": "x"]) } == .noSuchAttr)
        #expect(statusOf { _ = try QueryDictionary.query(["class": "genp", "srvr": "server on genp"]) } == .noSuchAttr)
        #expect(statusOf { _ = try QueryDictionary.changes(["class": "inet"], for: .genericPassword) } == .param)
        #expect(statusOf { _ = try QueryDictionary.changes(["v_Data": "str"], for: .genericPassword) } == .param)
        #expect(statusOf { _ = try QueryDictionary.changes(["bogus": 1], for: .genericPassword) } == .param)
    }

    @Test func queryOptions() throws {
        let q = try QueryDictionary.query(["class": "inet", "srvr": "example.com", "port": 443, "ptcl": "htps",
                                           "sync": "syna", "m_Limit": "m_LimitAll", "r_Data": NSNumber(value: true),
                                           "r_PersistentRef": true, "u_AuthUI": "u_AuthUIS", "u_OpPrompt": "Why"])
        #expect(q.itemClass == .internetPassword && q.filters[.port] == .int(443) && q.filters[.internetProtocol] == .string("htps"))
        #expect(q.synchronizable == .any && q.matchLimit == .all && q.returnData && q.returnPersistentReference)
        #expect(q.authenticationUI == .skip && q.operationPrompt == "Why")
        #expect(try QueryDictionary.query(["class": "genp", "u_NoAuthUI": true]).authenticationUI == .fail)
        #expect(try QueryDictionary.query(["class": "genp", "m_Limit": 5]).matchLimit == .upTo(5))
        #expect(try QueryDictionary.query(["class": "genp", "sync": false]).synchronizable == .no)
        #expect(try QueryDictionary.query(["class": "keys", "type": 73]).filters[.type] == .string("73"))
    }

    @Test func resultShapesMatchSecItemCopyMatching() throws {
        let store = MemoryStore()
        for i in 0..<3 {
            let req = try QueryDictionary.addRequest(["class": "genp", "svce": "svc", "acct": "a\(i)", "v_Data": Data("v\(i)".utf8)])
            try store.add(req.item)
        }
        func run(_ d: [String: Any]) throws -> Any? {
            let q = try QueryDictionary.query(d)
            return QueryDictionary.result(try store.copyMatching(q), for: q)
        }
        #expect(try run(["class": "genp", "svce": "svc", "acct": "a1"]) == nil)
        #expect(try run(["class": "genp", "acct": "a1", "r_Data": true, "m_Limit": "m_LimitOne"]) as? Data == Data("v1".utf8))
        let attrs = try #require(try run(["class": "genp", "acct": "a2", "r_Attributes": true]) as? [String: Any])
        #expect(attrs["class"] as? String == "genp" && attrs["svce"] as? String == "svc" && attrs["acct"] as? String == "a2")
        #expect(attrs["pdmn"] as? String == "ak" && attrs["sync"] as? Bool == false && attrs["v_Data"] == nil)
        #expect(attrs["cdat"] is Date && attrs["mdat"] is Date)
        let both = try #require(try run(["class": "genp", "acct": "a0", "r_Attributes": true, "r_Data": true]) as? [String: Any])
        #expect(both["v_Data"] as? Data == Data("v0".utf8) && both["acct"] as? String == "a0")
        let all = try #require(try run(["class": "genp", "r_Attributes": true, "m_Limit": "m_LimitAll"]) as? [[String: Any]])
        #expect(Set(all.compactMap { $0["acct"] as? String }) == ["a0", "a1", "a2"])
        let datas = try #require(try run(["class": "genp", "r_Data": true, "m_Limit": "m_LimitAll"]) as? [Data])
        #expect(Set(datas) == [Data("v0".utf8), Data("v1".utf8), Data("v2".utf8)])
        let refs = try #require(try run(["class": "genp", "acct": "a0", "r_PersistentRef": true]) as? Data)
        #expect(try run(["class": "genp", "v_PersistentRef": refs, "r_Data": true]) as? Data == Data("v0".utf8))
        // Update through dictionaries, then read.
        let uq = try QueryDictionary.query(["class": "genp", "acct": "a0"])
        try store.update(uq, with: try QueryDictionary.changes(["v_Data": Data("new".utf8), "labl": "L"], for: uq.itemClass))
        #expect(try run(["class": "genp", "acct": "a0", "r_Data": true]) as? Data == Data("new".utf8))
    }

    @Test func statusValuesAreApples() {
        let expected: [(KeychainStatus, Int32)] = [
            (.success, 0), (.unimplemented, -4), (.io, -36), (.param, -50), (.allocate, -108), (.userCanceled, -128),
            (.notAvailable, -25291), (.authFailed, -25293), (.duplicateItem, -25299), (.itemNotFound, -25300),
            (.dataTooLarge, -25302), (.interactionNotAllowed, -25308), (.decode, -26275), (.missingEntitlement, -34018),
        ]
        for (s, v) in expected { #expect(s.rawValue == v) }
        #expect(KeychainStatus.itemNotFound.name == "errSecItemNotFound")
        #expect(ItemClass.allCases.map(\.rawValue) == ["genp", "inet", "keys", "cert", "idnt"])
        #expect(Accessibility.allCases.map(\.rawValue) == ["ak", "aku", "ck", "cku", "akpu", "dk", "dku"])
        #expect(Accessibility.allCases.filter(\.isThisDeviceOnly) == [.whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly,
                                                                      .whenPasscodeSetThisDeviceOnly, .alwaysThisDeviceOnly])
    }

    @Test func errorTextsInBothLanguagesWithoutSecrets() {
        let e = KeychainStoreError(.itemNotFound)
        let text = e.errorDescription ?? ""
        #expect(text.contains("-25300"))
        let ko = KeychainStoreErrorText.status(.itemNotFound, .korean)
        #expect(ko.contains("항목") && ko.contains("-25300"))
        for reason: KeychainStoreError.Reason in [.locked, .wrongPassphrase, .corruptItem, .invalidBackup, .missingClass] {
            #expect(!KeychainStoreErrorText.reason(reason, .english).isEmpty)
            #expect(!KeychainStoreErrorText.reason(reason, .korean).isEmpty)
        }
    }
}
