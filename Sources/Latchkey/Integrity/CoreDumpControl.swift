import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and turns off core dumps (`RLIMIT_CORE`, and on Linux `PR_SET_DUMPABLE`).
enum CoreDumpControl {
    /// The soft `RLIMIT_CORE` limit, or `nil` if it cannot be read.
    static func currentLimit() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(coreResource, &limit) == 0 else { return nil }
        return UInt64(limit.rlim_cur)
    }

    /// Sets the soft and hard `RLIMIT_CORE` limits to 0. Returns errno on failure.
    static func setLimitZero() -> Int32? {
        var limit = rlimit(rlim_cur: 0, rlim_max: 0)
        return setrlimit(coreResource, &limit) == 0 ? nil : errno
    }

    #if os(Linux)
    private static let coreResource = __rlimit_resource_t(RLIMIT_CORE.rawValue)

    /// `prctl` is C-variadic, which Swift does not import; on x86-64 and arm64 Linux a variadic callee
    /// receives integer arguments exactly like a fixed-argument one, so it is called through this type.
    private static let getDumpable: Int32 = 3  // PR_GET_DUMPABLE (linux/prctl.h)
    private static let setDumpable: Int32 = 4  // PR_SET_DUMPABLE
    private typealias PrctlFunction = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

    private static func prctl(_ option: Int32, _ argument: UInt) -> Int32? {
        guard let symbol = dlsym(nil /* RTLD_DEFAULT on glibc */, "prctl") else {
            return nil
        }
        let function = unsafeBitCast(symbol, to: PrctlFunction.self)
        return function(option, argument, 0, 0, 0)
    }

    /// `prctl(PR_GET_DUMPABLE) != 0`, or `nil` if it cannot be asked.
    static func isDumpable() -> Bool? {
        guard let result = prctl(getDumpable, 0), result >= 0 else { return nil }
        return result != 0
    }

    /// `prctl(PR_SET_DUMPABLE, 0)`. Returns errno on failure.
    static func clearDumpable() -> Int32? {
        guard let result = prctl(setDumpable, 0) else { return ENOSYS }
        return result == 0 ? nil : errno
    }
    #else
    private static let coreResource = RLIMIT_CORE

    static func isDumpable() -> Bool? { nil }
    static func clearDumpable() -> Int32? { nil }
    #endif
}
