import Foundation
import LatchkeyTestSupport
import LatchkeyCrypto
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// The vault's read path: the query filters kept without a dictionary, the plain read (value opened in place
/// from a row's columns, its AAD on the stack), the lookup-MAC caches and the in-place parameter bindings.
@Suite(.offCooperativePool) struct VaultReadPathTests {
    // MARK: Query filters

    @Test func filtersReadAndWriteAsADictionary() {
        var query = ItemQuery.genericPassword(service: "svc", account: "me", accessGroup: "group")
        #expect(query.filters == [.service: .string("svc"), .account: .string("me"), .accessGroup: .string("group")])
        query.filters[.label] = .string("label")
        query.filters[.account] = nil
        query.filters[.server] = .data(Data([1, 2]))
        #expect(query.filters == [.service: .string("svc"), .accessGroup: .string("group"), .label: .string("label"),
                                  .server: .data(Data([1, 2]))])
        #expect(query.storedFilters.contains(.server) && query.storedFilters.contains(.label))
        #expect(!query.storedFilters.contains(.account) && !query.storedFilters.hasOnlyPlacedFilters)
        query.filters = [:]
        #expect(query.filters.isEmpty && query.storedFilters.isEmpty)
        let built = ItemQuery(itemClass: .internetPassword, filters: [.server: .string("host"), .port: .int(443)])
        #expect(built.filters == [.server: .string("host"), .port: .int(443)])
        #expect(ItemQuery.genericPassword(service: "svc").filters == [.service: .string("svc")])
    }

    @Test func placedFiltersAreValidatedLikeOthers() {
        #expect(status { try ItemQuery.genericPassword(service: "svc", account: "me").validate() } == .success)
        var wrongKind = ItemQuery.genericPassword(service: "svc")
        wrongKind.filters[.account] = .bool(true)
        #expect(status { try wrongKind.validate() } == .param)
        var accountAsBytes = ItemQuery.genericPassword(service: "svc")
        accountAsBytes.filters[.account] = .data(Data("me".utf8))
        #expect(status { try accountAsBytes.validate() } == .success)
        var serverOnPassword = ItemQuery.genericPassword(service: "svc")
        serverOnPassword.filters[.server] = .string("host")
        #expect(status { try serverOnPassword.validate() } == .param)
        let serviceOnKey = ItemQuery(itemClass: .key, filters: [.service: .string("svc")])
        #expect(status { try serviceOnKey.validate() } == .param)
        var otherWrong = ItemQuery.genericPassword(service: "svc")
        otherWrong.filters[.port] = .int(1)
        #expect(status { try otherWrong.validate() } == .param)
        #expect(QueryFilters.places == VaultRow.lookupKeys)
        for place in QueryFilters.places.indices { #expect(QueryFilters.key(place: place) == QueryFilters.places[place]) }
    }

    @Test func matchesUsesEveryFilter() {
        var attributes = ItemAttributes(itemClass: .genericPassword)
        attributes.service = "svc"
        attributes.account = "me"
        attributes.label = "label"
        var query = ItemQuery.genericPassword(service: "svc", account: "me")
        #expect(query.matches(attributes))
        query.filters[.label] = .string("other")
        #expect(!query.matches(attributes))
        #expect(!ItemQuery.genericPassword(service: "svc", account: "you").matches(attributes))
        #expect(ItemQuery.genericPassword(service: "svc", account: "me", accessGroup: "").matches(attributes))
    }

    // MARK: Small decoders

    @Test func accessibilityFromColumnBytes() {
        for level in Accessibility.allCases {
            var raw = level.rawValue
            #expect(raw.withUTF8 { Accessibility(utf8: UnsafeRawBufferPointer($0)) } == level)
        }
        for text in ["", "a", "k", "akk", "aku ", "akp", "akpx", "bk", "ckx", "dkuu", "AK", "ak\u{0}"] {
            var raw = text
            #expect(raw.withUTF8 { Accessibility(utf8: UnsafeRawBufferPointer($0)) } == nil, "\(text)")
        }
    }

    @Test func tagsAndKeySetsAgreeWithTheirLists() {
        for (index, level) in Accessibility.allCases.enumerated() { #expect(Int(level.tag) == index) }
        for (index, itemClass) in ItemClass.allCases.enumerated() {
            #expect(Int(itemClass.tag) == index)
            #expect(itemClass.rawValueUTF8.description == itemClass.rawValue)
            for key in AttributeKey.allCases {
                #expect(AttributeKey.isPrimaryKey(key, of: itemClass) == AttributeKey.primaryKey(of: itemClass).contains(key))
            }
        }
        for column in VaultRow.lookupColumns { #expect(VaultRow.lookupKey(column: column) == VaultRow.lookupKeys[column]) }
        #expect(VaultRow.lookupColumns == VaultRow.lookupKeys.indices)
    }

    /// The AAD written on the stack for a plain read is the one the row was sealed with.
    @Test func stackAADMatchesTheRowAAD() throws {
        let row = try VaultRow.make(uid: VaultEncodingTests.uid, attributes: VaultEncodingTests.attributes,
                                    value: Data("secret".utf8), keys: VaultEncodingTests.keys, gateKeys: nil)
        var level = row.accessibility.rawValue
        let aad = level.withUTF8 { level in
            row.pk.withUnsafeBytes { pk in
                row.uid.withUnsafeBytes { uid in
                    RowAAD.withBytes(itemClass: row.itemClass, pk: pk, uid: uid, level: UnsafeRawBufferPointer(level),
                                     flags: 0, part: 0x76) { Data($0) }
                }
            }
        }
        #expect(aad.hexString == VaultEncodingTests.valueAAD)
    }

    // MARK: Lookup MACs

    @Test func cachedMACsAreTheLookupMACs() throws {
        let keys = VaultEncodingTests.keys
        let dir = TempDir()
        let vault = try unlockedVault(dir)
        try vault.state.withLock { (s: inout FileVault.State) throws in
            for (key, text) in [(AttributeKey.service, "svc"), (.account, "acct"), (.account, "acct"), (.account, "other"),
                                (.accessGroup, "group"), (.account, "acct")] {
                let column = try #require(VaultRow.lookupColumn(of: key))
                let mac = try FileVault.cachedMAC(key, column, .string(text), &s, keys)
                #expect(mac.withUnsafeBytes { Data($0) } == VaultRow.storedLookupMAC(key, .string(text), keys: keys))
            }
            // Bytes that are not UTF-8 are not cached, and still give their MAC.
            let bytes = AttributeValue.data(Data([0xff, 0xfe]))
            let mac = try FileVault.cachedMAC(.account, 2, bytes, &s, keys)
            #expect(mac.withUnsafeBytes { Data($0) } == VaultRow.storedLookupMAC(.account, bytes, keys: keys))
        }
        #expect(LookupMAC(Data(count: 31)) == nil && LookupMAC(Data(count: 33)) == nil)
        var recent = RecentLookups()
        let mac = try #require(LookupMAC(Data(repeating: 7, count: 32)))
        #expect(recent.mac(1, "svc") == nil)
        recent.record(1, "svc", mac)
        #expect(recent.mac(1, "svc")?.withUnsafeBytes { Data($0) } == Data(repeating: 7, count: 16))
        #expect(recent.mac(2, "svc") == nil && recent.mac(1, "svc2") == nil)
    }

    // MARK: Reads

    @Test func plainReadsAcrossLevelsClassesAndLimits() throws {
        let dir = TempDir()
        let vault = try unlockedVault(dir)
        try vault.add(genp("svc", "a", "one"))
        try vault.add(genp("svc", "b", "two", accessibility: .afterFirstUnlockThisDeviceOnly))
        try vault.add(genp("svc", "a", "grouped", group: "g"))
        try vault.add(genp("other", "a", "elsewhere"))
        var inet = ItemAttributes(itemClass: .internetPassword)
        inet.server = "svc"
        inet.account = "a"
        try vault.add(Item(attributes: inet, value: Data("inet".utf8)))
        // The same service and account in two access groups: the first added, or both.
        #expect(try read(vault, "svc", "a") == "one")
        #expect(try read(vault, "svc", "a", group: "g") == "grouped")
        var both = ItemQuery.genericPassword(service: "svc", account: "a")
        both.returnData = true
        both.matchLimit = .all
        #expect(try vault.copyMatching(both).compactMap { $0.data.map { String(decoding: $0, as: UTF8.self) } }.sorted()
                == ["grouped", "one"])
        var service = ItemQuery.genericPassword(service: "svc")
        service.returnData = true
        service.matchLimit = .upTo(2)
        #expect(try vault.copyMatching(service).count == 2)
        service.matchLimit = .all
        #expect(try vault.copyMatching(service).count == 3)
        // An account filter alone keeps the class check: the internet password is not a generic password.
        var account = ItemQuery(itemClass: .genericPassword, filters: [.account: .string("a")], matchLimit: .all, returnData: true)
        #expect(try vault.copyMatching(account).count == 3)
        account.itemClass = .internetPassword
        #expect(try vault.copyMatching(account).map(\.data) == [Data("inet".utf8)])
        var server = ItemQuery(itemClass: .internetPassword, filters: [.server: .string("svc")], returnData: true)
        #expect(try vault.copyMatching(server).map(\.data) == [Data("inet".utf8)])
        server.filters[.server] = .string("nowhere")
        #expect(status { _ = try vault.copyMatching(server) } == .itemNotFound)
        #expect(status { _ = try read(vault, "svc", "c") } == .itemNotFound)
        // Locked: the afterFirstUnlock item still reads, the whenUnlocked one does not.
        vault.lock()
        #expect(try read(vault, "svc", "b") == "two")
        #expect(status { _ = try read(vault, "svc", "a") } == .interactionNotAllowed)
        try vault.unlock(passphrase: "pw")
        #expect(try read(vault, "svc", "a") == "one")
    }

    /// A one-result read returns the oldest match even though the index orders matches by primary-key MAC (the read
    /// picks the oldest itself instead of asking SQLite to sort): eight access groups, added in turn.
    @Test func oneResultIsTheOldestMatch() throws {
        let dir = TempDir()
        let vault = try unlockedVault(dir)
        for n in 0..<8 { try vault.add(genp("svc", "a", "value \(n)", group: "group\(n)")) }
        #expect(try read(vault, "svc", "a") == "value 0")
        try vault.delete(.genericPassword(service: "svc", account: "a", accessGroup: "group0"))
        #expect(try read(vault, "svc", "a") == "value 1")
        var all = ItemQuery.genericPassword(service: "svc", account: "a")
        all.returnData = true
        all.matchLimit = .all
        #expect(try vault.copyMatching(all).compactMap { $0.data.map { String(decoding: $0, as: UTF8.self) } }
                == (1..<8).map { "value \($0)" })
    }

    /// A data-only read that meets an access-controlled row answers as the general path does.
    @Test func plainReadFallsBackForGatedRows() throws {
        let dir = TempDir()
        let vault = try unlockedVault(dir)
        let context = FakeContext()
        try context.evaluateNow(.deviceOwnerAuthenticationWithBiometrics)
        try vault.add(genp("svc", "open", "plain"))
        var gated = genp("svc", "gated", "behind a gate")
        gated.attributes.accessControl = AccessControl(accessibility: .whenUnlocked, flags: [.biometryAny])
        try vault.add(gated, authenticationContext: context)
        #expect(try read(vault, "svc", "gated", context: context) == "behind a gate")
        #expect(status { _ = try read(vault, "svc", "gated", ui: .fail) } == .interactionNotAllowed)
        var all = ItemQuery.genericPassword(service: "svc")
        all.returnData = true
        all.matchLimit = .all
        all.authenticationUI = .skip
        #expect(try vault.copyMatching(all).map(\.data) == [Data("plain".utf8)])
        all.authenticationContext = context
        #expect(try vault.copyMatching(all).count == 2)
    }

    /// A row whose value was sealed for another row does not open (its AAD names the other row).
    @Test func plainReadChecksTheRowAAD() throws {
        let dir = TempDir()
        let vault = try unlockedVault(dir)
        try vault.add(genp("svc", "a", "first"))
        try vault.add(genp("svc", "b", "second"))
        try vault.state.withLock { (s: inout FileVault.State) throws(KeychainStoreError) in
            try s.db.execute("UPDATE items SET value = (SELECT value FROM items ORDER BY id LIMIT 1) WHERE id = (SELECT max(id) FROM items)")
        }
        #expect(try read(vault, "svc", "a") == "first")
        #expect(status { _ = try read(vault, "svc", "b") } == .decode)
    }

    // MARK: In-place bindings

    @Test func inPlaceBindingsOutliveTheCallerAndOverflowToCopies() throws {
        let dir = TempDir()
        let vault = try unlockedVault(dir)
        try vault.state.withLock { (s: inout FileVault.State) throws(KeychainStoreError) in
            let db = s.db
            let sql = { "SELECT length(?1), length(?2), hex(?2) = hex(?3)" }
            for size in [1, 32, 200, 300] {
                let big = Data((0..<size).map { UInt8(truncatingIfNeeded: $0) })
                let answer: [Int64] = try db.using(shape: -99, rebindsAll: true, sql) { st throws(KeychainStoreError) in
                    Data([1, 2, 3]).withUnsafeBytes { st.bindInPlace(1, $0) }
                    big.withUnsafeBytes { st.bindInPlace(2, $0) }
                    big.withUnsafeBytes { st.bindInPlace(3, $0) }
                    _ = try st.step()
                    return [st.int(0), st.int(1), st.int(2)]
                }
                #expect(answer == [3, Int64(size), 1], "\(size)")
            }
        }
    }
}
