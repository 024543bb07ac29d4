import Foundation
import LatchkeyTestSupport
import LatchkeyAuth
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// The behavioural suite every store must pass (MemoryStore and FileVault).
@Suite(.offCooperativePool) struct StoreBehaviorTests {
    @Test(arguments: StoreKind.allCases) func addReadDeleteAndStatusCodes(kind: StoreKind) throws {
        let t = try StoreUnderTest.make(kind)
        let s = t.store
        #expect(status { _ = try read(s, "svc", "me") } == .itemNotFound)
        try s.add(genp("svc", "me", "secret"))
        #expect(try read(s, "svc", "me") == "secret")
        #expect(status { try s.add(genp("svc", "me", "other")) } == .duplicateItem)
        #expect(try read(s, "svc", "me") == "secret")
        try s.delete(.genericPassword(service: "svc", account: "me"))
        #expect(status { _ = try read(s, "svc", "me") } == .itemNotFound)
        #expect(status { try s.delete(.genericPassword(service: "svc")) } == .itemNotFound)
        #expect(status { try s.update(.genericPassword(service: "svc"), with: AttributeChanges(value: Data())) } == .itemNotFound)
    }

    @Test(arguments: StoreKind.allCases) func primaryKeyRules(kind: StoreKind) throws {
        let t = try StoreUnderTest.make(kind)
        let s = t.store
        try s.add(genp("svc", "me", "a"))
        try s.add(genp("svc", "me", "b", group: "group.one"))
        try s.add(genp("svc", "me", "c", group: "group.two"))
        try s.add(genp("svc", "me", "d", sync: true))
        try s.add(genp("svc", "you", "e"))
        try s.add(genp("svc2", "me", "f"))
        // An absent account is the empty account: same primary key.
        var noAccount = Item(attributes: ItemAttributes(itemClass: .genericPassword), value: Data("x".utf8))
        noAccount.attributes.service = "svc3"
        try s.add(noAccount)
        #expect(status { try s.add(genp("svc3", "", "y")) } == .duplicateItem)
        // Label / comment are not part of the primary key.
        var labelled = genp("svc", "me", "g")
        labelled.attributes.label = "different label"
        #expect(status { try s.add(labelled) } == .duplicateItem)
        #expect(try read(s, "svc", "me", group: "group.one") == "b")
        #expect(try read(s, "svc", "me", group: "group.two") == "c")
        var q = ItemQuery.genericPassword(service: "svc", account: "me")
        q.matchLimit = .all
        q.returnAttributes = true
        #expect(try s.copyMatching(q).count == 3) // sync = no by default
        q.synchronizable = .any
        #expect(try s.copyMatching(q).count == 4)
        q.synchronizable = .yes
        #expect(try s.copyMatching(q).count == 1)
        // Internet passwords: server, protocol, port, path... are part of the key.
        func inet(_ port: Int, _ path: String) -> Item {
            var a = ItemAttributes(itemClass: .internetPassword)
            a.server = "example.com"; a.account = "me"; a.internetProtocol = .https; a.port = port; a.path = path
            a.authenticationType = .htmlForm
            return Item(attributes: a, value: Data("p\(port)".utf8))
        }
        try s.add(inet(443, "/"))
        try s.add(inet(8443, "/"))
        try s.add(inet(443, "/admin"))
        #expect(status { try s.add(inet(443, "/")) } == .duplicateItem)
        var iq = ItemQuery(itemClass: .internetPassword, filters: [.server: .string("example.com")], matchLimit: .all, returnData: true)
        #expect(try s.copyMatching(iq).count == 3)
        iq.filters[.port] = .int(8443)
        #expect(try s.copyMatching(iq).map(\.data) == [Data("p8443".utf8)])
        // Keys: application tag + key type + size.
        var k = ItemAttributes(itemClass: .key)
        k.applicationTag = Data("com.example.key".utf8); k.keyType = "73"; k.keySizeInBits = 256
        try s.add(Item(attributes: k, value: Data([1, 2, 3])))
        #expect(status { try s.add(Item(attributes: k, value: Data([4]))) } == .duplicateItem)
        k.keySizeInBits = 384
        try s.add(Item(attributes: k, value: Data([5])))
        // Opaque certificates: the DER distinguishes them.
        let c = ItemAttributes(itemClass: .certificate)
        try s.add(Item(attributes: c, value: Data([0x30, 1])))
        try s.add(Item(attributes: c, value: Data([0x30, 2])))
        #expect(status { try s.add(Item(attributes: c, value: Data([0x30, 1]))) } == .duplicateItem)
    }

