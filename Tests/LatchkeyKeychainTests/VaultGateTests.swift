import Foundation
import LatchkeyTestSupport
import LatchkeyAuthCore
import LatchkeyCrypto
import Testing
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// The gate of an access-controlled vault row: format 2 is sealed to the domains' public keys (no secret needed to add)
/// and opens with their secrets; rows of format 1 (sealed under the secrets themselves) still open.
@Suite(.offCooperativePool) struct VaultGateTests {
    static let keys = VaultEncodingTests.keys
    static let secret = Data(repeating: 0x5a, count: 32)
    static let otherSecret = Data(repeating: 0xa5, count: 32)

    static var attributes: ItemAttributes {
        var a = VaultEncodingTests.attributes
        a.accessControl = AccessControl(accessibility: .whenUnlocked, flags: [.devicePasscode])
        return a
    }

    @Test func formatTwoSealsToThePublicKeyAndOpensWithTheSecret() throws {
        let sealingKey = try ProtectionDomainKey.publicKey(secret: Self.secret)
        let row = try VaultRow.make(uid: VaultEncodingTests.uid, attributes: Self.attributes, value: Data("pin".utf8),
                                    keys: Self.keys, gateKeys: [[sealingKey]])
        let gate = try #require(row.gate)
        #expect(gate.first == 0x81, "format 2, one alternative")
        let itemKey = try row.openItemKey(keys: Self.keys, alternative: 0, secrets: [Self.secret])
        #expect(try row.openValue(keys: Self.keys, itemKey: itemKey) == Data("pin".utf8))
        #expect(throws: KeychainStoreError(.authFailed)) {
            _ = try row.openItemKey(keys: Self.keys, alternative: 0, secrets: [Self.otherSecret])
        }
        // The ephemeral key is bound in the wrapping key: another one does not open the row.
        var swapped = row
        var bytes = [UInt8](gate)
        bytes[6] ^= 1  // inside the first alternative's ephemeral public key (after the header and a 4-byte length)
        swapped.gate = Data(bytes)
        #expect(throws: KeychainStoreError.self) {
            _ = try swapped.openItemKey(keys: Self.keys, alternative: 0, secrets: [Self.secret])
        }
    }

    @Test func formatOneRowsStillOpen() throws {
        var row = try VaultRow.make(uid: VaultEncodingTests.uid, attributes: Self.attributes, value: Data(), keys: Self.keys,
                                    gateKeys: nil)
        // Format 1 as earlier versions wrote it: the item key wrapped under the class key and the domain's secret.
        let classKey = try Self.keys.classKey(for: .whenUnlocked)
        let itemKey = SymmetricKey(size: .bits256)
        var aad = row.rowAAD
        var gate = Data([1])
        let wrap = VaultKeys.gateKey(classKey: classKey, secrets: [Self.secret], uid: row.uid, alternative: 0)
        AttributeCoding.appendBytes(try VaultSeal.seal(itemKey.withUnsafeBytes { Data($0) }, key: wrap, aad: &aad, part: 0x67),
                                    to: &gate)
        row.gate = gate
        row.sealedValue = try VaultSeal.seal(Data("old pin".utf8), key: itemKey, aad: &aad, part: 0x76)
        let opened = try row.openItemKey(keys: Self.keys, alternative: 0, secrets: [Self.secret])
        #expect(try row.openValue(keys: Self.keys, itemKey: opened) == Data("old pin".utf8))
        #expect(throws: KeychainStoreError(.authFailed)) {
            _ = try row.openItemKey(keys: Self.keys, alternative: 0, secrets: [Self.otherSecret])
        }
    }
}
