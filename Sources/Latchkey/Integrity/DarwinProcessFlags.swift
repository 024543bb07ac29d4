import Foundation
#if canImport(Darwin)
import Darwin
#endif

/// The calling process's `kinfo_proc.kp_proc.p_flag` on Apple platforms — Apple's documented way to tell whether a
/// debugger is attached (Technical Q&A QA1361: `sysctl` with `CTL_KERN`, `KERN_PROC`, `KERN_PROC_PID`, then
/// `P_TRACED`). Elsewhere nil. Only the `sysctl` call is platform code; `ProcessSnapshot.isTraced` and
/// `IntegrityCheck.evaluate` decide from the flags on every platform.
enum DarwinProcessFlags {
    static func current() -> Int32? {
        #if canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
        guard sysctl(&name, UInt32(name.count), &info, &size, nil, 0) == 0 else { return nil }
        return info.kp_proc.p_flag
        #else
        return nil
        #endif
    }
}
