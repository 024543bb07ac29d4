import Foundation

/// Raw facts about a process, as read from the operating system. `IntegrityCheck` turns them into findings;
/// keeping the reading apart from the deciding lets the decision logic be tested with any facts.
public struct ProcessSnapshot: Sendable, Hashable {
    /// The text of `/proc/self/status`, or `nil` where there is no such file.
    public var status: String?
    /// The text of `/proc/self/maps`, or `nil` where there is no such file.
    public var maps: String?
    /// The process environment.
    public var environment: [String: String]
    /// The effective user id.
    public var effectiveUserID: UInt32
    /// The soft `RLIMIT_CORE` limit in bytes (`UInt64.max` = unlimited), or `nil` when unknown.
    public var coreDumpLimit: UInt64?
    /// `prctl(PR_GET_DUMPABLE)` != 0, or `nil` when unknown.
    public var isDumpable: Bool?
    /// The process's `kinfo_proc` flags (`sysctl` `CTL_KERN`/`KERN_PROC`/`KERN_PROC_PID`) on Apple platforms, where
    /// `P_TRACED` marks an attached debugger; `nil` elsewhere (Linux has `TracerPid`).
    public var processFlags: Int32?

    /// Creates a snapshot from given facts.
    public init(status: String?, maps: String?, environment: [String: String], effectiveUserID: UInt32,
                coreDumpLimit: UInt64?, isDumpable: Bool?, processFlags: Int32? = nil) {
        self.status = status
        self.maps = maps
        self.environment = environment
        self.effectiveUserID = effectiveUserID
        self.coreDumpLimit = coreDumpLimit
        self.isDumpable = isDumpable
        self.processFlags = processFlags
    }

    /// `P_TRACED` (sys/proc.h): the process is being traced by a debugger.
    public static let tracedFlag: Int32 = 0x0000_0800

    /// Whether `processFlags` says a debugger is attached (nil when the flags are unknown).
    public var isTraced: Bool? { processFlags.map { $0 & Self.tracedFlag != 0 } }

    /// The facts of the calling process.
    public static func current() -> ProcessSnapshot {
        ProcessSnapshot(
            status: ProcFile.contents(of: "/proc/self/status"),
            maps: ProcFile.contents(of: "/proc/self/maps"),
            environment: ProcessInfo.processInfo.environment,
            effectiveUserID: UInt32(geteuid()),
            coreDumpLimit: CoreDumpControl.currentLimit(),
            isDumpable: CoreDumpControl.isDumpable(),
            processFlags: DarwinProcessFlags.current())
    }

    /// `TracerPid` from the status text: the pid of an attached tracer, 0 when none, `nil` if absent.
    public var tracerPID: Int? {
        guard let status else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("TracerPid:") {
            return Int(line.dropFirst("TracerPid:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// The distinct file paths mapped into the process (from the maps text), in first-seen order.
    public var mappedPaths: [String] {
        guard let maps else { return [] }
        var seen = Set<String>()
        var paths: [String] = []
        for line in maps.split(separator: "\n") {
            // address perms offset dev inode [pathname] — the pathname may contain spaces.
            var rest = Substring(line)
            var fieldsSkipped = 0
            while fieldsSkipped < 5, !rest.isEmpty {
                rest = rest.drop { $0 != " " }.drop { $0 == " " }
                fieldsSkipped += 1
            }
            var path = String(rest)
            if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
            guard path.hasPrefix("/"), seen.insert(path).inserted else { continue }
            paths.append(path)
        }
        return paths
    }
}
