import CSQLite
import Foundation
import LatchkeyKeychainCore
import LatchkeySupport
import LatchkeyAuthCore
import CryptoKit
import LatchkeyOpenSSL
import LatchkeySupport

/// The Linux default item store: one SQLite file (WAL, `synchronous=FULL`, one immediate transaction per
/// write) holding items sealed with AES-256-GCM.
///
/// - Secrets *and* attributes are sealed; lookup attributes (access group, service, account, server and the
///   primary key) are stored only as HMACs, so the file shows neither secrets nor names.
/// - The vault key is wrapped by a passphrase (Argon2id, derived once per `unlock`) and/or by a
///   `VaultKeyProvider` (kernel keyring, Secret Service).
/// - A vault starts locked. While locked, `whenUnlocked*` items answer errSecInteractionNotAllowed;
///   `afterFirstUnlock*` items stay readable once the vault has been unlocked in this process.
/// - Access-controlled items are sealed under an item key wrapped with keys derived from the vault key
///   *and* the secrets an evaluated `AuthenticationContext` releases: the vault key alone cannot open them.
/// - Corrupt or truncated files throw errSecDecode (`.corruptVault`) and are never recreated or emptied.
/// - Safe for several threads (one connection, serialized) and several processes (SQLite locking,
///   busy timeout, retried immediate transactions).
public final class FileVault: ItemStore {
    struct State {
        let db: SQLiteDatabase
        var vaultKey: SymmetricKey?
        var keys: VaultKeys?
        /// Lookup MACs of recent string values (names only, never secrets).
        var macCache: [MACCacheKey: LookupMAC] = [:]
        /// The last lookup of each column (in front of `macCache`).
        var recentLookups = RecentLookups()
    }

    struct MACCacheKey: Hashable {
        let column: UInt8
        let text: String
    }

    /// The file this vault lives in.
    public let url: URL
    /// The vault's random identifier (stored in the file; names its OS wrapping key).
    public let vaultID: Data
    /// Access group given to items added without one.
    public let defaultAccessGroup: String?
    /// The provider of an OS wrapping key, if any.
    public let keyProvider: (any VaultKeyProvider)?
    /// KDF parameters used when a passphrase is set.
    public let kdf: VaultKDF
    private let kdfSetting = Locked(ApplicationPasswordKDF.default)

    /// The Argon2id costs of application-password items added or changed from now on (`.default`).
    public var applicationPasswordKDF: ApplicationPasswordKDF {
        get { kdfSetting.withLock { $0 } }
        set { kdfSetting.withLock { $0 = newValue } }
    }

    let state: Locked<State>