    @Test(arguments: StoreKind.allCases) func matchLimitsAndReturnShapes(kind: StoreKind) throws {
        let t = try StoreUnderTest.make(kind)
        let s = t.store
        for i in 0..<5 { try s.add(genp("svc", "acct\(i)", "v\(i)")) }
        var q = ItemQuery.genericPassword(service: "svc")
        q.returnData = true
        #expect(try s.copyMatching(q).count == 1)
        q.matchLimit = .all
        #expect(try s.copyMatching(q).count == 5)
        q.matchLimit = .upTo(3)
        #expect(try s.copyMatching(q).count == 3)
        // No return keys: success, nothing returned.
        var bare = ItemQuery.genericPassword(service: "svc", account: "acct1")
        let r = try s.copyMatching(bare)
        #expect(r.count == 1 && r[0].data == nil && r[0].attributes == nil)
        bare.returnAttributes = true
        let attrs = try #require(try s.copyMatching(bare).first?.attributes)
        #expect(attrs.account == "acct1" && attrs.service == "svc")
        #expect(attrs.creationDate != nil && attrs.modificationDate != nil)
        #expect(attrs.accessibility == .whenUnlocked)
        bare.returnData = true
        bare.returnPersistentReference = true
        let both = try #require(try s.copyMatching(bare).first)
        #expect(both.data == Data("v1".utf8) && both.attributes?.account == "acct1")
        let ref = try #require(both.persistentReference)
        var byRef = ItemQuery(itemClass: .genericPassword, persistentReference: ref, returnData: true)
        #expect(try s.copyMatching(byRef).first?.data == Data("v1".utf8))
        byRef.persistentReference = Data(repeating: 9, count: 16)
        #expect(status { _ = try s.copyMatching(byRef) } == .itemNotFound)
        var refQuery = ItemQuery.genericPassword(service: "svc", account: "acct2")
        refQuery.returnReference = true
        #expect(try s.copyMatching(refQuery).first?.reference?.value == Data("v2".utf8))
    }

