#if os(Linux) || os(macOS)
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a command to completion with `posix_spawn` and `waitpid`, for tests and benchmarks that start helpers
/// (tmux, `pg_ctl`, scripts/cluster.sh) which may leave daemons running.
///
/// Not Foundation's `Process`: on Linux its `waitUntilExit` waits on a run loop for a socket that the child holds
/// to close, so a daemon that inherits that socket keeps the caller waiting for good. For the same reason the child
/// here keeps no descriptor above stderr (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34): a daemon it
/// leaves behind would otherwise hold the monitoring sockets of every `Process` running at that moment in this
/// process, and their `waitUntilExit` would never return (seen as a hung `make test` on a busy machine).
package enum SpawnedCommand {
    /// Runs `arguments` (the executable's path first) with stdin from /dev/null, stdout and stderr both to the file
    /// at `outputPath` (created or truncated, mode 0600) or to /dev/null, and `environment`. Returns the exit status,
    /// or 128 + the signal that ended it.
    package static func run(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                            outputPath: String? = nil) throws -> Int32 {
        guard let executable = arguments.first else { throw POSIXError(.EINVAL) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        #if canImport(Glibc)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        #endif
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
#endif
