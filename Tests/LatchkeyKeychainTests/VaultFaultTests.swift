import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// Torn writes and damaged files: a vault snapshot (main file + WAL, as a crash leaves them) is cut and
/// flipped at random places and opened again. Whatever the damage, a read never returns a wrong value: the
/// vault opens with every item intact, or refuses (errSecDecode) and leaves the damaged file as it was, or
/// (SQLite checks pages, not row contents: a flipped lookup MAC can hide one item) shows fewer items.
///
/// `LATCHKEY_TORN_TRIALS` sets the trials per kind (default 40; `make soak` runs 500).
@Suite(.offCooperativePool) struct VaultFaultTests {
    static let service = "torn"
    static var trials: Int { ProcessInfo.processInfo.environment["LATCHKEY_TORN_TRIALS"].flatMap(Int.init) ?? 40 }

    enum Damage: String, CaseIterable {
        /// Garbage or a partial frame after the last commit of the WAL: a transaction torn while being written.
        case tornWALTail = "torn WAL tail"
        /// The WAL cut at a random offset.
        case truncatedWAL = "truncated WAL"
        /// The main file cut at a random offset.
        case truncatedMain = "truncated main file"
        /// 1–8 random bytes flipped in the main file.
        case flippedMain = "flipped bytes in main file"
        /// 1–8 random bytes flipped in the WAL.
        case flippedWAL = "flipped bytes in WAL"
    }

    struct Outcome {
        var intact = 0
        var refused = 0
        var failedAfterOpen = 0
        var fewer = 0
        var wrong = 0
        var untouchedAfterRefusal = 0
    }

