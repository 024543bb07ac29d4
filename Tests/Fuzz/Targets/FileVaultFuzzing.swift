import Foundation
import LatchkeyCrypto
import LatchkeyKeychain

/// `FileVault` opening a damaged vault file, opened with a fixed wrapping key, unlocked, read in full and
/// written to. An input that starts like an SQLite file (or is empty) is the whole file (seeds are real vaults);
/// any other input is a list of column and meta-row overwrites `VaultFileEditor` applies to a real vault. Every item the seeds hold has
/// the value `FileVaultFuzzing.value(for:)`, so the property is the vault's promise: whatever a damaged
/// vault answers, an item it returns has its own value (never a silently wrong one), and an item it
/// accepts reads back unchanged. Refusals are `KeychainStoreError`s (typed by the API).
enum FileVaultFuzzing {
    /// A provider with one fixed wrapping key for every vault (the fuzzer cannot know a random one).
    final class FixedKeyProvider: VaultKeyProvider {
        let key = SymmetricKey(data: Data(repeating: 0x5a, count: 32))
        var name: String { "fuzz" }
        func wrappingKey(for vaultID: Data, create: Bool) throws(KeychainStoreError) -> SymmetricKey? { key }
        func deleteWrappingKey(for vaultID: Data) throws(KeychainStoreError) {}
    }

    static let provider = FixedKeyProvider()

    /// A private directory for the vault files (tmpfs when there is one: no disk writes per input).
    static let directory: URL = {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm")
            : FileManager.default.temporaryDirectory
        let dir = base.appendingPathComponent("latchkey-fuzz-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        return dir
    }()

    /// The value every item a seed holds has, derived from its names.
    static func value(for attributes: ItemAttributes) -> Data {
        let host = attributes.service ?? attributes.server ?? attributes.values[.applicationTag].map { "\($0)" } ?? "-"
        return Data("value of \(attributes.itemClass.rawValue)/\(host)/\(attributes.account ?? "-")".utf8)
    }

    static func run(_ data: Data) throws(FuzzPropertyViolation) {
        let url = directory.appendingPathComponent("fuzz.vault")
        remove(url)
        defer { remove(url) }
        if data.isEmpty || data.starts(with: sqliteHeader.prefix(data.count)) {
            guard FileManager.default.createFile(atPath: url.path, contents: data) else { return }
        } else {
            guard let base = baseVault, FileManager.default.createFile(atPath: url.path, contents: base) else { return }
            var input = FuzzInput(data)
            guard VaultFileEditor.apply(&input, to: url.path) else { return }
        }
        try exercise(url)
    }

    static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)

    /// The largest seed vault, the starting point of the edit inputs (made once per process).
    static let baseVault: Data? = vaultSeeds().max { $0.count < $1.count }

    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(url.path + suffix) }
    }

    static func exercise(_ url: URL) throws(FuzzPropertyViolation) {
        guard let vault = try? FileVault(url: url, keyProvider: provider, kdf: .testing) else { return }
        _ = vault.protections
        guard (try? vault.unlock()) != nil else { return }
        for itemClass in ItemClass.allCases {
            var query = ItemQuery(itemClass: itemClass, synchronizable: .any, matchLimit: .all)
            query.returnAttributes = true
            query.returnData = true
            query.authenticationUI = .skip
            guard let results = try? vault.copyMatching(query) else { continue }
            for result in results {
                guard let attributes = result.attributes, let value = result.data else {
                    throw FuzzPropertyViolation(.fileVault, "a result without the attributes or data asked for")
                }
                try require(value == Self.value(for: attributes), .fileVault, "a damaged vault returned a wrong value")
            }
        }
        // Writes on the damaged file: an accepted item reads back as written.
        let item = Item.genericPassword(service: "fuzz", account: "written", value: Data("written".utf8))
        guard (try? vault.add(item, authenticationContext: nil)) != nil else { return }
        var query = ItemQuery(itemClass: .genericPassword, filters: [.service: .string("fuzz"), .account: .string("written")])
        query.returnData = true
        if let read = try? vault.copyMatching(query) {
            try require(read.first?.data == item.value, .fileVault, "an item added to a damaged vault reads back wrong")
        }
        _ = try? vault.delete(query)
    }

    /// The real vaults, then edit lists: a wrong accessibility class, an integer class, a short uid, a kdf blob
    /// under the passphrase slot, a deleted format row, swapped lookup columns.
    static func seeds() -> [Data] {
        var seeds = vaultSeeds()
        func edits(_ build: (inout FuzzInputWriter) -> Void) -> Data {
            var w = FuzzInputWriter()
            build(&w)
            return w.data
        }
        func column(_ name: String) -> UInt8 { UInt8(VaultFileEditor.itemColumns.firstIndex(of: name) ?? 0) }
        seeds.append(edits { w in w.byte(0); w.byte(0); w.byte(column("pdmn")); w.byte(0); w.byte(1); w.string("zz") })
        seeds.append(edits { w in w.byte(0); w.byte(0); w.byte(column("class")); w.byte(1); w.byte(2); w.uint64(7) })
        seeds.append(edits { w in w.byte(0); w.byte(0); w.byte(column("uid")); w.byte(2); w.byte(0); w.data(Data([1, 2, 3])) })
        seeds.append(edits { w in
            w.byte(0); w.byte(2); w.byte(3); w.byte(0)
            w.data(Data([1] + [UInt8](repeating: 0, count: 7) + [8] + [UInt8](repeating: 0, count: 7) + [1, 0, 0, 0, 16]))
        })
        seeds.append(edits { w in w.byte(0); w.byte(3); w.byte(0) })
        seeds.append(edits { w in
            w.byte(1); w.byte(0); w.byte(column("lookup")); w.byte(0); w.byte(0); w.data(Data(count: 32))
            w.byte(0); w.byte(column("sync")); w.byte(1); w.byte(0); w.data(Data("x".utf8))
        })
        return seeds
    }

    /// Real vaults: generic and internet passwords in several accessibility classes, and a key.
    static func vaultSeeds() -> [Data] {
        var seeds: [Data] = []
        for variant in 0..<3 {
            let url = directory.appendingPathComponent("seed-\(variant).vault")
            remove(url)
            defer { remove(url) }
            do {
                let vault = try FileVault(url: url, keyProvider: provider, kdf: .testing)
                try vault.unlock()
                var items: [Item] = []
                for index in 0..<(1 + variant * 3) {
                    var a = ItemAttributes(itemClass: .genericPassword,
                                           accessibility: index % 2 == 0 ? .whenUnlocked : .afterFirstUnlockThisDeviceOnly)
                    a.service = "service-\(index % 3)"
                    a.account = "account-\(index)"
                    a.values[.label] = .string("label \(index)")
                    items.append(Item(attributes: a, value: value(for: a)))
                }
                if variant > 0 {
                    var a = ItemAttributes(itemClass: .internetPassword)
                    a.server = "example.com"
                    a.account = "alice"
                    a.values[.port] = .int(443)
                    items.append(Item(attributes: a, value: value(for: a)))
                    var k = ItemAttributes(itemClass: .key)
                    k.values[.applicationTag] = .data(Data("tag".utf8))
                    items.append(Item(attributes: k, value: value(for: k)))
                }
                try vault.addAll(items)
                if variant == 2 {
                    var query = ItemQuery(itemClass: .genericPassword, filters: [.account: .string("account-1")])
                    query.matchLimit = .all
                    try vault.delete(query)
                }
            } catch {
                continue
            }
            if let bytes = FileManager.default.contents(atPath: url.path) { seeds.append(bytes) }
        }
        return seeds
    }
}