    /// Opens the vault at `url` (default: `VaultFile.defaultURL()`), creating an empty one if the file does
    /// not exist. Never overwrites an existing file: one that is not a vault, or is damaged, throws
    /// errSecDecode (`.corruptVault`). A vault in the version-1 format is moved to version 2 (`VaultFormat`), in
    /// one transaction. The vault starts locked.
    public init(url: URL = VaultFile.defaultURL(), keyProvider: (any VaultKeyProvider)? = nil,
                defaultAccessGroup: String? = nil, kdf: VaultKDF = .default,
                busyTimeoutMilliseconds: Int32 = 10_000) throws(KeychainStoreError) {
        self.url = url
        self.keyProvider = keyProvider
        self.defaultAccessGroup = defaultAccessGroup
        self.kdf = kdf
        let generationFile = VaultGenerationFile(vaultPath: url.path)
        try Self.validate(url, generationFile: generationFile, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try VaultFile.prepare(url)
        let db = try SQLiteDatabase(path: url.path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        let vaultID = try Self.openSchema(db)
        self.vaultID = vaultID
        let generation = try VaultFormat.generation(db, format: VaultFormat.version2)
        let recorded = generationFile.read()
        if generation > (recorded?.generation ?? -1) || recorded?.vaultID != vaultID {
            generationFile.record(generation, vaultID: vaultID)
        }
        db.generationObserver = { generationFile.record($0, vaultID: vaultID) }
        state = Locked(State(db: db))
    }

    /// `SQLITE_READONLY_ROLLBACK`: a read-only connection found a hot rollback journal (a cut transaction to undo).
    static let hotJournal: Int32 = 776

    /// Checks an existing file through a read-only connection, so a damaged one is refused without a byte
    /// of it (or of its WAL) being written — not even the checkpoint SQLite makes when a writer closes:
    /// SQLite's integrity check, and the generation and vault id against `<vault>.generation` (a rolled-back or
    /// swapped file, or one gone altogether).
    static func validate(_ url: URL, generationFile: VaultGenerationFile,
                         busyTimeoutMilliseconds: Int32, recovered: Bool = false) throws(KeychainStoreError) {
        // The record before the file: writers record a generation only after its COMMIT, so whatever is read here
        // is already in the file when its generation is read below. (The other order refused a healthy vault as
        // "lost writes" whenever another connection or process committed between the two reads.)
        let recorded = generationFile.read()
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber
        guard let size, size.intValue > 0 else {
            // No file, or an empty one, is a new vault — unless writes to it were recorded: then the vault is gone.
            if let recorded, recorded.generation > 0 {
                throw KeychainStoreError(.decode, .corruptVault(
                    "the file is \(size == nil ? "missing" : "empty") but \(generationFile.path) records \(recorded.generation) "
                    + "writes to it: put the vault file back, or delete that record to start a new vault"))
            }
            return
        }
        let walPath = url.path + "-wal"
        let walExisted = FileManager.default.fileExists(atPath: walPath)
        do {
            try check(url, format: recorded, generationFile, busyTimeoutMilliseconds)
        } catch where !recovered && error.reason == .sqlite(code: hotJournal) {
            // A hot rollback journal: a transaction in rollback-journal mode — a vault's first switch to WAL — was cut.
            // That is SQLite's own recovery, not damage: a writer rolls the journal back (the pages as they were before
            // the transaction), then the check runs.
            do {
                let writer = try SQLiteDatabase(path: url.path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                _ = try writer.using("SELECT count(*) FROM sqlite_master") { s throws(KeychainStoreError) in try s.step() }
            }
            try validate(url, generationFile: generationFile, busyTimeoutMilliseconds: busyTimeoutMilliseconds, recovered: true)
        } catch {
            // Refused: the read-only connection may have created an empty WAL beside the file; it goes, so the refused
            // files are as they were.
            if !walExisted, (try? FileManager.default.attributesOfItem(atPath: walPath))?[.size] as? NSNumber == 0 {
                _ = VaultFileOperations.current.unlink(walPath)
            }
            throw error
        }
    }

    /// `validate`'s checks on a read-only connection.
    private static func check(_ url: URL, format recorded: VaultGenerationFile.Record?, _ generationFile: VaultGenerationFile,
                              _ busyTimeoutMilliseconds: Int32) throws(KeychainStoreError) {
        let db = try SQLiteDatabase(path: url.path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, readOnly: true)
        let check: String?
        do {
            check = try db.using("PRAGMA quick_check") { s throws(KeychainStoreError) in
                _ = try s.step(); return s.text(0)
            }
        } catch where error.status == .decode || error.reason == .sqlite(code: hotJournal) {
            throw error
        } catch {
            throw KeychainStoreError(.decode, .corruptVault("unreadable (\(error.reason.map { "\($0)" } ?? "\(error.status.rawValue)"))"))
        }
        guard check == "ok" else { throw KeychainStoreError(.decode, .corruptVault("integrity check failed")) }
        let tables: Int64 = try db.using("SELECT count(*) FROM sqlite_master") { s throws(KeychainStoreError) in
            _ = try s.step(); return s.int(0)
        }
        guard tables > 0 else { return } // being created by another process: openSchema finishes it
        let notAVault = KeychainStoreError(.decode, .corruptVault("not a Latchkey vault"))
        guard let format = try? meta(db, "format"), format == VaultFormat.version1 || format == VaultFormat.version2 else {
            throw notAVault
        }
        guard let id = try? meta(db, "vault_id"), id.count == 16 else { throw KeychainStoreError(.decode, .corruptVault("vault id")) }
        guard let generation = try? VaultFormat.generation(db, format: format) else { throw notAVault }
        guard let recorded else { return }
        if let recordedID = recorded.vaultID, recordedID != id {
            throw KeychainStoreError(.decode, .corruptVault(
                "it is another vault than the one recorded in \(generationFile.path) (a file put in its place); "
                + "put the right file back, or delete that record if you replaced the vault on purpose"))
        }
        if generation < recorded.generation {
            throw KeychainStoreError(.decode, .corruptVault(
                "it lost writes it had acknowledged: generation \(generation) < \(recorded.generation) recorded in \(generationFile.path); "
                + "if you restored an older copy on purpose, delete that file"))
        }
    }

    static func openSchema(_ db: SQLiteDatabase) throws(KeychainStoreError) -> Data {
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=FULL")
        try db.execute("PRAGMA secure_delete=ON")
        try db.execute("PRAGMA cache_size=-16384") // up to 16 MiB of page cache: a vault's rows stay in memory
        // Frames a crash left past the log's last commit carry the log's salts; a later commit cut inside a frame could
        // make one valid again (an old page read back: found by the power-cut simulator in the server's database, the
        // same SQLite log). The log emptied at open makes the next frames start under new salts.
        db.resetLog()
        let tables: Int64 = try db.using("SELECT count(*) FROM sqlite_master") { s throws(KeychainStoreError) in
            _ = try s.step(); return s.int(0)
        }
        if tables == 0 {
            try db.immediateTransaction { () throws(KeychainStoreError) in
                let again: Int64 = try db.using("SELECT count(*) FROM sqlite_master") { s throws(KeychainStoreError) in
                    _ = try s.step(); return s.int(0)
                }
                guard again == 0 else { return }
                try db.execute(VaultFormat.schema)
                try setMeta(db, "format", VaultFormat.version2)
                try setMeta(db, "vault_id", SodiumRandom.bytes(count: 16))
                try db.execute("INSERT INTO meta (name, value) VALUES ('generation', 0)")
            }
        }
        var format: Data?
        do { format = try meta(db, "format") } catch { throw KeychainStoreError(.decode, .corruptVault("not a Latchkey vault")) }
        if format == VaultFormat.version1 {
            _ = try VaultFormat.migrate(db)
            format = try meta(db, "format")
        }
        guard format == VaultFormat.version2 else { throw KeychainStoreError(.decode, .corruptVault("not a Latchkey vault")) }
        guard let id = try meta(db, "vault_id"), id.count == 16 else { throw KeychainStoreError(.decode, .corruptVault("vault id")) }
        return id
    }

    static func meta(_ db: SQLiteDatabase, _ name: String) throws(KeychainStoreError) -> Data? {
        try db.using("SELECT value FROM meta WHERE name = ?1") { s throws(KeychainStoreError) in
            s.bind(1, name)
            return try s.step() ? s.data(0) : nil
        }
    }

    static func setMeta(_ db: SQLiteDatabase, _ name: String, _ value: Data) throws(KeychainStoreError) {
        try db.using("INSERT OR REPLACE INTO meta (name, value) VALUES (?1, ?2)") { s throws(KeychainStoreError) in
            s.bind(1, name); s.bind(2, value); try s.run()
        }
    }

    // MARK: Lock state

    /// True while the vault is locked (whenUnlocked* items unreadable).
    public var isLocked: Bool { state.withLock { $0.keys?.whenUnlocked == nil } }

    /// The lock state the accessibility rules see.
    public var lockState: LockState {
        state.withLock { LockState(isLocked: $0.keys?.whenUnlocked == nil, hasBeenUnlocked: $0.keys != nil, passcodeSet: true) }
    }

    /// True when a passphrase wraps the vault key.
    public var hasPassphrase: Bool { protections.contains(.passphrase) }

    /// What protects the vault key (empty for a new vault that was never unlocked).
    public var protections: [VaultProtection] {
        (try? state.withLock { (s: inout State) throws(KeychainStoreError) in try Self.protections(s.db) }) ?? []
    }

    static func protections(_ db: SQLiteDatabase) throws(KeychainStoreError) -> [VaultProtection] {
        var found: [VaultProtection] = []
        for protection in VaultProtection.allCases where try meta(db, protection.metaName) != nil {
            found.append(protection)
        }
        return found
    }

    /// Refuses to create a new vault key when some other protection already wraps one.
    private static func requireNoOtherProtection(_ db: SQLiteDatabase) throws(KeychainStoreError) {
        let existing = try protections(db)
        if !existing.isEmpty { throw KeychainStoreError(.authFailed, .protectedElsewhere(existing)) }
    }

    /// Locks: forgets the vault key and the whenUnlocked class key. afterFirstUnlock items stay readable.
    public func lock() {
        state.withLock { s in
            s.vaultKey = nil
            s.keys?.whenUnlocked = nil
        }
    }

    /// Unlocks with a passphrase. On a new vault (no key yet) this creates the vault key and sets the
    /// passphrase. A wrong passphrase throws errSecAuthFailed (`.wrongPassphrase`).
    public func unlock(passphrase: String) throws(KeychainStoreError) {
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            let vaultKey: SymmetricKey = try s.db.immediateTransaction { () throws(KeychainStoreError) -> SymmetricKey in
                if let wrapped = try Self.meta(s.db, VaultProtection.passphrase.metaName) {
                    return try KeyWrap.unwrapPassphrase(wrapped, passphrase: passphrase, vaultID: vaultID)
                }
                try Self.requireNoOtherProtection(s.db)
                let key = SymmetricKey(size: .bits256)
                try Self.setMeta(s.db, VaultProtection.passphrase.metaName, try KeyWrap.wrapPassphrase(key, passphrase: passphrase, kdf: kdf, vaultID: vaultID))
                return key
            }
            try Self.install(vaultKey, in: &s, vaultID: vaultID)
        }
    }

    /// Unlocks with the key provider's wrapping key. On a new vault this creates the vault key and the
    /// provider's wrapping key. Throws errSecAuthFailed: `.noVaultKey` when the provider has no key for this
    /// vault, `.protectedElsewhere` when only other protections (a passphrase, another provider) wrap it —
    /// the vault is then left as it was.
    public func unlock() throws(KeychainStoreError) {
        guard let keyProvider else { throw KeychainStoreError(.param, .noVaultKey) }
        let protection = keyProvider.protection
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            let vaultKey: SymmetricKey = try s.db.immediateTransaction { () throws(KeychainStoreError) -> SymmetricKey in
                if let wrapped = try Self.meta(s.db, protection.metaName) {
                    guard let wrapping = try keyProvider.wrappingKey(for: vaultID, create: false) else {
                        throw KeychainStoreError(.authFailed, .noVaultKey)
                    }
                    return try KeyWrap.unwrap(wrapped, with: wrapping, vaultID: vaultID, label: protection.rawValue)
                }
                try Self.requireNoOtherProtection(s.db)
                guard let wrapping = try keyProvider.wrappingKey(for: vaultID, create: true) else {
                    throw KeychainStoreError(.notAvailable, .noVaultKey)
                }
                let key = SymmetricKey(size: .bits256)
                try Self.setMeta(s.db, protection.metaName,
                                 try KeyWrap.wrap(key, with: wrapping, vaultID: vaultID, label: protection.rawValue))
                return key
            }
            try Self.install(vaultKey, in: &s, vaultID: vaultID)
        }
    }

    /// Sets or changes the passphrase (the vault must be unlocked). The vault key itself does not change.
    public func setPassphrase(_ passphrase: String) throws(KeychainStoreError) {
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            guard let key = s.vaultKey else { throw KeychainStoreError(.interactionNotAllowed, .locked) }
            let wrapped = try KeyWrap.wrapPassphrase(key, passphrase: passphrase, kdf: kdf, vaultID: vaultID)
            try s.db.immediateTransaction { () throws(KeychainStoreError) in
                try Self.setMeta(s.db, VaultProtection.passphrase.metaName, wrapped)
            }
        }
    }