    /// A vault whose items are split between the main file and the WAL, copied while its writer is still
    /// open (the state a crash leaves): returns the copy's directory and the expected items.
    func snapshot(_ dir: TempDir) throws -> (main: Data, wal: Data, generation: Data, items: [String: String]) {
        let url = dir.file("source.vault")
        var items: [String: String] = [:]
        let vault = try FileVault(url: url, kdf: .testing)
        try vault.unlock(passphrase: "pw")
        for i in 0..<40 {
            let value = "value-\(i)-" + String(repeating: "x", count: i * 7)
            try vault.add(genp(Self.service, "acct-\(i)", value))
            items["acct-\(i)"] = value
        }
        // Force the first items into the main file, keep the rest in the WAL.
        try vault.state.withLock { (s: inout FileVault.State) throws(KeychainStoreError) in
            try s.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        for i in 40..<60 {
            let value = "late-\(i)"
            try vault.add(genp(Self.service, "acct-\(i)", value))
            items["acct-\(i)"] = value
        }
        for i in stride(from: 0, to: 60, by: 5) {
            try vault.update(.genericPassword(service: Self.service, account: "acct-\(i)"),
                             with: AttributeChanges(value: Data("updated-\(i)".utf8)))
            items["acct-\(i)"] = "updated-\(i)"
        }
        let main = try Data(contentsOf: url)
        let wal = try Data(contentsOf: URL(fileURLWithPath: url.path + "-wal"))
        let generation = try Data(contentsOf: URL(fileURLWithPath: url.path + ".generation"))
        withExtendedLifetime(vault) {}
        return (main, wal, generation, items)
    }

    @Test func damagedFilesNeverGiveAWrongValue() throws {
        let dir = TempDir()
        let (main, wal, generation, items) = try snapshot(dir)
        #expect(wal.count > 32, "the snapshot has committed frames in its WAL")
        var rng = SystemRandomNumberGenerator()
        var outcomes: [Damage: Outcome] = [:]
        for damage in Damage.allCases {
            var outcome = Outcome()
            for trial in 0..<Self.trials {
                var damagedMain = main, damagedWAL = wal
                switch damage {
                case .tornWALTail:
                    if Bool.random(using: &rng) {
                        damagedWAL.append(contentsOf: (0..<Int.random(in: 1...8192, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
                    } else {
                        // A copy of a frame, cut short: what a write torn by power loss leaves.
                        let frame = 24 + 4096
                        let start = 32 + frame * Int.random(in: 0..<max(1, (wal.count - 32) / frame), using: &rng)
                        let piece = wal[start..<min(wal.count, start + Int.random(in: 1..<frame, using: &rng))]
                        damagedWAL.append(piece)
                    }
                case .truncatedWAL:
                    damagedWAL = wal.prefix(Int.random(in: 0..<wal.count, using: &rng))
                case .truncatedMain:
                    damagedMain = main.prefix(Int.random(in: 0..<main.count, using: &rng))
                case .flippedMain:
                    flip(&damagedMain, count: Int.random(in: 1...8, using: &rng), using: &rng)
                case .flippedWAL:
                    flip(&damagedWAL, count: Int.random(in: 1...8, using: &rng), using: &rng)
                }
                let trialURL = dir.file("trial-\(damage.hashValue)-\(trial).vault")
                try damagedMain.write(to: trialURL)
                try damagedWAL.write(to: URL(fileURLWithPath: trialURL.path + "-wal"))
                try generation.write(to: URL(fileURLWithPath: trialURL.path + ".generation"))
                check(trialURL, expected: items, into: &outcome, damage: damage)
                for suffix in ["", "-wal", "-shm", ".generation"] { try? FileManager.default.removeItem(atPath: trialURL.path + suffix) }
            }
            outcomes[damage] = outcome
            print("torn writes: \(damage.rawValue): \(Self.trials) trials, intact \(outcome.intact), refused at open \(outcome.refused) "
                + "(file untouched \(outcome.untouchedAfterRefusal)), refused at read \(outcome.failedAfterOpen), "
                + "fewer items \(outcome.fewer), wrong \(outcome.wrong)")
            #expect(outcome.wrong == 0, "\(damage.rawValue)")
            #expect(outcome.untouchedAfterRefusal == outcome.refused, "\(damage.rawValue): a refused file is left as it was")
        }
        #expect(outcomes[.tornWALTail]?.intact == Self.trials, "a torn tail never costs an acknowledged item")
    }

    /// Opens the damaged vault and classifies what it shows.
    func check(_ url: URL, expected: [String: String], into outcome: inout Outcome, damage: Damage) {
        let before = (try? Data(contentsOf: url)) ?? Data()
        let beforeWAL = (try? Data(contentsOf: URL(fileURLWithPath: url.path + "-wal"))) ?? Data()
        func refused() {
            outcome.refused += 1
            let after = (try? Data(contentsOf: url)) ?? Data()
            let afterWAL = (try? Data(contentsOf: URL(fileURLWithPath: url.path + "-wal"))) ?? Data()
            if after == before && afterWAL == beforeWAL { outcome.untouchedAfterRefusal += 1 }
        }
        let vault: FileVault
        do {
            vault = try FileVault(url: url, kdf: .testing)
        } catch let error where error.status == .decode {
            refused()
            return
        } catch {
            outcome.wrong += 1
            Issue.record("\(damage.rawValue): unexpected error at open \(error)")
            return
        }
        let found: [String: String]
        do {
            try vault.unlock(passphrase: "pw")
            var rows: [String: String] = [:]
            for row in try allItems(vault, service: Self.service) {
                guard let account = row.attributes?.account, let data = row.data else { throw KeychainStoreError(.decode) }
                rows[account] = String(decoding: data, as: UTF8.self)
            }
            // Each item read alone, too: the lookup path (MACs) must agree with the listing.
            for (account, value) in rows where try read(vault, Self.service, account) != value {
                outcome.wrong += 1
            }
            found = rows
        } catch let error as KeychainStoreError where error.status == .decode || error.status == .authFailed
            || error.status == .io {
            // Opened, but an item (errSecDecode) or the wrapped vault key (errSecAuthFailed) fails its
            // authentication: refused at read time. The file was opened normally, so SQLite may checkpoint it.
            outcome.failedAfterOpen += 1
            return
        } catch {
            outcome.wrong += 1
            Issue.record("\(damage.rawValue): unexpected error \(error)")
            return
        }
        var missing = 0
        for (account, value) in found where expected[account] != value {
            outcome.wrong += 1
            Issue.record("\(damage.rawValue): \(account) reads \(value), expected \(expected[account] ?? "no item")")
        }
        for account in expected.keys where found[account] == nil { missing += 1 }
        if missing == 0 { outcome.intact += 1 } else { outcome.fewer += 1 }
    }

    func flip(_ data: inout Data, count: Int, using rng: inout SystemRandomNumberGenerator) {
        guard !data.isEmpty else { return }
        for _ in 0..<count {
            let index = Int.random(in: 0..<data.count, using: &rng)
            data[index] ^= UInt8.random(in: 1...255, using: &rng)
        }
    }
}

/// Disk full: a child fills a vault until the disk (a 2 MiB tmpfs where this machine allows mounting one)
/// or the file-size limit (`ulimit -f`, everywhere) refuses the next write. The write fails with a clear
/// error, every earlier item still reads back, and once space returns the vault takes writes again.
@Suite(.offCooperativePool) struct VaultDiskFullTests {
    static let childVariable = "LATCHKEY_DISKFULL_CHILD"

    /// Child mode: fill, report, wait for a line on stdin (space returns), write again, report.
    @Test func diskFullChild() throws {
        let env = ProcessInfo.processInfo.environment
        guard let path = env[Self.childVariable] else { return }
        let limit = env["LATCHKEY_DISKFULL_FSIZE"].flatMap(UInt.init)
        signal(SIGXFSZ, SIG_IGN)
        let vault = try FileVault(url: URL(fileURLWithPath: path), kdf: .testing)
        try vault.unlock(passphrase: "pw")
        if let limit {
            var rl = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t.max)
            setrlimit(Int32(RLIMIT_FSIZE.rawValue), &rl)
        }
        let blob = String(repeating: "d", count: 32 * 1024)
        var acknowledged = 0
        var failure: KeychainStoreError?
        for i in 0..<2000 {
            do {
                try vault.add(genp("full", "item-\(i)", "\(i)-\(blob)"))
                acknowledged += 1
            } catch {
                failure = error
                break
            }
        }
        var reread = 0
        for i in 0..<acknowledged where (try? read(vault, "full", "item-\(i)")) == "\(i)-\(blob)" { reread += 1 }
        let status = failure.map { "\($0.status.rawValue)" } ?? "none"
        let message = (failure?.localizedDescription ?? "").replacingOccurrences(of: "\n", with: " ")
        say("FULL acknowledged=\(acknowledged) reread=\(reread) status=\(status) message=\(message)")
        _ = Swift.readLine()
        if limit != nil {
            var rl = rlimit(rlim_cur: rlim_t.max, rlim_max: rlim_t.max)
            setrlimit(Int32(RLIMIT_FSIZE.rawValue), &rl)
        }
        let recovered = (try? vault.add(genp("full", "after", "space is back"))) != nil
        say("RECOVERED \(recovered)")
    }

    private func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    /// Runs the child on `directory`; `returnSpace` runs when the child reports FULL.
    func runChild(directory: URL, fileSizeLimit: UInt?, returnSpace: () -> Void) throws -> [String] {
        let url = directory.appendingPathComponent("full.vault")
        do { let v = try FileVault(url: url, kdf: .testing); try v.unlock(passphrase: "pw") }
        var extra = [Self.childVariable: url.path]
        if let fileSizeLimit { extra["LATCHKEY_DISKFULL_FSIZE"] = String(fileSizeLimit) }
        let stdin = Pipe()
        let (process, stdout) = try spawnTestChild(filter: "VaultDiskFullTests/diskFullChild", environment: extra, stdin: stdin)
        var lines: [String] = []
        var pending = Data()
        let handle = stdout.fileHandleForReading
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if line.hasPrefix("FULL ") {
                    lines.append(line)
                    returnSpace()
                    stdin.fileHandleForWriting.write(Data("go\n".utf8))
                } else if line.hasPrefix("RECOVERED ") {
                    lines.append(line)
                }
            }
        }
        process.waitUntilExit()
        // A new instance (as after a restart) sees every acknowledged item and the one written afterwards.
        let vault = try FileVault(url: url, kdf: .testing)
        try vault.unlock(passphrase: "pw")
        lines.append("REOPENED \(try allItems(vault, service: "full").count)")
        return lines
    }

    func field(_ line: String?, _ name: String) -> String? {
        line?.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    func expectClearFailure(_ lines: [String], kind: String) {
        let full = lines.first { $0.hasPrefix("FULL ") }
        let acknowledged = field(full, "acknowledged").flatMap(Int.init) ?? -1
        print("disk full (\(kind)): \(lines.joined(separator: " | "))")
        #expect(acknowledged > 0, "\(kind): something was written before the disk filled")
        #expect(field(full, "reread").flatMap(Int.init) == acknowledged, "\(kind): every earlier item reads back")
        #expect(field(full, "status") != "none", "\(kind): the write beyond the limit failed")
        #expect(full?.contains("not saved") == true, "\(kind): the message says what happened: \(full ?? "")")
        #expect(lines.contains("RECOVERED true"), "\(kind): writes work again once space returns")
        #expect(lines.last == "REOPENED \(acknowledged + 1)", "\(kind): nothing earlier was lost")
    }

    @Test func fileSizeLimitFailsClearlyAndRecovers() throws {
        let dir = TempDir()
        let lines = try runChild(directory: dir.url, fileSizeLimit: 1 << 20) {}
        expectClearFailure(lines, kind: "ulimit -f 1 MiB")
    }

    @Test func fullTmpfsFailsClearlyAndRecovers() throws {
        let dir = TempDir()
        let mountPoint = dir.file("tmpfs")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", mountPoint.path]) else {
            if ProcessInfo.processInfo.environment["LATCHKEY_REQUIRE_SERVICES"] == "1", getuid() == 0 {
                Issue.record("root but tmpfs cannot be mounted here")
            }
            return
        }
        defer { _ = run("/bin/umount", ["-l", mountPoint.path]) }
        let lines = try runChild(directory: mountPoint, fileSizeLimit: nil) {
            _ = run("/bin/mount", ["-o", "remount,size=16m", mountPoint.path])
        }
        expectClearFailure(lines, kind: "2 MiB tmpfs")
        #expect(field(lines.first, "status") == "\(KeychainStatus.diskFull.rawValue)", "ENOSPC is errSecDiskFull")
    }

    func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
