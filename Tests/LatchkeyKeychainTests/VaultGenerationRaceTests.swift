import Foundation
import LatchkeyTestSupport
import LatchkeySupport
import Testing
@testable import LatchkeyKeychain
@testable import LatchkeyKeychainCore
@testable import LatchkeyKeychainLinux

/// Rollback detection must not mistake a busy vault for a rolled-back one: a writer records its generation in
/// `<vault>.generation` just after its COMMIT, so an open that read the file's generation first and the record
/// second could see a record newer than what it had read, and refuse a healthy vault as "lost writes".
@Suite(.offCooperativePool) struct VaultGenerationRaceTests {
    final class Flags: Sendable {
        let stop = Locked<Bool>(false)
        let written = Locked<Int>(0)
    }

    @Test func opensWhileAnotherConnectionWritesAreNeverRefused() throws {
        let dir = TempDir()
        let writer = try unlockedVault(dir)
        let url = dir.file("v.vault")
        try writer.add(genp("race", "first", "v"))
        let flags = Flags()
        let thread = Thread {
            var i = 0
            while !flags.stop.withLock({ $0 }) {
                _ = try? writer.add(genp("race", "item-\(i)", "v"))
                flags.written.withLock { $0 += 1 }
                i += 1
            }
        }
        thread.start()
        defer { flags.stop.withLock { $0 = true } }
        var refusals: [String] = []
        let deadline = Date().addingTimeInterval(2)
        var opens = 0
        while Date() < deadline && refusals.isEmpty {
            do {
                _ = try FileVault(url: url, kdf: .testing)
            } catch {
                refusals.append("\(error)")
            }
            opens += 1
        }
        flags.stop.withLock { $0 = true }
        while !thread.isFinished { usleep(1_000) }
        #expect(refusals.isEmpty, "after \(opens) opens and \(flags.written.withLock { $0 }) writes: \(refusals)")
        #expect(flags.written.withLock { $0 } > 0)
    }
}
