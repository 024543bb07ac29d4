import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyAuth
@testable import LatchkeyAuthCore
@testable import LatchkeyAuthLinux

@Suite("Simulator control file", .offCooperativePool)
struct SimulatorStateFileTests {
    @Test func twoInstancesShareOneDevice() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        let other = SimulatedAuthenticator(stateURL: fixture.simulator.stateURL)
        try other.enqueue(.match)
        try await fixture.context().evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: "t")
        #expect(try other.sensor().pendingOutcomes.isEmpty)
        #expect(fixture.context().domainState == other.makeContext().domainState)
        try other.enroll()
        #expect(try fixture.simulator.sensor().enrollmentGeneration == 2)
    }

    @Test func fileIsPrivateAndHoldsNoPlainPasscode() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.simulator.stateURL.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOf: fixture.simulator.stateURL, encoding: .utf8)
        // Not as a JSON value (a bare "1234" could also turn up inside base64 or a date's digits by chance).
        #expect(!text.contains("\"1234\"") && !text.contains(": 1234"))
        #expect(text.contains("\"enrolled\" : true"))
        #expect(!String(describing: try fixture.simulator.sensor()).contains("secrets"))
    }

    @Test func environmentChoosesThePath() {
        let explicit = SimulatedAuthenticator.defaultStateURL(environment: ["LATCHKEY_SIMULATOR_STATE": "/x/y.json"])
        #expect(explicit.path == "/x/y.json")
        let xdg = SimulatedAuthenticator.defaultStateURL(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
        #expect(xdg.path == "/s/latchkey/simulator.json")
        let home = SimulatedAuthenticator.defaultStateURL(environment: ["HOME": "/h"])
        #expect(home.path == "/h/.local/state/latchkey/simulator.json")
    }

    @Test func corruptFileIsReportedNotCrashed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let url = directory.url.appendingPathComponent("bad.json")
        try Data("{not json".utf8).write(to: url)
        let simulator = SimulatedAuthenticator(stateURL: url)
        #expect(throws: SimulatorError.stateFile(.corrupt(path: url.path))) { try simulator.enroll() }
        #expect(syncAuthError { try simulator.makeContext().canEvaluate(.deviceOwnerAuthentication) } == .biometryNotAvailable)
    }

    @Test func concurrentUpdatesAreNotLost() async throws {
        let fixture = try SimulatorFixture()
        defer { fixture.cleanUp() }
        let url = fixture.simulator.stateURL
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let simulator = SimulatedAuthenticator(stateURL: url)
                    for _ in 0..<10 { try? simulator.enqueue(.match) }
                }
            }
        }
        #expect(try fixture.simulator.sensor().pendingOutcomes.count == 40)
    }
}
