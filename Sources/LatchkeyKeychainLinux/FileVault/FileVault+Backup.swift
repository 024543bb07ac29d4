import Foundation
import LatchkeyKeychainCore
import CryptoKit
import LatchkeyOpenSSL
import LatchkeySupport

extension FileVault {
    static let backupMagic = Data("LKBK1".utf8)

    /// Exports every item that may leave this machine, re-encrypted under `passphrase` (Argon2id with the
    /// vault's KDF parameters, AES-256-GCM). Left out: `…ThisDeviceOnly` items, and access-controlled items
    /// (their keys depend on this device's authentication secrets). The vault must be unlocked.
    public func exportBackup(passphrase: String) throws(KeychainStoreError) -> Data {
        try state.withLock { (s: inout State) throws(KeychainStoreError) -> Data in
            guard let keys = s.keys, keys.whenUnlocked != nil else { throw KeychainStoreError(.interactionNotAllowed, .locked) }
            var payload = Data()
            var count = 0
            try s.db.using("SELECT \(Self.selectColumns) FROM items ORDER BY id") { st throws(KeychainStoreError) in
                while try st.step() {
                    let row = try Self.row(st)
                    guard !row.accessibility.isThisDeviceOnly, row.accessControlFlags == 0 else { continue }
                    let attributes = try row.openAttributes(keys: keys)
                    var value = try row.openValue(keys: keys, itemKey: nil)
                    AttributeCoding.appendBytes(AttributeCoding.encode(attributes), to: &payload)
                    AttributeCoding.appendBytes(value, to: &payload)
                    value.resetBytes(in: 0..<value.count)
                    count += 1
                }
            }
            defer { payload.resetBytes(in: 0..<payload.count) }
            var plain = Data()
            AttributeCoding.appendLength(count, to: &plain)
            plain.append(payload)
            defer { plain.resetBytes(in: 0..<plain.count) }
            let salt = SodiumRandom.bytes(count: VaultKDF.saltByteCount)
            let key = try kdf.deriveKey(passphrase: passphrase, salt: salt)
            var out = Self.backupMagic
            out.append(kdf.encoded())
            AttributeCoding.appendBytes(salt, to: &out)
            out.append(try VaultSeal.seal(plain, key: key, aad: Self.backupMagic))
            return out
        }
    }

    /// Imports a backup made by `exportBackup`: adds its items, keeping any local item with the same
    /// primary key, in one transaction (a crash or power cut leaves all of them or none). Returns how many items were
    /// added. A damaged backup or a wrong passphrase throws errSecDecode / errSecAuthFailed (`.invalidBackup`) and
    /// adds nothing.
    @discardableResult
    public func importBackup(_ backup: Data, passphrase: String) throws(KeychainStoreError) -> Int {
        guard backup.count > Self.backupMagic.count, backup.prefix(Self.backupMagic.count) == Self.backupMagic else {
            throw KeychainStoreError(.decode, .invalidBackup)
        }
        var r = AttributeCoding.Reader(bytes: [UInt8](backup.dropFirst(Self.backupMagic.count)))
        let items: [Item]
        do throws(KeychainStoreError) {
            let backupKDF = try VaultKDF.decode(&r)
            let salt = Data(try r.raw())
            let sealed = Data(r.bytes[r.offset...])
            let key = try backupKDF.deriveKey(passphrase: passphrase, salt: salt)
            var plain: Data
            do throws(KeychainStoreError) { plain = try VaultSeal.open(sealed, key: key, aad: Self.backupMagic) }
            catch { throw KeychainStoreError(.authFailed, .invalidBackup) }
            defer { plain.resetBytes(in: 0..<plain.count) }
            var pr = AttributeCoding.Reader(bytes: [UInt8](plain))
            let count = try pr.length()
            var list: [Item] = []
            for _ in 0..<count {
                let attributes = try AttributeCoding.decode(Data(try pr.raw()))
                list.append(Item(attributes: attributes, value: Data(try pr.raw())))
            }
            items = list
        } catch let e where e.reason == .invalidBackup {
            throw e
        } catch {
            throw KeychainStoreError(.decode, .invalidBackup)
        }
        let restorable = items.filter {
            $0.attributes.accessControl == nil && !$0.attributes.effectiveAccessibility.isThisDeviceOnly
        }
        // One transaction: a crash or power cut during a restore leaves all of it or none.
        return try insertAll(restorable, authenticationContext: nil, skippingDuplicates: true)
    }

    /// Writes `exportBackup(passphrase:)` to `url` so that a crash or power cut at any moment leaves the previous file
    /// or the whole new backup, never a part of it: written to a temporary name beside it (0600), synced, renamed into
    /// place, and the directory synced.
    public func exportBackup(to url: URL, passphrase: String) throws(KeychainStoreError) {
        try VaultFileOperations.current.replaceFile(atPath: url.path, with: try exportBackup(passphrase: passphrase))
    }

    /// Imports the backup file at `url` (`exportBackup(to:passphrase:)`), as `importBackup(_:passphrase:)` does. A
    /// missing or unreadable file throws errSecIO with its errno.
    @discardableResult
    public func importBackup(from url: URL, passphrase: String) throws(KeychainStoreError) -> Int {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw KeychainStoreError(.io, .system(errno: FileManager.default.fileExists(atPath: url.path) ? EACCES : ENOENT))
        }
        return try importBackup(data, passphrase: passphrase)
    }
}
