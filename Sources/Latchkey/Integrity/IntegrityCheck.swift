import Foundation

/// Looks for signs that the process holding secrets is being inspected or tampered with.
///
/// On Linux: a tracer attached (`TracerPid`), `LD_PRELOAD` / `LD_AUDIT`, instrumentation libraries mapped
/// (`/proc/self/maps`), running as root, core dumps enabled. On Apple platforms a debugger is seen through `sysctl`
/// (`P_TRACED` in the process's `kinfo_proc`), and on iOS, additionally, the usual jailbreak signals
/// (see `JailbreakEvidence`). The check only reports; what to do is the app's policy (`IntegrityPolicy`).
///
/// ```swift
/// let report = IntegrityCheck().run()
/// if report.response(under: .standard) >= .restrict { disableBiometricShortcut() }
/// ```
public struct IntegrityCheck: Sendable {
    /// What the check looks for.
    public struct Configuration: Sendable, Hashable {
        /// Case-insensitive substrings of a mapped library's file name that mark it as instrumentation.
        public var suspiciousLibraryPatterns: [String]
        /// Signals not to report at all (e.g. `.runningAsRoot` in a container that always runs as root).
        public var ignoredSignals: Set<IntegrityFinding.Signal>

        /// Creates a configuration.
        public init(suspiciousLibraryPatterns: [String] = Configuration.defaultLibraryPatterns,
                    ignoredSignals: Set<IntegrityFinding.Signal> = []) {
            self.suspiciousLibraryPatterns = suspiciousLibraryPatterns
            self.ignoredSignals = ignoredSignals
        }

        /// frida-agent, frida-gadget, libinject..., and the common tweak/hooking frameworks.
        public static let defaultLibraryPatterns = [
            "frida-agent", "frida-gadget", "libfrida", "gum-js", "libinject", "substrate", "libsubstitute",
            "tweakinject", "cycript", "libhooker", "sslkillswitch", "libxposed",
        ]
    }

    /// What the check looks for.
    public var configuration: Configuration

    /// Creates a check.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Checks the calling process (and, on iOS, the device; `urlSchemes` checks package-manager URL schemes).
    public func run(urlSchemes: (any URLSchemeChecker)? = nil) -> IntegrityReport {
        var findings = evaluate(ProcessSnapshot.current()).findings
        #if os(iOS)
        findings += evaluate(JailbreakEvidence.gather(schemes: urlSchemes)).findings
        #endif
        return IntegrityReport(findings: findings.filter { !configuration.ignoredSignals.contains($0.signal) })
    }

    /// Turns process facts into findings. Pure: the same snapshot always gives the same report.
    public func evaluate(_ snapshot: ProcessSnapshot) -> IntegrityReport {
        var findings: [IntegrityFinding] = []
        if let tracer = snapshot.tracerPID, tracer != 0 {
            findings.append(.init(signal: .debuggerAttached, severity: .critical, detail: "TracerPid \(tracer)"))
        }
        if snapshot.isTraced == true {
            findings.append(.init(signal: .debuggerAttached, severity: .critical, detail: "P_TRACED"))
        }
        if let preload = snapshot.environment["LD_PRELOAD"], !preload.isEmpty {
            findings.append(.init(signal: .preloadEnvironment, severity: .warning, detail: "LD_PRELOAD=\(preload)"))
        }
        if let audit = snapshot.environment["LD_AUDIT"], !audit.isEmpty {
            findings.append(.init(signal: .auditEnvironment, severity: .warning, detail: "LD_AUDIT=\(audit)"))
        }
        for path in snapshot.mappedPaths where matchesSuspiciousPattern(path) {
            findings.append(.init(signal: .injectedLibrary, severity: .critical, detail: path))
        }
        if snapshot.effectiveUserID == 0 {
            findings.append(.init(signal: .runningAsRoot, severity: .warning, detail: "euid 0"))
        }
        if snapshot.isDumpable != false, let limit = snapshot.coreDumpLimit, limit > 0 {
            let shown = limit == UInt64.max ? "unlimited" : "\(limit)"
            findings.append(.init(signal: .coreDumpsEnabled, severity: .warning, detail: "RLIMIT_CORE \(shown)"))
        } else if snapshot.isDumpable == true {
            findings.append(.init(signal: .processDumpable, severity: .info, detail: "PR_GET_DUMPABLE 1"))
        }
        return IntegrityReport(findings: findings.filter { !configuration.ignoredSignals.contains($0.signal) })
    }

    /// Turns jailbreak evidence into findings. Pure and portable; the evidence is gathered on iOS only.
    public func evaluate(_ evidence: JailbreakEvidence) -> IntegrityReport {
        var findings: [IntegrityFinding] = []
        for path in evidence.existingJailbreakFiles {
            findings.append(.init(signal: .jailbreakFile, severity: .critical, detail: path))
        }
        for scheme in evidence.openableSchemes {
            findings.append(.init(signal: .jailbreakURLScheme, severity: .critical, detail: "\(scheme)://"))
        }
        for path in evidence.writableSystemPaths {
            findings.append(.init(signal: .writableSystemPath, severity: .critical, detail: path))
        }
        for image in evidence.loadedImages where matchesSuspiciousPattern(image) {
            findings.append(.init(signal: .suspiciousDylib, severity: .critical, detail: image))
        }
        if evidence.forkSucceeded {
            findings.append(.init(signal: .forkAllowed, severity: .warning, detail: "fork() succeeded"))
        }
        return IntegrityReport(findings: findings.filter { !configuration.ignoredSignals.contains($0.signal) })
    }

    /// Turns core dumps off for this process: `RLIMIT_CORE` 0 and, on Linux, `PR_SET_DUMPABLE` 0
    /// (which also stops other processes of the same user from attaching with ptrace).
    public static func disableCoreDumps() throws(IntegrityError) {
        if let code = CoreDumpControl.setLimitZero() { throw .coreDumpControlFailed(errno: code) }
        if let code = CoreDumpControl.clearDumpable() { throw .coreDumpControlFailed(errno: code) }
    }

    private func matchesSuspiciousPattern(_ path: String) -> Bool {
        let name = (path.split(separator: "/").last.map(String.init) ?? path).lowercased()
        return configuration.suspiciousLibraryPatterns.contains { !$0.isEmpty && name.contains($0.lowercased()) }
    }
}
