import Foundation
import LatchkeySupport

/// Runs power-cut trials against one store and keeps the figures: `powercut <store>: <cuts> cuts, <acked>
/// acknowledged operations, <n> lost, <n> wrong, <n> in-flight found committed, <n> refused at open (file
/// untouched)`. Every failure is printed with the seed and trial that replay it.
package struct PowercutRun {
    /// Trials (one cut each).
    package var cuts: Int
    /// The run's seed (each trial's is derived from it and its number).
    package var seed: UInt64
    /// Syncs ignored: fsync as a no-op in the code under test (the run then loses acknowledged operations).
    package var syncsIgnored = false
    /// A fresh start from `prepare` every this many trials (so one-time paths, such as files created on first use,
    /// are cut again).
    package var freshStartEvery = 40
    /// Print each failure as it is found.
    package var printFailures = true

    package init(cuts: Int, seed: UInt64) {
        self.cuts = cuts
        self.seed = seed
    }

    /// `POWERCUT_CUTS` (cuts per store) and `POWERCUT_SEED` (decimal or 0x…) from the environment, else the defaults.
    package static func fromEnvironment(defaultCuts: Int) -> PowercutRun {
        let env = ProcessInfo.processInfo.environment
        let cuts = env["POWERCUT_CUTS"].flatMap { Int($0) } ?? defaultCuts
        var seed = UInt64(truncatingIfNeeded: Int(Date().timeIntervalSince1970 * 1000))
        if let text = env["POWERCUT_SEED"] {
            seed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) ?? seed : UInt64(text) ?? seed
        }
        return PowercutRun(cuts: max(cuts, 0), seed: seed)
    }

    /// The line of a finished run.
    package static func line(_ store: any PowercutStore, _ t: PowercutTally, syncsIgnored: Bool = false) -> String {
        let name = syncsIgnored ? "\(store.name) (fsync a no-op)" : store.name
        let untouched = t.refusedTouched == 0 ? "file untouched" : "\(t.refusedTouched) FILES CHANGED"
        var line = "powercut \(name): \(t.cuts) cuts, \(t.acknowledged) acknowledged operations, \(t.lost) lost, "
            + "\(t.wrong) wrong, \(t.inFlightCommitted) in-flight found committed, \(t.refusedAtOpen) refused at open (\(untouched))"
        let extra = store.summary(t)
        if !extra.isEmpty { line += "; " + extra }
        if t.unexpected > 0 { line += "; \(t.unexpected) UNEXPECTED" }
        return line
    }

    /// Runs the trials in a fresh directory (removed afterwards) and returns the figures.
    package func run(_ store: any PowercutStore) throws -> PowercutTally {
        try PowercutSimulator.install()
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var tally = PowercutTally()
        let spans = Locked<[String: Int]>([:])
        try start(store, in: directory, fresh: false, &tally, spans)
        defer {
            store.close()
            PowercutSimulator.ignoreSyncs(false)
            PowercutSimulator.end()
        }
        for number in 0..<cuts {
            let trialSeed = PowercutRandom.derive(seed, number)
            let operation = store.operations[number % store.operations.count]
            let trial = PowercutTrial(seed: trialSeed, operation: operation, spans: spans)
            store.run(number % store.operations.count, trial)
            if !PowercutSimulator.hasCut {
                trial.learnSpan()
                PowercutSimulator.cutNow()
            }
            store.close()
            let keeps: [Int] = [0, 50, 50, 90, 100]
            let keep = keeps[trial.random(0..<keeps.count)]
            let report = try PowercutSimulator.reboot(seed: UInt64(truncatingIfNeeded: trial.random(0..<Int.max)), keepPercent: keep)
            let before = try Self.contents(of: directory)
            let outcome = store.reopen(trial)
            tally.cuts += 1
            if case .refused(let message) = outcome {
                tally.refusedAtOpen += 1
                let after = try Self.contents(of: directory)
                if after != before {
                    tally.refusedTouched += 1
                    let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted().map {
                        "\($0) (\(before[$0].map { "\($0.count) bytes" } ?? "absent") → \(after[$0].map { "\($0.count) bytes" } ?? "absent"))"
                    }
                    trial.unexpected("refusing changed \(changed.joined(separator: ", ")): \(message)")
                }
                if !store.namesRecovery(message) { trial.unexpected("the refusal names no recovery: \(message)") }
            }
            let t = trial.tally
            tally.acknowledged += t.acknowledged
            tally.lost += t.lost
            tally.wrong += t.wrong
            tally.inFlightCommitted += t.inFlightCommitted
            tally.relaxed += t.relaxed
            tally.relaxedRolledBack += t.relaxedRolledBack
            tally.unexpected += t.unexpected
            for finding in trial.findings {
                let hexSeed = String(seed, radix: 16), replayCuts = number + 1
                let failure = "powercut \(store.name): trial \(number) (\(operation); replay with POWERCUT_SEED=0x\(hexSeed) "
                    + "POWERCUT_CUTS=\(replayCuts); reboot kept \(keep)%: \(report)): \(finding)"
                tally.failures.append(failure)
                if printFailures, !syncsIgnored || tally.failures.count <= 3 { print(failure) }
            }
            switch outcome {
            case .refused, .restart:
                store.close()
                try start(store, in: directory, fresh: true, &tally, spans)
            case .checked where (number + 1) % freshStartEvery == 0:
                store.close()
                try start(store, in: directory, fresh: true, &tally, spans)
            case .checked:
                break
            }
        }
        return tally
    }

    /// Prepares the store's files and opens them (no cut: the opening must find exactly what was prepared).
    private func start(_ store: any PowercutStore, in directory: URL, fresh: Bool, _ tally: inout PowercutTally,
                       _ spans: Locked<[String: Int]>) throws {
        if fresh {
            PowercutSimulator.end()
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
        }
        PowercutSimulator.ignoreSyncs(false)
        try store.prepare(in: directory)
        try PowercutSimulator.begin(directory)
        PowercutSimulator.ignoreSyncs(syncsIgnored)
        let trial = PowercutTrial(seed: seed, operation: "open", spans: spans)
        guard case .checked = store.reopen(trial), trial.findings.isEmpty else {
            throw PowercutSimulator.Failure(description: "\(store.name): the prepared files do not open as prepared: \(trial.findings)")
        }
    }

    /// A new directory for a run, by its real path (the simulator matches paths as SQLite spells them).
    static func makeDirectory() throws -> URL {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-powercut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard let real = realpath(base.path, nil) else { throw PowercutSimulator.Failure(description: "realpath \(base.path)") }
        defer { free(real) }
        return URL(fileURLWithPath: String(cString: real), isDirectory: true)
    }

    /// Every file of the directory and its bytes.
    static func contents(of directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.hasSuffix("-shm") {
            files[name] = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
        }
        return files
    }
}
