import Foundation
import LatchkeyTestSupport
import LatchkeyFuzzTargets
import LatchkeySupport
import Testing

/// Replays what the fuzzers found (Tests/Fuzz/Regressions/<target>/) and the seed corpora
/// (Tests/Fuzz/Corpus/<target>/) through the same entries libFuzzer calls: each input must end in success or a
/// typed parser error, never a trap, and the target's property must hold. `scripts/fuzz.sh` adds new crashers.
@Suite(.offCooperativePool) struct FuzzRegressionTests {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz", isDirectory: true)

    static func inputs(_ folder: String, _ target: FuzzTarget) -> [URL] {
        let directory = fuzzDirectory.appendingPathComponent(folder).appendingPathComponent(target.name)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { directory.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func crashersStayFixed(_ target: FuzzTarget) throws {
        for file in Self.inputs("Regressions", target) {
            let data = try Data(contentsOf: file)
            #expect(throws: Never.self, "\(target.name)/\(file.lastPathComponent)") { try target.run(data) }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsHoldTheProperty(_ target: FuzzTarget) throws {
        let files = Self.inputs("Corpus", target)
        #expect(!files.isEmpty, "Tests/Fuzz/Corpus/\(target.name) has no seeds")
        for file in files {
            let data = try Data(contentsOf: file)
            #expect(throws: Never.self, "\(target.name)/\(file.lastPathComponent)") { try target.run(data) }
        }
    }

    @Test func freshSeedsHoldTheProperty() throws {
        for target in FuzzTarget.allCases {
            for (index, seed) in target.seeds().enumerated() {
                #expect(throws: Never.self, "\(target.name) seed \(index)") { try target.run(seed) }
            }
        }
    }

    /// The relying-party harness of the `attestation` target returns only once its task has ended (issue 35): what the
    /// task runs after its result is ready has run by then. It used to return at the result, so libFuzzer's leak check
    /// could run while the task still held the registration's buffers (reported as leaks on a busy machine).
    @Test func theRelyingPartyHarnessReturnsOnceItsTaskHasEnded() {
        let ended = Locked(false)
        let outcome = RelyingPartyHarness.blocking({ 1 }, tail: {
            usleep(200_000) // a task slow to end, as on a busy machine
            ended.withLock { $0 = true }
        })
        #expect(ended.withLock { $0 })
        #expect((try? outcome.get()) == 1)
    }

    @Test func regressionsExistForTheFixedFindings() {
        #expect(!Self.inputs("Regressions", .attestation).isEmpty)
        #expect(!Self.inputs("Regressions", .cbor).isEmpty)
        #expect(!Self.inputs("Regressions", .jwt).isEmpty)
        #expect(!Self.inputs("Regressions", .clientData).isEmpty)
    }
}
