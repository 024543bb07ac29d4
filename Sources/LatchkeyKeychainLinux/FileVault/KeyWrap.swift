import Foundation
import LatchkeyKeychainCore
import LatchkeyCrypto

/// Wrapping of the vault key (AES-256-GCM with the vault id and the wrapper's label as associated data).
enum KeyWrap {
    static func aad(_ vaultID: Data, _ label: String) -> Data {
        var d = Data("latchkey.vault.v1.wrap.\(label)".utf8)
        d.append(vaultID)
        return d
    }

    static func wrap(_ key: SymmetricKey, with wrapping: SymmetricKey, vaultID: Data, label: String) throws(KeychainStoreError) -> Data {
        var bytes = key.withUnsafeBytes { Data($0) }
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        return try VaultSeal.seal(bytes, key: wrapping, aad: aad(vaultID, label))
    }

    static func unwrap(_ blob: Data, with wrapping: SymmetricKey, vaultID: Data, label: String) throws(KeychainStoreError) -> SymmetricKey {
        var bytes: Data
        do { bytes = try VaultSeal.open(blob, key: wrapping, aad: aad(vaultID, label)) }
        catch { throw KeychainStoreError(.authFailed, .wrongPassphrase) }
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        guard bytes.count == 32 else { throw KeychainStoreError(.decode, .corruptVault("vault key")) }
        return SymmetricKey(data: bytes)
    }

    /// kdf parameters ‖ salt ‖ sealed vault key.
    static func wrapPassphrase(_ key: SymmetricKey, passphrase: String, kdf: VaultKDF, vaultID: Data) throws(KeychainStoreError) -> Data {
        let salt = SecureRandom.bytes(count: VaultKDF.saltByteCount)
        let wrapping = try kdf.deriveKey(passphrase: passphrase, salt: salt)
        var out = kdf.encoded()
        AttributeCoding.appendBytes(salt, to: &out)
        AttributeCoding.appendBytes(try wrap(key, with: wrapping, vaultID: vaultID, label: "passphrase"), to: &out)
        return out
    }

    static func unwrapPassphrase(_ blob: Data, passphrase: String, vaultID: Data) throws(KeychainStoreError) -> SymmetricKey {
        var r = AttributeCoding.Reader(bytes: [UInt8](blob))
        let kdf = try VaultKDF.decode(&r)
        let salt = Data(try r.raw())
        let sealed = Data(try r.raw())
        let wrapping = try kdf.deriveKey(passphrase: passphrase, salt: salt)
        return try unwrap(sealed, with: wrapping, vaultID: vaultID, label: "passphrase")
    }
}
