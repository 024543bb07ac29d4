import Foundation
import LatchkeyKeychainCore
import CryptoKit
import LatchkeyOpenSSL
import LatchkeySupport

/// The keys an unlocked vault holds in memory, all derived (HKDF-SHA256) from the vault key with labels:
/// - `index`: HMAC key for lookup columns (primary-key digest, service, account, access group, server);
/// - `whenUnlocked`: seals attributes and values of `whenUnlocked*` / `whenPasscodeSet*` items;
/// - `afterFirstUnlock`: the same for `afterFirstUnlock*` items. On `lock()` the vault key and the
///   `whenUnlocked` key are dropped; `index` and `afterFirstUnlock` stay, as iOS keeps its class C key.
struct VaultKeys: Sendable {
    let index: SymmetricKey
    let afterFirstUnlock: SymmetricKey
    var whenUnlocked: SymmetricKey?

    static let indexLabel = Data("latchkey.vault.v1.index".utf8)
    static let whenUnlockedLabel = Data("latchkey.vault.v1.class.whenUnlocked".utf8)
    static let afterFirstUnlockLabel = Data("latchkey.vault.v1.class.afterFirstUnlock".utf8)
    static let gateLabel = Data("latchkey.vault.v1.gate".utf8)

    init(vaultKey: SymmetricKey, vaultID: Data) {
        index = Self.derive(vaultKey, salt: vaultID, info: Self.indexLabel)
        afterFirstUnlock = Self.derive(vaultKey, salt: vaultID, info: Self.afterFirstUnlockLabel)
        whenUnlocked = Self.derive(vaultKey, salt: vaultID, info: Self.whenUnlockedLabel)
    }

    static func derive(_ key: SymmetricKey, salt: Data, info: Data) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: salt, info: info, outputByteCount: 32)
    }

    /// The class key for an accessibility level, or errSecInteractionNotAllowed when it is not in memory.
    func classKey(for level: Accessibility) throws(KeychainStoreError) -> SymmetricKey {
        if !level.needsUnlock { return afterFirstUnlock }
        guard let whenUnlocked else { throw KeychainStoreError(.interactionNotAllowed, .locked) }
        return whenUnlocked
    }

    /// HMAC-SHA256 of a lookup value under the index key, by the engine straight into `Data` (the key's own HMAC
    /// context is reused: no re-keying). A hot path: every add, update and lookup computes several.
    func mac(_ bytes: [UInt8]) -> Data {
        bytes.withUnsafeBytes { HMACEngine.compute($0, key: index.secret, digest: .sha256) }
    }

    /// The key that wraps a gated item's key for one alternative: HKDF over the class key and every
    /// released domain secret, so neither the vault key nor the secrets alone can open the item.
    static func gateKey(classKey: SymmetricKey, secrets: [Data], uid: Data, alternative: Int) -> SymmetricKey {
        var ikm = classKey.withUnsafeBytes { Data($0) }
        for s in secrets {
            AttributeCoding.appendBytes(s, to: &ikm)
        }
        let material = SymmetricKey(data: ikm)
        ikm.resetBytes(in: 0..<ikm.count)
        var info = gateLabel
        info.append(UInt8(truncatingIfNeeded: alternative))
        return derive(material, salt: uid, info: info)
    }
}

/// AES-256-GCM sealing with the vault's error mapping: a box that fails to open is errSecDecode (corruptItem).
enum VaultSeal {
    static func seal(_ plaintext: Data, key: SymmetricKey, aad: Data) throws(KeychainStoreError) -> Data {
        do {
            guard let combined = try AES.GCM.seal(plaintext, using: key, authenticating: aad).combined else {
                throw KeychainStoreError(.internalComponent)
            }
            return combined
        } catch {
            throw KeychainStoreError(.internalComponent)
        }
    }

    static func open(_ combined: Data, key: SymmetricKey, aad: Data) throws(KeychainStoreError) -> Data {
        do {
            let box = try AES.GCM.SealedBox(combined: combined)
            return try AES.GCM.open(box, using: key, authenticating: aad)
        } catch {
            throw KeychainStoreError(.decode, .corruptItem)
        }
    }

    /// Seals one part of a row under its AAD.
    static func seal(_ plaintext: Data, key: SymmetricKey, aad: inout RowAAD, part: UInt8) throws(KeychainStoreError) -> Data {
        try aad.with(part: part) { (bytes) throws(KeychainStoreError) -> Data in
            do throws(CryptoError) {
                return try withTypedBytes(of: plaintext) { (input) throws(CryptoError) in
                    try AES.GCM.seal(input, using: key, authenticatingBytes: bytes)
                }
            } catch {
                throw KeychainStoreError(.internalComponent)
            }
        }
    }

    static func open(_ combined: Data, key: SymmetricKey, aad: inout RowAAD, part: UInt8) throws(KeychainStoreError) -> Data {
        try withTypedBytes(of: combined) { (box) throws(KeychainStoreError) -> Data in try open(box, key: key, aad: &aad, part: part) }
    }

    /// Opens one part of a row from bytes the caller holds (a blob column read in place).
    static func open(_ combined: UnsafeRawBufferPointer, key: SymmetricKey, aad: inout RowAAD,
                     part: UInt8) throws(KeychainStoreError) -> Data {
        try aad.with(part: part) { (bytes) throws(KeychainStoreError) -> Data in try open(combined, key: key, aadBytes: bytes) }
    }

    /// Opens a box the caller holds under an AAD it wrote itself (`RowAAD.withBytes`).
    static func open(_ combined: UnsafeRawBufferPointer, key: SymmetricKey,
                     aadBytes: UnsafeRawBufferPointer) throws(KeychainStoreError) -> Data {
        do throws(CryptoError) { return try AES.GCM.open(combinedBytes: combined, using: key, authenticatingBytes: aadBytes) }
        catch { throw KeychainStoreError(.decode, .corruptItem) }
    }
}
