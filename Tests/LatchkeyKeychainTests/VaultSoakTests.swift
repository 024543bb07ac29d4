import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// SIGKILL soak: a child process runs a random mix of add / update / delete / passphrase change (the vault
/// key re-wrapped) / lock+unlock on one vault and is killed at a random moment, over and over. After every
/// kill a fresh instance must hold exactly the acknowledged state (the one operation in flight may have
/// happened or not) and open with the acknowledged passphrase — never a lost, wrong or undecodable item.
///
/// `LATCHKEY_SOAK_KILLS` sets the number of kills (default 25 in `make test`; `make soak` runs 1,000).
@Suite(.offCooperativePool) struct VaultSoakTests {
    static let childVariable = "LATCHKEY_SOAK_CHILD"
    static let service = "soak"

    /// One operation as the child announces it: `B <kind> <account> <value>` before, `A` after it returned.
    struct Operation: Equatable {
        enum Kind: String { case add, update, delete, pass, unlock }
        let kind: Kind
        let account: String
        let value: String
    }

    // MARK: Child

    /// Child mode (does nothing in a normal run): random operations until killed.
    @Test func soakChild() throws {
        let env = ProcessInfo.processInfo.environment
        guard env[Self.childVariable] == "1", let path = env["LATCHKEY_SOAK_PATH"], var passphrase = env["LATCHKEY_SOAK_PASS"],
              let seed = env["LATCHKEY_SOAK_SEED"].flatMap(UInt64.init) else { return }
        let vault = try FileVault(url: URL(fileURLWithPath: path), kdf: .testing)
        try vault.unlock(passphrase: passphrase)
        var accounts = try allItems(vault, service: Self.service).compactMap { $0.attributes?.account }
        var rng = SeededGenerator(seed: seed)
        emit("READY")
        for n in 0..<1_000_000 {
            let roll = Int.random(in: 0..<100, using: &rng)
            let tag = "\(seed)-\(n)"
            if accounts.isEmpty || roll < 40 && accounts.count < 250 {
                let account = "a-\(tag)", value = "v-\(tag)"
                emit("B add \(account) \(value)")
                try vault.add(genp(Self.service, account, value))
                accounts.append(account)
            } else if roll < 65 {
                let account = accounts.randomElement(using: &rng)!, value = "u-\(tag)"
                emit("B update \(account) \(value)")
                try vault.update(.genericPassword(service: Self.service, account: account),
                                 with: AttributeChanges(value: Data(value.utf8)))
            } else if roll < 85 {
                let index = Int.random(in: 0..<accounts.count, using: &rng)
                emit("B delete \(accounts[index]) -")
                try vault.delete(.genericPassword(service: Self.service, account: accounts[index]))
                accounts.remove(at: index)
            } else if roll < 90 {
                let next = "pw-\(tag)"
                emit("B pass - \(next)")
                try vault.setPassphrase(next)
                passphrase = next
            } else {
                emit("B unlock - -")
                vault.lock()
                try vault.unlock(passphrase: passphrase)
            }
            emit("A")
        }
    }

    private func emit(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    // MARK: Parent

    /// What the parent knows after a child was killed.
    struct Transcript {
        var acknowledged: [Operation] = []
        var inFlight: Operation?
        var ready = false
    }

    static func parse(_ text: String) -> Transcript {
        var transcript = Transcript()
        var pending: Operation?
        // Only complete lines count: the last one may have been cut by the kill.
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let parts = line.split(separator: " ").map(String.init)
            if parts == ["READY"] { transcript.ready = true }
            if parts.count == 4, parts[0] == "B", let kind = Operation.Kind(rawValue: parts[1]) {
                pending = Operation(kind: kind, account: parts[2], value: parts[3])
            }
            if parts == ["A"], let done = pending {
                transcript.acknowledged.append(done)
                pending = nil
            }
        }
        transcript.inFlight = pending
        return transcript
    }

    /// The acknowledged model: items and passphrase.
    struct Model {
        var items: [String: String] = [:]
        var passphrase = "pw-start"

        mutating func apply(_ operation: Operation) {
            switch operation.kind {
            case .add, .update: items[operation.account] = operation.value
            case .delete: items[operation.account] = nil
            case .pass: passphrase = operation.value
            case .unlock: break
            }
        }
    }

    struct Figures {
        var kills = 0
        var acknowledged = 0
        var verified = 0
        var inFlightApplied = 0
        var lost = 0
        var wrong = 0
        var undecodable = 0
    }

    static var kills: Int {
        ProcessInfo.processInfo.environment["LATCHKEY_SOAK_KILLS"].flatMap(Int.init) ?? 25
    }

