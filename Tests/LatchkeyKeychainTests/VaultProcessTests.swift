import Foundation
import LatchkeyTestSupport
import LatchkeySupport
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// Several processes on one vault file: a writer killed with SIGKILL at random points, and concurrent writers.
/// The child is this test binary re-run with `LATCHKEY_VAULT_CHILD` set, selecting `childWriter()`.
@Suite(.offCooperativePool) struct VaultProcessTests {
    static let childEnv = "LATCHKEY_VAULT_CHILD"

    /// Child mode (does nothing in a normal run): adds `COUNT` items to the vault at `PATH`, updating every
    /// third one, and prints "ACK <i>\n" to stdout after each write returned.
    @Test func childWriter() throws {
        let env = ProcessInfo.processInfo.environment
        guard env[Self.childEnv] == "writer", let path = env["LATCHKEY_VAULT_PATH"],
              let prefix = env["LATCHKEY_VAULT_PREFIX"], let count = env["LATCHKEY_VAULT_COUNT"].flatMap(Int.init) else { return }
        let vault = try FileVault(url: URL(fileURLWithPath: path), kdf: .testing)
        try vault.unlock(passphrase: "pw")
        for i in 0..<count {
            try vault.add(genp("durable", "\(prefix)-\(i)", Self.value(prefix, i, updated: false)))
            ack("A \(i)")
            if i % 3 == 0 {
                try vault.update(.genericPassword(service: "durable", account: "\(prefix)-\(i)"),
                                 with: AttributeChanges(value: Data(Self.value(prefix, i, updated: true).utf8)))
                ack("U \(i)")
            }
        }
        ack("DONE")
    }

    static func value(_ prefix: String, _ i: Int, updated: Bool) -> String {
        (updated ? "updated-" : "value-") + "\(prefix)-\(i)-" + String(repeating: "z", count: i % 50)
    }

    func ack(_ line: String) {
        let bytes = Array("ACK \(line)\n".utf8)
        _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    /// Starts a child writer; returns the process and the pipe its acknowledgements arrive on.
    func spawn(path: String, prefix: String, count: Int) throws -> (Process, Pipe) {
        try spawnTestChild(filter: "VaultProcessTests/childWriter", environment: [
            Self.childEnv: "writer", "LATCHKEY_VAULT_PATH": path, "LATCHKEY_VAULT_PREFIX": prefix,
            "LATCHKEY_VAULT_COUNT": String(count),
        ])
    }

    /// Complete acknowledgement lines: added indices, updated indices, done.
    func parse(_ data: Data) -> (added: Set<Int>, updated: Set<Int>, done: Bool) {
        var added = Set<Int>(), updated = Set<Int>(), done = false
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let parts = line.split(separator: " ")
            guard parts.first == "ACK" else { continue }
            if parts.count == 2, parts[1] == "DONE" { done = true }
            if parts.count == 3, let i = Int(parts[2]) {
                if parts[1] == "A" { added.insert(i) } else if parts[1] == "U" { updated.insert(i) }
            }
        }
        return (added, updated, done)
    }

    @Test func sigkilledWriterLosesNoAcknowledgedItem() throws {
        let dir = TempDir()
        let url = dir.file("durable.vault")
        do { let v = try FileVault(url: url, kdf: .testing); try v.unlock(passphrase: "pw") }
        var rng = SystemRandomNumberGenerator()
        var checked = 0
        for round in 0..<6 {
            let prefix = "r\(round)"
            let (p, pipe) = try spawn(path: url.path, prefix: prefix, count: 300)
            // Let it write for a random while (reading acknowledgements as they come), then SIGKILL it.
            let deadline = Date().addingTimeInterval(Double.random(in: 0.3...1.5, using: &rng))
            var received = Data()
            let handle = pipe.fileHandleForReading
            let fd = handle.fileDescriptor
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline && p.isRunning {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 { received.append(contentsOf: buffer[0..<n]) } else { usleep(2000) }
            }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }  // never a reaped (maybe reused) pid
            p.waitUntilExit()
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 { received.append(contentsOf: buffer[0..<n]) } else { break }
            }
            let acks = parse(received)
            print("durability round \(round): \(acks.added.count) adds and \(acks.updated.count) updates acknowledged before SIGKILL, finished: \(acks.done)")
            // Every acknowledged write is there, intact, in a fresh process-like instance.
            let v = try FileVault(url: url, kdf: .testing)
            try v.unlock(passphrase: "pw")
            for i in acks.added {
                let expected = Self.value(prefix, i, updated: acks.updated.contains(i))
                let got = try read(v, "durable", "\(prefix)-\(i)")
                if acks.updated.contains(i) {
                    #expect(got == expected, "round \(round) item \(i)")
                } else {
                    // The update may have committed just before the kill without its ACK.
                    #expect(got == expected || got == Self.value(prefix, i, updated: true), "round \(round) item \(i)")
                }
                checked += 1
            }
            // No half-written item: every stored item of the round opens.
            var all = ItemQuery.genericPassword(service: "durable"); all.matchLimit = .all; all.returnData = true
            all.returnAttributes = true
            let rows = (try? v.copyMatching(all)) ?? []
            #expect(rows.allSatisfy { $0.data != nil && $0.attributes?.account != nil })
            let stored = rows.compactMap { $0.attributes?.account }.filter { $0.hasPrefix("\(prefix)-") }.count
            #expect(stored >= acks.added.count && stored <= acks.added.count + 1, "round \(round)")
        }
        #expect(checked > 0)
    }

    @Test func severalProcessesAndThreadsWriteAtOnce() async throws {
        let dir = TempDir()
        let url = dir.file("multi.vault")
        let vault = try FileVault(url: url, kdf: .testing)
        try vault.unlock(passphrase: "pw")
        // The blocking part (120 fsync'd writes on two threads, three child processes) runs on threads of its own:
        // as Swift concurrency tasks it held both cooperative threads, which every other test of the process
        // (the HTTP server's async handlers among them) was waiting on.
        let run = try await onThread { [self] () throws -> (failures: [String], children: [(status: Int32, output: Data)]) in
            let children = try (0..<3).map { try spawn(path: url.path, prefix: "p\($0)", count: 60) }
            let failures = Locked<[String]>([])
            let group = DispatchGroup()
            for t in 0..<2 {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do {
                        for i in 0..<60 { try vault.add(genp("durable", "thread\(t)-\(i)", "t\(t)-\(i)")) }
                    } catch {
                        failures.withLock { $0.append("thread \(t): \(error)") }
                    }
                }.start()
            }
            group.wait()
            let finished = children.map { process, pipe in
                let output = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return (status: process.terminationStatus, output: output)
            }
            return (failures.withLock { $0 }, finished)
        }
        #expect(run.failures.isEmpty, "\(run.failures)")
        for child in run.children {
            // On failure, the child's own test report (its error) is in its output, after the acknowledgements.
            let report = String(decoding: child.output, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("ACK") }
            #expect(child.status == 0, "\(report.suffix(12).joined(separator: "\n"))")
        }
        let outputs = run.children.map(\.output)
        for (index, out) in outputs.enumerated() {
            let acks = parse(out)
            #expect(acks.done && acks.added.count == 60, "child \(index)")
            for i in acks.added {
                #expect(try read(vault, "durable", "p\(index)-\(i)") == Self.value("p\(index)", i, updated: i % 3 == 0))
            }
        }
        var all = ItemQuery.genericPassword(service: "durable"); all.matchLimit = .all
        #expect(try vault.copyMatching(all).count == 300)
    }
}