    @Test(arguments: StoreKind.allCases) func updateInPlace(kind: StoreKind) throws {
        let t = try StoreUnderTest.make(kind)
        let s = t.store
        try s.add(genp("svc", "me", "old"))
        try s.add(genp("svc", "other", "x"))
        var q = ItemQuery.genericPassword(service: "svc", account: "me")
        q.returnAttributes = true
        let before = try #require(try s.copyMatching(q).first?.attributes)
        try s.update(.genericPassword(service: "svc", account: "me"),
                     with: AttributeChanges(values: [.label: .string("Label ✓")], value: Data("new".utf8)))
        let after = try #require(try s.copyMatching(q).first?.attributes)
        #expect(try read(s, "svc", "me") == "new")
        #expect(after.label == "Label ✓")
        #expect(after.creationDate == before.creationDate)
        #expect(try #require(after.modificationDate) > #require(before.modificationDate))
        // Attribute-only update keeps the secret.
        try s.update(.genericPassword(service: "svc", account: "me"), with: AttributeChanges(values: [.comment: .string("c")]))
        #expect(try read(s, "svc", "me") == "new")
        // Renaming onto an existing primary key fails and changes nothing.
        #expect(status { try s.update(.genericPassword(service: "svc", account: "me"),
                                      with: AttributeChanges(values: [.account: .string("other")])) } == .duplicateItem)
        #expect(try read(s, "svc", "me") == "new")
        #expect(try read(s, "svc", "other") == "x")
        // Renaming to a free key moves the item.
        try s.update(.genericPassword(service: "svc", account: "me"), with: AttributeChanges(values: [.account: .string("renamed")]))
        #expect(try read(s, "svc", "renamed") == "new")
        #expect(status { _ = try read(s, "svc", "me") } == .itemNotFound)
        // Update of every match.
        try s.update(.genericPassword(service: "svc"), with: AttributeChanges(values: [.generic: .data(Data([7]))]))
        var all = ItemQuery.genericPassword(service: "svc")
        all.matchLimit = .all; all.returnAttributes = true
        #expect(try s.copyMatching(all).allSatisfy { $0.attributes?.generic == Data([7]) })
        // Change accessibility and synchronizable.
        try s.update(.genericPassword(service: "svc", account: "other"),
                     with: AttributeChanges(accessibility: .afterFirstUnlock, synchronizable: true))
        var syncQ = ItemQuery.genericPassword(service: "svc", account: "other")
        syncQ.synchronizable = .yes; syncQ.returnData = true; syncQ.returnAttributes = true
        let moved = try #require(try s.copyMatching(syncQ).first)
        #expect(moved.data == Data("x".utf8) && moved.attributes?.accessibility == .afterFirstUnlock)
    }

    @Test(arguments: StoreKind.allCases) func attributeFilters(kind: StoreKind) throws {
        let t = try StoreUnderTest.make(kind)
        let s = t.store
        var a = genp("svc", "a", "1"); a.attributes.label = "L1"; a.attributes.comment = "shared"; a.attributes.generic = Data([1])
        var b = genp("svc", "b", "2"); b.attributes.label = "L2"; b.attributes.comment = "shared"
        var c = genp("svc", "c", "3", accessibility: .afterFirstUnlock); c.attributes.label = "L3"
        try s.add(a); try s.add(b); try s.add(c)
        func count(_ filters: [AttributeKey: AttributeValue], accessibility: Accessibility? = nil) throws -> Int {
            let q = ItemQuery(itemClass: .genericPassword, filters: filters, accessibility: accessibility, matchLimit: .all)
            do { return try s.copyMatching(q).count } catch let e where e.status == .itemNotFound { return 0 }
        }
        #expect(try count([.comment: .string("shared")]) == 2)
        #expect(try count([.label: .string("L3")]) == 1)
        #expect(try count([.label: .string("nope")]) == 0)
        #expect(try count([.generic: .data(Data([1]))]) == 1)
        #expect(try count([.service: .string("svc"), .comment: .string("shared"), .account: .string("b")]) == 1)
        #expect(try count([:], accessibility: .afterFirstUnlock) == 1)
        #expect(try count([:]) == 3)
        try s.delete(ItemQuery(itemClass: .genericPassword, filters: [.comment: .string("shared")]))
        #expect(try count([:]) == 1)
    }

    @Test(arguments: StoreKind.allCases) func unicodeEmptyAndLargeValues(kind: StoreKind) throws {
        let t = try StoreUnderTest.make(kind)
        let s = t.store
        try s.add(genp("서비스 🔐", "계정 ünïcødé", "비밀 ✓ 𝄞"))
        #expect(try read(s, "서비스 🔐", "계정 ünïcødé") == "비밀 ✓ 𝄞")
        try s.add(genp("", "", ""))
        #expect(try read(s, "", "") == "")
        let big = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try s.add(Item.genericPassword(service: "big", account: "one", value: big))
        var q = ItemQuery.genericPassword(service: "big", account: "one"); q.returnData = true
        #expect(try s.copyMatching(q).first?.data == big)
        let bytes = Data([0, 255, 0, 1])
        try s.add(Item.genericPassword(service: "bin", account: "x", value: bytes))
        q = .genericPassword(service: "bin", account: "x"); q.returnData = true
        #expect(try s.copyMatching(q).first?.data == bytes)
    }

    @Test(arguments: StoreKind.allCases) func malformedInputIsParam(kind: StoreKind) throws {
        let t = try StoreUnderTest.make(kind)
        let s = t.store
        var a = ItemAttributes(itemClass: .genericPassword)
        a.server = "not for genp"
        #expect(status { try s.add(Item(attributes: a)) } == .param)
        var b = ItemAttributes(itemClass: .genericPassword)
        b.values[.service] = .bool(true) // a blob takes strings, bytes and numbers, not flags
        #expect(status { try s.add(Item(attributes: b)) } == .param)
        #expect(status { _ = try s.copyMatching(ItemQuery(itemClass: .genericPassword, filters: [.port: .int(1)])) } == .param)
        #expect(status { _ = try s.copyMatching(ItemQuery(itemClass: .genericPassword, matchLimit: .upTo(0))) } == .param)
        #expect(status { try s.update(.genericPassword(service: "x"), with: AttributeChanges(values: [.server: .string("s")])) } == .param)
        var both = genp("s", "a", "v", accessibility: .afterFirstUnlock)
        both.attributes.accessControl = AccessControl(accessibility: .whenUnlocked, flags: [])
        #expect(status { try s.add(both) } == .param)
        var refused = genp("s", "a", "v")
        refused.attributes.accessControl = AccessControl(accessibility: .whenUnlocked, flags: [.userPresence, .or, .biometryAny])
        #expect(status { try s.add(refused) } == .param, "Apple refuses userPresence with other constraints")
        var sealed = genp("s", "a", "v")
        sealed.attributes.accessControl = AccessControl(accessibility: .whenUnlocked, flags: [.applicationPassword])
        #expect(status { try s.add(sealed) } == .interactionNotAllowed, "sealing needs the application password")
    }

    @Test(arguments: StoreKind.allCases) func blobAttributesKeepTheirType(kind: StoreKind) throws {
        let s = try StoreUnderTest.make(kind).store
        var item = genp("svc", "x", "v")
        item.attributes.values[.account] = .data(Data("bytes".utf8))
        item.attributes.values[.label] = .data(Data([0xff, 0xfe]))
        try s.add(item)
        #expect(status { try s.add(genp("svc", "bytes", "w")) } == .duplicateItem, "same bytes, same account")
        var q = ItemQuery.genericPassword(service: "svc", account: "bytes")
        q.returnAttributes = true
        q.returnData = true
        let found = try #require(try s.copyMatching(q).first)
        #expect(found.attributes?.values[.account] == .data(Data("bytes".utf8)))
        #expect(found.attributes?.account == "bytes", "the typed getter reads UTF-8 bytes as text")
        #expect(found.attributes?.values[.label] == .data(Data([0xff, 0xfe])))
        #expect(found.data == Data("v".utf8))
        var byData = ItemQuery(itemClass: .genericPassword, filters: [.service: .data(Data("svc".utf8))])
        byData.returnData = true
        #expect(try s.copyMatching(byData).first?.data == Data("v".utf8))
        #expect(status { _ = try s.copyMatching(ItemQuery(itemClass: .genericPassword, filters: [.creator: .data(Data())])) } == .param,
                "only blob attributes take bytes")
    }

    @Test(arguments: StoreKind.allCases) func accessibilityAcrossLockAndUnlock(kind: StoreKind) throws {
        let t = try StoreUnderTest.make(kind)
        let s = t.store
        for level in Accessibility.allCases { try s.add(genp("svc", level.rawValue, "v-\(level.rawValue)", accessibility: level)) }
        t.lock()
        for level in Accessibility.allCases {
            let expected: KeychainStatus = level.needsUnlock ? .interactionNotAllowed : .success
            #expect(status { _ = try read(s, "svc", level.rawValue) } == expected, "locked read \(level)")
            let add = genp("svc-locked", level.rawValue, "x", accessibility: level)
            #expect(status { try s.add(add) } == expected, "locked add \(level)")
            #expect(status { try s.update(.genericPassword(service: "svc", account: level.rawValue),
                                          with: AttributeChanges(values: [.label: .string("l")])) } == expected, "locked update \(level)")
        }
        try t.unlock()
        for level in Accessibility.allCases { #expect(try read(s, "svc", level.rawValue) == "v-\(level.rawValue)") }
        // After a reboot nothing is readable until the first unlock; then afterFirstUnlock survives a lock.
        try t.reboot()
        let rebooted: any ItemStore = t.store
        for level in Accessibility.allCases {
            #expect(status { _ = try read(rebooted, "svc", level.rawValue) } == .interactionNotAllowed, "after reboot \(level)")
        }
        try t.unlock()
        t.lock()
        #expect(try read(rebooted, "svc", Accessibility.afterFirstUnlock.rawValue) == "v-ck")
        #expect(try read(rebooted, "svc", Accessibility.afterFirstUnlockThisDeviceOnly.rawValue) == "v-cku")
        #expect(status { _ = try read(rebooted, "svc", Accessibility.whenUnlocked.rawValue) } == .interactionNotAllowed)
        #expect(status { try rebooted.delete(.genericPassword(service: "svc", account: "ak")) } == .interactionNotAllowed)
        try rebooted.delete(.genericPassword(service: "svc", account: "ck"))
    }

    @Test(arguments: StoreKind.allCases) func accessControlGatesReads(kind: StoreKind) async throws {
        let t = try StoreUnderTest.make(kind)
        let s = t.store
        let ctx = FakeContext()
        var item = genp("bank", "me", "pin-1234")
        item.attributes.accessControl = AccessControl(accessibility: .whenUnlockedThisDeviceOnly, flags: [.biometryCurrentSet])
        // Adding needs the domain secret, so an unevaluated context is refused.
        #expect(status { try s.add(item, authenticationContext: nil) } == .interactionNotAllowed)
        #expect(status { try s.add(item, authenticationContext: ctx) } == .interactionNotAllowed)
        try await s.authenticatedAdd(item, authenticationContext: ctx, operationPrompt: "Save")
        var anyItem = genp("bank", "any", "pin-any")
        anyItem.attributes.accessControl = AccessControl(accessibility: .whenUnlocked, flags: [.biometryAny])
        try s.add(anyItem, authenticationContext: ctx)
        var orItem = genp("bank", "or", "pin-or")
        orItem.attributes.accessControl = AccessControl(accessibility: .whenUnlocked, flags: [.biometryAny, .or, .devicePasscode])
        let both = FakeContext()
        try both.evaluateNow(.deviceOwnerAuthenticationWithBiometrics)
        both.outcome = .passcode
        try both.evaluateNow(.deviceOwnerAuthentication)
        try s.add(orItem, authenticationContext: both) // sealing needs every alternative's domain

        let fresh = FakeContext()
        // No context, or an unevaluated one: errSecInteractionNotAllowed. Attributes alone need no proof.
        #expect(status { _ = try read(s, "bank", "me") } == .interactionNotAllowed)
        #expect(status { _ = try read(s, "bank", "me", context: fresh, ui: .fail) } == .interactionNotAllowed)
        var attrsOnly = ItemQuery.genericPassword(service: "bank", account: "me"); attrsOnly.returnAttributes = true
        #expect(try s.copyMatching(attrsOnly).first?.attributes?.accessControl?.flags == [.biometryCurrentSet])
        // Skip leaves gated items out.
        var skip = ItemQuery.genericPassword(service: "bank"); skip.returnData = true; skip.matchLimit = .all
        skip.authenticationUI = .skip; skip.authenticationContext = fresh
        #expect(status { _ = try s.copyMatching(skip) } == .itemNotFound)
        // Evaluation outcomes through the async path.
        var q = ItemQuery.genericPassword(service: "bank", account: "me")
        q.returnData = true; q.authenticationContext = fresh; q.operationPrompt = "Unlock"
        fresh.outcome = .cancel
        #expect(await asyncStatus { _ = try await s.authenticatedCopyMatching(q) } == .userCanceled)
        fresh.outcome = .noMatch
        #expect(await asyncStatus { _ = try await s.authenticatedCopyMatching(q) } == .authFailed)
        fresh.outcome = .match
        #expect(try await s.authenticatedCopyMatching(q).first?.data == Data("pin-1234".utf8))
        #expect(try read(s, "bank", "me", context: fresh) == "pin-1234")
        // The passcode satisfies a passcode alternative but not biometry-only items.
        let pass = FakeContext(); pass.outcome = .passcode
        try pass.evaluateNow(.deviceOwnerAuthentication)
        #expect(try read(s, "bank", "or", context: pass) == "pin-or")
        #expect(status { _ = try read(s, "bank", "any", context: pass, ui: .fail) } == .interactionNotAllowed)
        // Re-enrolment: biometryCurrentSet dies, biometryAny survives.
        fresh.enrollment = Data("finger-B".utf8)
        #expect(status { _ = try read(s, "bank", "me", context: fresh) } == .authFailed)
        #expect(try read(s, "bank", "any", context: fresh) == "pin-any")
        // Invalidated context.
        fresh.invalidate()
        #expect(status { _ = try read(s, "bank", "any", context: fresh) } == .authFailed)
        // Updating the secret needs the proof; deleting does not.
        let c2 = FakeContext()
        #expect(status { try s.update(.genericPassword(service: "bank", account: "any"), with: AttributeChanges(value: Data("n".utf8))) } == .interactionNotAllowed)
        try c2.evaluateNow(.deviceOwnerAuthenticationWithBiometrics)
        var uq = ItemQuery.genericPassword(service: "bank", account: "any"); uq.authenticationContext = c2
        try s.update(uq, with: AttributeChanges(value: Data("new-any".utf8)))
        #expect(try read(s, "bank", "any", context: c2) == "new-any")
        try s.delete(.genericPassword(service: "bank", account: "me"))
        #expect(status { _ = try read(s, "bank", "me", context: c2) } == .itemNotFound)
    }
}

func asyncStatus(_ body: () async throws -> Void) async -> KeychainStatus {
    do { try await body(); return .success } catch let e as KeychainStoreError { return e.status } catch { return KeychainStatus(-1) }
}