    /// Adds a wrapping of the vault key by the key provider (the vault must be unlocked), so later
    /// `unlock()` works without the passphrase.
    public func enableKeyProvider() throws(KeychainStoreError) {
        guard let keyProvider else { throw KeychainStoreError(.param, .noVaultKey) }
        try state.withLock { (s: inout State) throws(KeychainStoreError) in
            guard let key = s.vaultKey else { throw KeychainStoreError(.interactionNotAllowed, .locked) }
            guard let wrapping = try keyProvider.wrappingKey(for: vaultID, create: true) else {
                throw KeychainStoreError(.notAvailable, .noVaultKey)
            }
            let protection = keyProvider.protection
            let wrapped = try KeyWrap.wrap(key, with: wrapping, vaultID: vaultID, label: protection.rawValue)
            try s.db.immediateTransaction { () throws(KeychainStoreError) in try Self.setMeta(s.db, protection.metaName, wrapped) }
        }
    }

    private static func install(_ vaultKey: SymmetricKey, in s: inout State, vaultID: Data) throws(KeychainStoreError) {
        s.macCache.removeAll()
        s.recentLookups = RecentLookups()
        s.vaultKey = vaultKey
        s.keys = VaultKeys(vaultKey: vaultKey, vaultID: vaultID)
    }
}
