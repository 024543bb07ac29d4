import Foundation
import Testing
@testable import Latchkey

/// Decision logic with synthetic facts (portable).
@Suite struct IntegrityCheckTests {
    private func snapshot(status: String? = "Name:\tx\nTracerPid:\t0\n", maps: String? = "",
                          environment: [String: String] = [:], uid: UInt32 = 1000,
                          core: UInt64? = 0, dumpable: Bool? = false) -> ProcessSnapshot {
        ProcessSnapshot(status: status, maps: maps, environment: environment, effectiveUserID: uid,
                        coreDumpLimit: core, isDumpable: dumpable)
    }

    @Test func cleanProcessGivesCleanReport() {
        let report = IntegrityCheck().evaluate(snapshot())
        #expect(report.isClean)
        #expect(report.highestSeverity == nil)
        #expect(report.response(under: .strict) == .proceed)
    }

    @Test func tracerPidIsCritical() throws {
        let report = IntegrityCheck().evaluate(snapshot(status: "State:\tS\nTracerPid:\t4242\nUid:\t0\n"))
        let finding = try #require(report.findings(for: .debuggerAttached).first)
        #expect(finding.severity == .critical)
        #expect(finding.detail == "TracerPid 4242")
    }

    @Test func preloadAndAuditVariables() {
        let report = IntegrityCheck().evaluate(snapshot(environment: ["LD_PRELOAD": "/x/a.so", "LD_AUDIT": "/x/b.so"]))
        #expect(report.findings.map(\.signal) == [.preloadEnvironment, .auditEnvironment])
        #expect(report.highestSeverity == .warning)
        // An empty variable is not a finding.
        #expect(IntegrityCheck().evaluate(snapshot(environment: ["LD_PRELOAD": ""])).isClean)
    }

    @Test func mapsParsingFindsSuspiciousLibrariesOnce() {
        let maps = """
        7f00-7f01 r-xp 00000000 08:01 1234   /usr/lib/x86_64-linux-gnu/libc.so.6
        7f01-7f02 r-xp 00000000 08:01 1235   /tmp/frida-agent-64.so
        7f02-7f03 r--p 00001000 08:01 1235   /tmp/frida-agent-64.so
        7f03-7f04 r-xp 00000000 08:01 1236   /opt/my tools/libinject helper.so (deleted)
        7f04-7f05 rw-p 00000000 00:00 0      [heap]
        7f05-7f06 rw-p 00000000 00:00 0
        """
        let snap = snapshot(maps: maps)
        #expect(snap.mappedPaths == ["/usr/lib/x86_64-linux-gnu/libc.so.6", "/tmp/frida-agent-64.so",
                                     "/opt/my tools/libinject helper.so"])
        let report = IntegrityCheck().evaluate(snap)
        #expect(report.findings(for: .injectedLibrary).map(\.detail)
                == ["/tmp/frida-agent-64.so", "/opt/my tools/libinject helper.so"])
        // Patterns are configurable: with only "libc.so" the frida library is not reported.
        let custom = IntegrityCheck(configuration: .init(suspiciousLibraryPatterns: ["LIBC.SO"]))
        #expect(custom.evaluate(snap).findings(for: .injectedLibrary).map(\.detail)
                == ["/usr/lib/x86_64-linux-gnu/libc.so.6"])
    }

    @Test func rootAndCoreDumps() {
        let report = IntegrityCheck().evaluate(snapshot(uid: 0, core: .max, dumpable: true))
        #expect(report.contains(.runningAsRoot))
        #expect(report.findings(for: .coreDumpsEnabled).first?.detail == "RLIMIT_CORE unlimited")
        #expect(!report.contains(.processDumpable))
        let dumpableOnly = IntegrityCheck().evaluate(snapshot(core: 0, dumpable: true))
        #expect(dumpableOnly.findings.map(\.signal) == [.processDumpable])
        #expect(dumpableOnly.highestSeverity == .info)
        // Not dumpable: a core limit alone produces no dump.
        #expect(IntegrityCheck().evaluate(snapshot(core: 1 << 20, dumpable: false)).isClean)
    }

    @Test func ignoredSignalsAreNotReported() {
        let check = IntegrityCheck(configuration: .init(ignoredSignals: [.runningAsRoot]))
        #expect(check.evaluate(snapshot(uid: 0)).isClean)
    }

    @Test func policiesMapSeverities() {
        let report = IntegrityReport(findings: [
            .init(signal: .runningAsRoot, severity: .warning, detail: "euid 0"),
            .init(signal: .debuggerAttached, severity: .critical, detail: "TracerPid 1"),
        ])
        #expect(report.response(under: .warnOnly) == .warn)
        #expect(report.response(under: .standard) == .restrict)
        #expect(report.response(under: .strict) == .refuse)
        var lenient = IntegrityPolicy.strict
        lenient.overrides[.debuggerAttached] = .warn
        #expect(report.response(under: lenient) == .restrict)
    }

    @Test func jailbreakEvidenceDecisions() {
        let evidence = JailbreakEvidence(
            existingJailbreakFiles: ["/Applications/Cydia.app"], openableSchemes: ["cydia"],
            writableSystemPaths: ["/private/latchkey-jailbreak-probe"],
            loadedImages: ["/usr/lib/libSystem.B.dylib", "/usr/lib/TweakInject.dylib", "/x/MobileSubstrate.dylib"],
            forkSucceeded: true)
        let report = IntegrityCheck().evaluate(evidence)
        #expect(report.findings.map(\.signal) == [.jailbreakFile, .jailbreakURLScheme, .writableSystemPath,
                                                  .suspiciousDylib, .suspiciousDylib, .forkAllowed])
        #expect(report.findings(for: .jailbreakURLScheme).first?.detail == "cydia://")
        #expect(IntegrityCheck().evaluate(JailbreakEvidence(loadedImages: ["/usr/lib/libobjc.A.dylib"])).isClean)
    }

    @Test func reportRoundTripsThroughJSON() throws {
        let report = IntegrityReport(findings: [.init(signal: .injectedLibrary, severity: .critical, detail: "/a.so")])
        let decoded = try JSONDecoder().decode(IntegrityReport.self, from: JSONEncoder().encode(report))
        #expect(decoded == report)
    }

    @Test func currentProcessSnapshotReadsProc() {
        let snap = ProcessSnapshot.current()
        #expect(snap.tracerPID != nil)
        #expect(!snap.mappedPaths.isEmpty)
        #expect(snap.coreDumpLimit != nil)
        #expect(snap.isDumpable != nil)
    }

    /// Apple platforms: a debugger shows as `P_TRACED` in the process's `kinfo_proc` flags (`sysctl`), where there is
    /// no `/proc` (before, the check read `/proc` only and saw no debugger on Darwin).
    @Test func tracedFlagMeansADebugger() {
        let traced = ProcessSnapshot(status: nil, maps: nil, environment: [:], effectiveUserID: 501, coreDumpLimit: 0,
                                     isDumpable: nil, processFlags: ProcessSnapshot.tracedFlag | 0x4)
        #expect(traced.isTraced == true)
        #expect(IntegrityCheck().evaluate(traced).findings.map(\.signal) == [.debuggerAttached])
        let clean = ProcessSnapshot(status: nil, maps: nil, environment: [:], effectiveUserID: 501, coreDumpLimit: 0,
                                    isDumpable: nil, processFlags: 0x4)
        #expect(clean.isTraced == false)
        #expect(IntegrityCheck().evaluate(clean).findings.isEmpty)
        #expect(ProcessSnapshot.current().processFlags == nil)  // Linux has TracerPid instead
    }
}
