import Foundation
import Latchkey
import LatchkeyAuth
import LatchkeySupport
import Testing

private final class WipeCounter: Sendable {
    private let count = Locked(0)
    private let failNext = Locked(false)
    var wipes: Int { count.withLock { $0 } }
    func failOnce() { failNext.withLock { $0 = true } }
    func wipe() throws {
        if failNext.withLock({ let fail = $0; $0 = false; return fail }) { throw CocoaError(.fileWriteUnknown) }
        count.withLock { $0 += 1 }
    }
}

private struct ChangeFixture {
    let directory: URL
    let simulator: SimulatedAuthenticator
    let counter = WipeCounter()

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-change-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        simulator = SimulatedAuthenticator(stateURL: directory.appendingPathComponent("sim.json"))
        try simulator.setPasscode(Passcode("1111"))
        try simulator.enroll()
    }

    func detector(store: any DomainStateStore) -> BiometricChangeDetector {
        let simulator = simulator
        let counter = counter
        return BiometricChangeDetector(store: store, makeContext: { simulator.makeContext() },
                                       onChange: { try counter.wipe() })
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

@Suite("BiometricChangeDetector")
struct BiometricChangeDetectorTests {
    @Test func reportsANewEnrolmentExactlyOnce() async throws {
        let fixture = try ChangeFixture()
        defer { fixture.cleanUp() }
        let detector = fixture.detector(store: MemoryDomainStateStore())
        #expect(try await detector.check() == .firstCheck)
        #expect(try await detector.check() == .unchanged)
        try fixture.simulator.enroll()  // someone adds a face
        #expect(try await detector.check() == .changed)
        #expect(fixture.counter.wipes == 1)
        #expect(try await detector.check() == .unchanged)
        #expect(fixture.counter.wipes == 1)
    }

    @Test func removingBiometryIsAChange() async throws {
        let fixture = try ChangeFixture()
        defer { fixture.cleanUp() }
        let detector = fixture.detector(store: MemoryDomainStateStore())
        _ = try await detector.check()
        try fixture.simulator.unenroll()
        #expect(try await detector.check() == .changed)
        #expect(try await detector.check() == .unchanged)
    }

    @Test func failedWipeIsReportedAgain() async throws {
        let fixture = try ChangeFixture()
        defer { fixture.cleanUp() }
        let detector = fixture.detector(store: MemoryDomainStateStore())
        _ = try await detector.check()
        try fixture.simulator.enroll()
        fixture.counter.failOnce()
        await #expect(throws: BiometricChangeError.wipeFailed) { try await detector.check() }
        #expect(try await detector.check() == .changed)
        #expect(fixture.counter.wipes == 1)
    }

    @Test func fileStoreSurvivesANewDetectorAndIsPrivate() async throws {
        let fixture = try ChangeFixture()
        defer { fixture.cleanUp() }
        let store = FileDomainStateStore(url: fixture.directory.appendingPathComponent("trusted/state.json"))
        #expect(try await fixture.detector(store: store).check() == .firstCheck)
        try fixture.simulator.enroll()
        #expect(try await fixture.detector(store: store).check() == .changed)
        #expect(try await fixture.detector(store: store).check() == .unchanged)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func trustCurrentStateSkipsTheWipe() async throws {
        let fixture = try ChangeFixture()
        defer { fixture.cleanUp() }
        let detector = fixture.detector(store: MemoryDomainStateStore())
        _ = try await detector.check()
        try fixture.simulator.enroll()
        try await detector.trustCurrentState()
        #expect(try await detector.check() == .unchanged)
        #expect(fixture.counter.wipes == 0)
    }

    @Test func damagedStoreIsAnError() async throws {
        let fixture = try ChangeFixture()
        defer { fixture.cleanUp() }
        let url = fixture.directory.appendingPathComponent("bad.json")
        try Data("garbage".utf8).write(to: url)
        let detector = fixture.detector(store: FileDomainStateStore(url: url))
        await #expect(throws: BiometricChangeError.store(.unreadable(path: url.path))) { try await detector.check() }
    }
}
