import Foundation
import LatchkeyTestSupport
import LatchkeyAuth
import Testing
@testable import LatchkeyKeychainCore

/// The sealed form of `.applicationPassword` values: opens only with its password, and a damaged header is refused
/// before any key derivation.
@Suite(.offCooperativePool) struct ApplicationPasswordSealTests {
    @Test func opensOnlyWithItsPassword() throws {
        let sealed = try ApplicationPasswordSeal.seal(Data("the note".utf8), password: Passcode("right"), kdf: .testing)
        #expect(ApplicationPasswordSeal.isSealed(sealed))
        #expect(sealed.range(of: Data("the note".utf8)) == nil)
        #expect(try ApplicationPasswordSeal.open(sealed, password: Passcode("right")) == Data("the note".utf8))
        #expect(throws: KeychainStoreError(.authFailed, .wrongApplicationPassword)) {
            _ = try ApplicationPasswordSeal.open(sealed, password: Passcode("wrong"))
        }
        // A fresh salt each time: the same value sealed twice differs.
        #expect(try ApplicationPasswordSeal.seal(Data("the note".utf8), password: Passcode("right"), kdf: .testing) != sealed)
    }

    @Test func aDamagedValueIsRefused() throws {
        let sealed = try ApplicationPasswordSeal.seal(Data("v".utf8), password: Passcode("pw"), kdf: .testing)
        #expect(throws: KeychainStoreError(.decode, .corruptItem)) { _ = try ApplicationPasswordSeal.open(Data("v".utf8), password: Passcode("pw")) }
        #expect(throws: KeychainStoreError(.decode, .corruptItem)) { _ = try ApplicationPasswordSeal.open(sealed.prefix(29), password: Passcode("pw")) }
        var greedy = sealed
        greedy[5] = 0x7f // memory cost far above the bound: refused before Argon2id runs
        #expect(throws: KeychainStoreError(.decode, .corruptItem)) { _ = try ApplicationPasswordSeal.open(greedy, password: Passcode("pw")) }
        var costs = sealed
        costs[12] ^= 0x02 // 1 pass becomes 3: the costs are associated data: changed, the box does not open
        #expect(throws: KeychainStoreError(.authFailed, .wrongApplicationPassword)) { _ = try ApplicationPasswordSeal.open(costs, password: Passcode("pw")) }
    }
}
