import Foundation
import LatchkeyTestSupport
import Testing
@testable import Latchkey

/// Environment variable that turns `integrityChildReport` into the child side of these tests:
/// it names the file the child writes its report to.
private let reportPathVariable = "LATCHKEY_INTEGRITY_CHILD_REPORT"
/// When set to 1, the child calls `IntegrityCheck.disableCoreDumps()` and reports again.
private let disableCoreVariable = "LATCHKEY_INTEGRITY_CHILD_DISABLE_CORE"

/// What the child writes.
private struct ChildReport: Codable {
    var before: IntegrityReport
    var afterDisablingCoreDumps: IntegrityReport?
}

/// The child side: runs only when the parent re-runs this binary with the variable set.
@Test(.enabled(if: ProcessInfo.processInfo.environment[reportPathVariable] != nil))
func integrityChildReport() throws {
    let environment = ProcessInfo.processInfo.environment
    let path = try #require(environment[reportPathVariable])
    var child = ChildReport(before: IntegrityCheck().run())
    if environment[disableCoreVariable] == "1" {
        try IntegrityCheck.disableCoreDumps()
        child.afterDisablingCoreDumps = IntegrityCheck().run()
    }
    try JSONEncoder().encode(child).write(to: URL(fileURLWithPath: path))
}

/// Real processes: the test binary re-run under LD_PRELOAD, LD_AUDIT and strace.
/// (gdb also attaches, but loading the test binary's debug information takes minutes: strace is used.)
@Suite(.offCooperativePool) struct IntegrityCheckChildProcessTests {
    /// Runs the child test through `launcher` (e.g. strace) and returns its report.
    private func childReport(launcher: [String] = [], extraEnvironment: [String: String] = [:],
                             in directory: URL) throws -> ChildReport {
        let reportFile = directory.appendingPathComponent("report-\(UUID().uuidString).json")
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = nil
        environment["LD_AUDIT"] = nil
        environment[reportPathVariable] = reportFile.path
        environment.merge(extraEnvironment) { $1 }
        let command = launcher + [ChildProcess.testBinary] + ChildProcess.filterArguments("integrityChildReport")
        let result = try ChildProcess.run(command[0], Array(command.dropFirst()), environment: environment)
        try #require(result.status == 0, "child failed: \(result.output.suffix(2000))")
        return try JSONDecoder().decode(ChildReport.self, from: Data(contentsOf: reportFile))
    }

    private func compileFixtureLibrary(in directory: URL) throws -> String {
        let source = directory.appendingPathComponent("fixture.c")
        try InjectedLibrarySource.text.write(to: source, atomically: true, encoding: .utf8)
        let library = directory.appendingPathComponent(InjectedLibrarySource.fileName).path
        let result = try ChildProcess.run("/usr/bin/cc", ["-shared", "-fPIC", "-o", library, source.path],
                                          environment: ProcessInfo.processInfo.environment)
        try #require(result.status == 0, "cc failed: \(result.output)")
        return library
    }

    @Test func plainChildHasNoTracerOrPreload() throws {
        let directory = try ChildProcess.temporaryDirectory("integrity")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try childReport(in: directory).before
        #expect(!report.contains(.debuggerAttached))
        #expect(!report.contains(.preloadEnvironment))
        #expect(!report.contains(.injectedLibrary))
    }

    @Test func childUnderLDPreloadReportsVariableAndMappedLibrary() throws {
        let directory = try ChildProcess.temporaryDirectory("integrity")
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try compileFixtureLibrary(in: directory)
        let report = try childReport(extraEnvironment: ["LD_PRELOAD": library], in: directory).before
        #expect(report.findings(for: .preloadEnvironment).map(\.detail) == ["LD_PRELOAD=\(library)"])
        #expect(report.findings(for: .injectedLibrary).map(\.detail) == [library])
        #expect(report.findings(for: .injectedLibrary).first?.severity == .critical)
    }

    @Test func childUnderLDAuditReportsVariable() throws {
        let directory = try ChildProcess.temporaryDirectory("integrity")
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try compileFixtureLibrary(in: directory)
        let report = try childReport(extraEnvironment: ["LD_AUDIT": library], in: directory).before
        #expect(report.findings(for: .auditEnvironment).map(\.detail) == ["LD_AUDIT=\(library)"])
        #expect(report.findings(for: .injectedLibrary).map(\.detail) == [library])
    }

    @Test func childUnderStraceReportsTracer() throws {
        let directory = try ChildProcess.temporaryDirectory("integrity")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try childReport(launcher: ["/usr/bin/strace", "-f", "-o", "/dev/null"], in: directory).before
        let finding = try #require(report.findings(for: .debuggerAttached).first)
        #expect(finding.severity == .critical)
        #expect(finding.detail.hasPrefix("TracerPid "))
    }

    @Test func disableCoreDumpsClearsTheFinding() throws {
        let directory = try ChildProcess.temporaryDirectory("integrity")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The shell raises the soft core limit (the hard limit allows it here), then execs the child.
        let launcher = ["/bin/sh", "-c", "ulimit -c unlimited 2>/dev/null || ulimit -c 1024; exec \"$@\"", "sh"]
        let child = try childReport(launcher: launcher, extraEnvironment: [disableCoreVariable: "1"], in: directory)
        #expect(child.before.contains(.coreDumpsEnabled))
        let after = try #require(child.afterDisablingCoreDumps)
        #expect(!after.contains(.coreDumpsEnabled))
        #expect(!after.contains(.processDumpable))
    }
}