    @Test func sigkillSoakLosesNothingAcknowledged() throws {
        let dir = TempDir()
        let url = dir.file("soak.vault")
        var model = Model()
        do { let v = try FileVault(url: url, kdf: .testing); try v.unlock(passphrase: model.passphrase) }
        var figures = Figures()
        var rng = SystemRandomNumberGenerator()
        let started = Date()
        for round in 0..<Self.kills {
            let seed = UInt64(round + 1) << 20 | UInt64.random(in: 0..<(1 << 20), using: &rng)
            let output = try runAndKill(path: url.path, passphrase: model.passphrase, seed: seed,
                                        delayMicroseconds: UInt32.random(in: 0...40_000, using: &rng))
            let transcript = Self.parse(output)
            try #require(transcript.ready, "round \(round): the child never started: \(output.suffix(500))")
            for operation in transcript.acknowledged { model.apply(operation) }
            figures.kills += 1
            figures.acknowledged += transcript.acknowledged.count
            try verify(url, model: &model, inFlight: transcript.inFlight, figures: &figures, round: round)
        }
        let seconds = Date().timeIntervalSince(started)
        print("soak: \(figures.kills) kills, \(figures.acknowledged) acknowledged operations, \(figures.verified) item checks, "
            + "\(figures.inFlightApplied) in-flight operations found committed, lost \(figures.lost), wrong \(figures.wrong), "
            + "undecodable \(figures.undecodable), \(String(format: "%.1f", seconds)) s")
        #expect(figures.lost == 0 && figures.wrong == 0 && figures.undecodable == 0)
        #expect(figures.acknowledged > 0)
    }

    /// Opens the vault as a new process would and compares it with the model; folds the in-flight
    /// operation into the model according to what is found.
    func verify(_ url: URL, model: inout Model, inFlight: Operation?, figures: inout Figures, round: Int) throws {
        let vault = try FileVault(url: url, kdf: .testing)
        var candidates = [model.passphrase]
        if let inFlight, inFlight.kind == .pass { candidates.append(inFlight.value) }
        var opened: String?
        for passphrase in candidates where (try? vault.unlock(passphrase: passphrase)) != nil {
            opened = passphrase
            break
        }
        guard let opened else {
            figures.lost += 1
            Issue.record("round \(round): the vault opens with neither the acknowledged nor the in-flight passphrase")
            return
        }
        if opened != model.passphrase { figures.inFlightApplied += 1 }
        model.passphrase = opened

        let rows: [QueryResult]
        do {
            rows = try allItems(vault, service: Self.service)
        } catch {
            figures.undecodable += 1
            Issue.record("round \(round): listing failed: \(error)")
            return
        }
        var found: [String: String] = [:]
        for row in rows {
            guard let account = row.attributes?.account, let data = row.data else {
                figures.undecodable += 1
                continue
            }
            found[account] = String(decoding: data, as: UTF8.self)
        }
        let ambiguous = inFlight.flatMap { $0.kind == .add || $0.kind == .update || $0.kind == .delete ? $0.account : nil }
        for (account, expected) in model.items where account != ambiguous {
            figures.verified += 1
            guard let value = found[account] else {
                figures.lost += 1
                Issue.record("round \(round): acknowledged item \(account) is missing")
                continue
            }
            if value != expected {
                figures.wrong += 1
                Issue.record("round \(round): \(account) holds \(value), expected \(expected)")
            }
        }
        for account in found.keys where model.items[account] == nil && account != ambiguous {
            figures.wrong += 1
            Issue.record("round \(round): unexpected item \(account)")
        }
        if let inFlight, let ambiguous {
            let before = model.items[ambiguous]
            let after: String? = inFlight.kind == .delete ? nil : inFlight.value
            let actual = found[ambiguous]
            if actual == after, actual != before { figures.inFlightApplied += 1 }
            if actual != before && actual != after {
                figures.wrong += 1
                Issue.record("round \(round): in-flight \(inFlight.kind) left \(ambiguous) = \(actual ?? "nil")")
            }
            model.items[ambiguous] = actual
        }
    }

    /// Starts the child, waits until it is working plus `delayMicroseconds`, SIGKILLs it, returns its output.
    func runAndKill(path: String, passphrase: String, seed: UInt64, delayMicroseconds: UInt32) throws -> String {
        let (process, pipe) = try spawnTestChild(filter: "VaultSoakTests/soakChild", environment: [
            Self.childVariable: "1", "LATCHKEY_SOAK_PATH": path, "LATCHKEY_SOAK_PASS": passphrase,
            "LATCHKEY_SOAK_SEED": String(seed),
        ])
        let fd = pipe.fileHandleForReading.fileDescriptor
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        // Wait for READY (at most 20 s), then let it work for the delay.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning, received.range(of: Data("READY\n".utf8)) == nil {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { received.append(contentsOf: buffer[0..<n]) } else { break }
        }
        usleep(delayMicroseconds)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }  // never a reaped (maybe reused) pid
        process.waitUntilExit()
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { received.append(contentsOf: buffer[0..<n]) } else { break }
        }
        return String(decoding: received, as: UTF8.self)
    }
}

/// A small deterministic generator (SplitMix64) so a child's operations follow from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
