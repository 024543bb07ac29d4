import Foundation
import LatchkeyPowercut
import LatchkeyTestSupport
import Testing

/// Simulated power cuts inside every store's operations (docs/RELIABILITY.md, "Power cuts"): a short run here
/// (`POWERCUT_CUTS` cuts per store, 40 by default), the full one in `make powercut`. The lines printed are the ones
/// `scripts/powercut.sh` collects.
@Suite(.serialized, .offCooperativePool) struct PowercutTests {
    static var stores: [String] {
        PowercutStores.selected(ProcessInfo.processInfo.environment["POWERCUT_STORES"]).map(\.name)
    }

    @Test(arguments: stores)
    func nothingAcknowledgedIsLost(_ name: String) throws {
        let store = try #require(PowercutStores.all.first { $0.name == name }).make()
        let run = PowercutRun.fromEnvironment(defaultCuts: 40)
        let tally = try run.run(store)
        print(PowercutRun.line(store, tally))
        #expect(tally.cuts == run.cuts)
        #expect(tally.passed, "\(tally.failures.prefix(5).joined(separator: "\n"))")
        #expect(tally.acknowledged > 0)
    }

    /// The simulator is not a no-op: with every fsync of the code under test ignored, the same kind of run loses
    /// acknowledged operations in every store (so each store's check would see a loss), and its line says so.
    @Test(arguments: stores) func fsyncAsANoOpLosesAcknowledgedOperations(_ name: String) throws {
        let store = try #require(PowercutStores.all.first { $0.name == name }).make()
        var run = PowercutRun.fromEnvironment(defaultCuts: 60)
        run.cuts = 60
        run.syncsIgnored = true
        run.printFailures = false
        let tally = try run.run(store)
        let line = PowercutRun.line(store, tally, syncsIgnored: true)
        print(line)
        if ProcessInfo.processInfo.environment["POWERCUT_VERBOSE"] != nil { tally.failures.forEach { print($0) } }
        #expect(tally.lost > 0)
        #expect(!line.contains(" 0 lost"))
    }
}
