import Foundation
import LatchkeyTestSupport
import LatchkeyCrypto
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// The vault's write path: the identity MACs a write stores (from the MAC cache, or the row's own primary-key
/// MAC kept across an update that leaves the primary key as it was) are the ones computed from scratch, and
/// rows bound in place from the statement's parameter buffer read back whole.
@Suite(.offCooperativePool) struct VaultWritePathTests {
    /// The stored pk and lookup columns of every row against the MACs of its opened attributes.
    func expectIdentityMACsMatchAttributes(_ vault: FileVault, _ comment: Comment) throws {
        try vault.state.withLock { (s: inout FileVault.State) throws in
            let keys = try #require(s.keys)
            let (rows, _) = try FileVault.candidates(ItemQuery(itemClass: .genericPassword, synchronizable: .any), &s, keys)
            let (certificates, _) = try FileVault.candidates(ItemQuery(itemClass: .certificate, synchronizable: .any), &s, keys)
            #expect(!(rows + certificates).isEmpty, comment)
            for row in rows + certificates {
                let attributes = try row.openAttributes(keys: keys)
                let value = try row.openValue(keys: keys, itemKey: nil)
                let fresh = try VaultRow.make(uid: row.uid, attributes: attributes, value: value, keys: keys, gateKeys: nil)
                #expect(row.pk == fresh.pk, comment)
                #expect(row.lookupMACs == fresh.lookupMACs, comment)
            }
        }
    }

    @Test func writesStoreTheMACsOfTheirAttributes() throws {
        let dir = TempDir()
        let vault = try unlockedVault(dir)
        try vault.add(genp("svc", "a", "one"))
        try vault.add(genp("svc", "b", "two", group: "g"))
        try vault.addAll([genp("svc", "c", "three"), genp("other", "a", "four")])
        try expectIdentityMACsMatchAttributes(vault, "after adding")
        // The value alone: the primary-key MAC is kept (and still right).
        try vault.update(.genericPassword(service: "svc", account: "a"), with: AttributeChanges(value: Data("one'".utf8)))
        // An attribute outside the primary key: kept too.
        try vault.update(.genericPassword(service: "svc", account: "b"), with: AttributeChanges(values: [.label: .string("L")]))
        // The account: a new primary key and account MAC.
        try vault.update(.genericPassword(service: "svc", account: "c"), with: AttributeChanges(values: [.account: .string("d")]))
        // Synchronizable is part of the primary key.
        try vault.update(.genericPassword(service: "other", account: "a"), with: AttributeChanges(synchronizable: true))
        try expectIdentityMACsMatchAttributes(vault, "after updating")
        #expect(try read(vault, "svc", "a") == "one'")
        #expect(try read(vault, "svc", "d") == "three")
        #expect(status { _ = try read(vault, "svc", "c") } == .itemNotFound)
        var synced = ItemQuery.genericPassword(service: "other", account: "a")
        synced.synchronizable = .yes
        synced.returnData = true
        #expect(try vault.copyMatching(synced).first?.data == Data("four".utf8))
        // The duplicate check still sees the kept MACs.
        #expect(status { try vault.update(.genericPassword(service: "svc", account: "d"),
                                          with: AttributeChanges(values: [.account: .string("a")])) } == .duplicateItem)
    }

    /// A certificate without issuer and serial number has its DER in its primary key: a new value is a new key.
    @Test func certificateValueIsPartOfItsPrimaryKey() throws {
        let dir = TempDir()
        let vault = try unlockedVault(dir)
        var attributes = ItemAttributes(itemClass: .certificate)
        attributes.label = "cert"
        try vault.add(Item(attributes: attributes, value: Data("DER one".utf8)))
        try vault.add(Item(attributes: attributes, value: Data("DER two".utf8)))
        let query = ItemQuery(itemClass: .certificate, filters: [.label: .string("cert")], matchLimit: .all)
        #expect(status { try vault.update(query, with: AttributeChanges(value: Data("DER two".utf8))) } == .duplicateItem)
        try vault.update(ItemQuery(itemClass: .certificate, filters: [.label: .string("cert")]),
                         with: AttributeChanges(values: [.label: .string("renamed")]))
        try expectIdentityMACsMatchAttributes(vault, "certificates")
        #expect(PrimaryKey.usesValue(attributes))
        var identified = attributes
        identified.values[.issuer] = .data(Data([1]))
        #expect(!PrimaryKey.usesValue(identified))
        #expect(!PrimaryKey.unchanged(attributes, attributes))
        #expect(PrimaryKey.unchanged(identified, identified))
        var relabelled = identified
        relabelled.label = "other"
        #expect(PrimaryKey.unchanged(identified, relabelled))
        relabelled.values[.serialNumber] = .data(Data([2]))
        #expect(!PrimaryKey.unchanged(identified, relabelled))
    }

    /// Rows larger than the statement's default parameter buffer are bound in place too and read back whole.
    @Test func largeRowsRoundTrip() throws {
        let dir = TempDir()
        let vault = try unlockedVault(dir)
        for size in [0, 1, 200, 5_000, 70_000] {
            var item = genp("svc", "size \(size)", "")
            item.value = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            item.attributes.label = String(repeating: "l", count: size / 2)
            item.attributes.comment = String(repeating: "c", count: size / 3)
            try vault.add(item)
            var query = ItemQuery.genericPassword(service: "svc", account: "size \(size)")
            query.returnData = true
            query.returnAttributes = true
            let found = try #require(try vault.copyMatching(query).first)
            #expect(found.data == item.value)
            #expect(found.attributes?.label == item.attributes.label && found.attributes?.comment == item.attributes.comment)
            let bigger = item.value + item.value
            try vault.update(.genericPassword(service: "svc", account: "size \(size)"), with: AttributeChanges(value: bigger))
            #expect(try vault.copyMatching(query).first?.data == bigger)
        }
        try expectIdentityMACsMatchAttributes(vault, "large rows")
    }
}

