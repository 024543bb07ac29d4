import Foundation
import LatchkeyTestSupport
import LatchkeyCrypto
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// The vault's on-disk bytes, pinned: what the format wrote when these were recorded must be what it writes
/// now (lookup and primary-key MACs, the sealed attribute encoding, the AAD of every sealed part), and blobs
/// sealed then must still open.
@Suite(.offCooperativePool) struct VaultEncodingTests {
    static let keys = VaultKeys(vaultKey: SymmetricKey(data: Data((1...32).map { UInt8($0) })),
                                     vaultID: Data((0xa0..<0xb0).map { UInt8($0) }))
    static let uid = Data((0x10..<0x20).map { UInt8($0) })

    static var attributes: ItemAttributes {
        var a = ItemAttributes(itemClass: .genericPassword, accessibility: .whenUnlocked)
        a.service = "svc"
        a.account = "acct"
        a.accessGroup = "group"
        a.label = "label"
        a.generic = Data([0, 1, 2])
        a.values[.creator] = .int(0x4c4b)
        a.values[.isInvisible] = .bool(true)
        a.creationDate = Date(timeIntervalSinceReferenceDate: 1_000_000)
        a.modificationDate = Date(timeIntervalSinceReferenceDate: 1_000_001.5)
        return a
    }

    static func hex(_ d: some Sequence<UInt8>) -> String { Data(d).hexString }

    @Test func attributeAndPrimaryKeyEncodings() {
        #expect(Self.hex(AttributeCoding.encode(Self.attributes)) == Self.encodedAttributes)
        #expect(Self.hex(PrimaryKey.bytes(Self.attributes, value: Data("v".utf8))) == Self.primaryKeyBytes)
    }

    @Test func lookupAndPrimaryKeyMACs() {
        let keys = Self.keys
        #expect(Self.hex(keys.mac(PrimaryKey.bytes(Self.attributes, value: Data()))) == Self.primaryKeyMAC)
        #expect(Self.hex(VaultRow.lookupMAC(.service, .string("svc"), keys: keys)) == Self.serviceMAC)
        #expect(Self.hex(VaultRow.lookupMAC(.account, .string("acct"), keys: keys)) == Self.accountMAC)
        #expect(Self.hex(VaultRow.lookupMAC(.accessGroup, .string("group"), keys: keys)) == Self.accessGroupMAC)
    }

    @Test func rowMACsAndAAD() throws {
        let row = try VaultRow.make(uid: Self.uid, attributes: Self.attributes, value: Data("secret".utf8),
                                    keys: Self.keys, gateKeys: nil)
        #expect(Self.hex(row.pk) == Self.primaryKeyMAC)
        // Vault format 2 stores the first 16 bytes of each lookup MAC.
        #expect(row.lookup(.service).map { Self.hex($0) } == String(Self.serviceMAC.prefix(32)))
        #expect(row.lookup(.account).map { Self.hex($0) } == String(Self.accountMAC.prefix(32)))
        #expect(row.lookup(.accessGroup).map { Self.hex($0) } == String(Self.accessGroupMAC.prefix(32)))
        #expect(row.lookup(.server) == nil)
        #expect(Self.hex(row.aad(0x76)) == Self.valueAAD)
        #expect(Self.hex(row.aad(0x61)) == Self.attributesAAD)
        // What was sealed is what opens (and decodes to the same attributes).
        #expect(try row.openValue(keys: Self.keys, itemKey: nil) == Data("secret".utf8))
        #expect(try row.openAttributes(keys: Self.keys) == Self.attributes)
    }

    /// A value and attributes sealed by the format as recorded open unchanged.
    @Test func recordedBlobsOpen() throws {
        var row = try VaultRow.make(uid: Self.uid, attributes: Self.attributes, value: Data("secret".utf8),
                                    keys: Self.keys, gateKeys: nil)
        row.sealedValue = try #require(Data(hexString: Self.sealedValue))
        row.sealedAttributes = try #require(Data(hexString: Self.sealedAttributes))
        #expect(try row.openValue(keys: Self.keys, itemKey: nil) == Data("secret".utf8))
        #expect(try row.openAttributes(keys: Self.keys) == Self.attributes)
    }

    /// The bit set behind `isApplicable` answers as the sets do (and every attribute has its own bit).
    @Test func applicabilityBitsMatchTheSets() {
        #expect(AttributeKey.allCases.count <= 64)
        #expect(Set(AttributeKey.allCases.map(\.bit)).count == AttributeKey.allCases.count)
        for (index, key) in AttributeKey.allCases.enumerated() { #expect(key.bit == 1 << UInt64(index)) }
        for itemClass in ItemClass.allCases {
            for key in AttributeKey.allCases {
                #expect(AttributeKey.isApplicable(key, to: itemClass) == AttributeKey.applicable(to: itemClass).contains(key))
            }
        }
    }

    static let encodedAttributes =
        "010000000467656e700000000002616b00412e848000000000412e848300000000000000070000000461636374010000"
        + "0004616363740000000461677270010000000567726f75700000000463727472030000000000004c4b0000000467656e"
        + "61020000000300010200000004696e76690401000000046c61626c01000000056c6162656c0000000473766365010000"
        + "0003737663"
    static let primaryKeyBytes = "67656e700000010000000567726f757001010000000461636374020100000003737663"
    static let primaryKeyMAC = "8af1fe50991c11def6d8fd6734df385764dd0f4147a51cf29c5a957bc22a34a2"
    static let serviceMAC = "6943087c5fe4f0fe37f3ac0ac01bb34780da5c4def4300981317c993c73017fd"
    static let accountMAC = "4354f5f6d27a388a73fef8a2414b569868e22b30f3f918eff7c64eb978037bbb"
    static let accessGroupMAC = "d62b958e18942c4bbadb8c91b04f6f3b045925a469bd0223895859f2609f6fe0"
    static let valueAAD =
        "4c4b56317667656e70208af1fe50991c11def6d8fd6734df385764dd0f4147a51cf29c5a957bc22a34a2101011121314"
        + "15161718191a1b1c1d1e1f02616b0000000000000000"
    static let attributesAAD =
        "4c4b56316167656e70208af1fe50991c11def6d8fd6734df385764dd0f4147a51cf29c5a957bc22a34a2101011121314"
        + "15161718191a1b1c1d1e1f02616b0000000000000000"
    static let sealedValue = "7047fa33f54040480c2df3bebb86f55b7075ca5f67daa71bc6b7f4afd8c3b2b641ff"
    static let sealedAttributes =
        "d28a2aea70f9c635c41e89e08df470a0850c618d277f7dbfa40a258aa1027e90f4f019a9691ed8217e9d54e797751ee6"
        + "44b88292173dd6c979fc3c188daed5df9a726edf3b822c4ad901f940f1d6733fe1aded2e0cbeb548e0c8ed99ab645930"
        + "7e3b518e7e0707246d1abfdfccb6becd989bc94d88265360c01708dbb32340d61ab0ecf50f0a8d1176fa1da28422f609"
        + "e1c6be294d9cd129d9da0ae42e04045353b4a2ce219cb0c97762c27a8646f4b18b"
}
