import Foundation
import LatchkeySupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Testing only (`latchkey serve --clock-offset-file FILE`): another clock (the system's) plus the whole seconds a
/// file holds, so a test of a server in another process moves that server's time forward instead of sleeping
/// (e.g. past `--step-up-max-age`), and what it sees does not depend on how fast the machine is.
///
/// The file holds a decimal number of seconds (e.g. `301`, or `-5`); a missing file means 0. It is looked at with one
/// `stat` per reading and read again only when it changed (device, inode, size or modification time; writers replace
/// it atomically). A file that does not parse keeps the offset read before.
public final class OffsetFileClock: ServerClock {
    public let path: String
    private let base: any ServerClock
    private let cached = Locked<(stamp: Stamp?, seconds: Int64)>((nil, 0))

    /// What identifies one version of the file.
    private struct Stamp: Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Int64
        let modifiedNanoseconds: Int64
    }

    public init(path: String, base: any ServerClock = SystemClock()) {
        self.path = path
        self.base = base
    }

    public func now() -> Date { base.now().addingTimeInterval(TimeInterval(offset)) }

    /// The seconds the file holds now.
    public var offset: Int64 {
        let stamp = currentStamp()
        return cached.withLock { cache in
            guard cache.stamp != stamp else { return cache.seconds }
            if let stamp {
                if let data = FileManager.default.contents(atPath: path),
                   let seconds = Int64(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) {
                    cache.seconds = seconds
                }
                cache.stamp = stamp
            } else {
                cache = (nil, 0)
            }
            return cache.seconds
        }
    }

    private func currentStamp() -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return Stamp(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino), size: Int64(info.st_size),
                     modified: Int64(modified.tv_sec), modifiedNanoseconds: Int64(modified.tv_nsec))
    }
}
