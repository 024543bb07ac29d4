/// One thing `IntegrityCheck` noticed about the running process or the device.
public struct IntegrityFinding: Sendable, Hashable, Codable {
    /// What kind of signal was seen.
    public enum Signal: String, Sendable, Hashable, Codable, CaseIterable {
        // Linux (and other platforms with /proc)
        /// A tracer (debugger, strace, an instrumentation tool) is attached: `TracerPid` is not 0.
        case debuggerAttached
        /// `LD_PRELOAD` is set: libraries chosen by the launcher run inside the process.
        case preloadEnvironment
        /// `LD_AUDIT` is set: an audit library sees every symbol binding.
        case auditEnvironment
        /// A library matching a known instrumentation pattern (frida-agent, frida-gadget, libinject...) is mapped.
        case injectedLibrary
        /// The process runs with effective user id 0.
        case runningAsRoot
        /// Core dumps are enabled (`RLIMIT_CORE` > 0 and the process is dumpable): secrets can end up on disk.
        case coreDumpsEnabled
        /// The process is dumpable (`PR_GET_DUMPABLE` = 1) even though `RLIMIT_CORE` is 0.
        case processDumpable
        // Apple platforms (jailbreak signals)
        /// A file that only exists on jailbroken devices is present.
        case jailbreakFile
        /// A URL scheme registered by a jailbreak package manager can be opened.
        case jailbreakURLScheme
        /// A path outside the app sandbox is writable.
        case writableSystemPath
        /// A loaded dylib has a name used by tweak injection frameworks.
        case suspiciousDylib
        /// `fork()` succeeded, which the iOS sandbox forbids.
        case forkAllowed
    }

    /// The kind of signal.
    public let signal: Signal
    /// How serious it is.
    public let severity: IntegritySeverity
    /// A human-readable detail (a path, a pid, a variable name). Never contains a secret.
    public let detail: String

    /// Creates a finding.
    public init(signal: Signal, severity: IntegritySeverity, detail: String) {
        self.signal = signal
        self.severity = severity
        self.detail = detail
    }
}