/// The decoders that read class and attribute names as four bytes agree with `init(rawValue:)`.
@Suite(.offCooperativePool) struct FourCCTests {
    @Test func everyNameIsFourBytesAndDecodesToItself() {
        for key in AttributeKey.allCases {
            let code = FourCC(key.rawValue)
            #expect(code != nil, "\(key)")
            #expect(code.flatMap(AttributeKey.init(fourCC:)) == key)
        }
        for itemClass in ItemClass.allCases {
            #expect(FourCC(itemClass.rawValue).flatMap(ItemClass.init(fourCC:)) == itemClass)
        }
        for other in ["genx", "GENP", "acc", "accts", "", "labl\u{0}"] {
            #expect(FourCC(other).flatMap(AttributeKey.init(fourCC:)) == nil)
            #expect(FourCC(other).flatMap(ItemClass.init(fourCC:)) == nil)
        }
    }

    /// Names of another length, unknown names and bad levels in a sealed attribute encoding are corrupt.
    @Test func decodingRejectsUnknownNames() throws {
        let good = AttributeCoding.encode(VaultEncodingTests.attributes)
        #expect(try AttributeCoding.decode(good) == VaultEncodingTests.attributes)
        for (from, to) in [("genp", "genx"), ("acct", "accx"), ("svce", "SVCE")] {
            var bytes = [UInt8](good)
            let pattern = Array(from.utf8)
            let at = try #require((0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == pattern })
            bytes.replaceSubrange(at..<at + 4, with: Array(to.utf8))
            #expect(status { _ = try AttributeCoding.decode(Data(bytes)) } == .decode, "\(to)")
        }
        var badLevel = [UInt8](good)
        let at = try #require((0...(badLevel.count - 2)).first { badLevel[$0] == 0x61 && badLevel[$0 + 1] == 0x6b })
        badLevel[at] = 0x7a // "zk"
        #expect(status { _ = try AttributeCoding.decode(Data(badLevel)) } == .decode)
    }
}
