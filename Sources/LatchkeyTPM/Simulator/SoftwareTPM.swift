import Foundation
import Glibc
import LatchkeySupport

/// A swtpm (Debian `swtpm`), the TPM 2.0 simulator, for tests and benchmarks: on two free loopback ports (commands, and
/// the control channel tpm2-tss's swtpm TCTI needs on the next port), its state in a temporary directory. A watchdog
/// shell stops it and removes the directory when the process that started it ends, however it ends. `stop()` ends it
/// at once.
package final class SoftwareTPM: Sendable {
    /// The TCTI configuration for `LatchkeySecureEnclaveConfiguration` / `LATCHKEY_TPM_TCTI`.
    package let tcti: String
    package let directory: URL
    package let port: Int

    /// The swtpm executable, or nil when Debian's `swtpm` is not installed.
    package static let executable: String? = ["/usr/bin/swtpm", "/usr/local/bin/swtpm"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether a test without swtpm must fail rather than be skipped (`make test` sets LATCHKEY_REQUIRE_SERVICES=1).
    package static var required: Bool { ProcessInfo.processInfo.environment["LATCHKEY_REQUIRE_SERVICES"] == "1" }

    /// Starts a new swtpm; nil when swtpm is missing and not `required` (the caller skips).
    package static func start() throws -> SoftwareTPM? {
        guard let executable else {
            if required { throw SoftwareTPMError.missing }
            return nil
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-swtpm-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for _ in 0..<40 {
            guard let port = freePortPair() else { continue }
            let script = """
            "$0" socket --tpm2 --daemon --pid file="$1/pid" --tpmstate dir="$1" \
              --server type=tcp,port=$2,bindaddr=127.0.0.1 --ctrl type=tcp,port=$(($2 + 1)),bindaddr=127.0.0.1 \
              --flags not-need-init,startup-clear --log file="$1/log" || exit $?
            ( while kill -0 $3 2>/dev/null && kill -0 "$(cat "$1/pid")" 2>/dev/null; do sleep 1; done
              kill "$(cat "$1/pid")" 2>/dev/null; sleep 1; rm -rf "$1" ) >/dev/null 2>&1 &
            """
            let status = try SpawnedCommand.run(["/bin/sh", "-c", script, executable, directory.path, String(port),
                                                 String(getpid())])
            if status == 0 { return SoftwareTPM(directory: directory, port: port) }
        }
        try? FileManager.default.removeItem(at: directory)
        throw SoftwareTPMError.noPort
    }

    private init(directory: URL, port: Int) {
        self.directory = directory
        self.port = port
        tcti = "swtpm:host=127.0.0.1,port=\(port)"
    }

    deinit { stop() }

    /// A power cycle: swtpm-tools' `swtpm_ioctl -i` (TPM_Init over the control channel). The TPM's volatile state is
    /// gone — objects, sessions and saved contexts of before — and it waits for TPM2_Startup, as after a reboot; its
    /// seeds, hence keys made before, remain.
    package func powerCycle() throws {
        guard let tool = ["/usr/bin/swtpm_ioctl", "/usr/local/bin/swtpm_ioctl"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else { throw SoftwareTPMError.missing }
        let status = try SpawnedCommand.run([tool, "--tcp", "127.0.0.1:\(port + 1)", "-i"])
        guard status == 0 else { throw SoftwareTPMError.failed("swtpm_ioctl -i exited with \(status)") }
    }

    /// Stops swtpm (the watchdog then removes the state directory). Only the first call signals, and only a process
    /// that is still this swtpm (its command line names this state directory): swtpm is not this process's child, so
    /// once it has exited its pid may be another process's.
    package func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first, let text = try? String(contentsOf: directory.appendingPathComponent("pid"), encoding: .utf8),
              let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0,
              let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
              String(decoding: command, as: UTF8.self).contains(directory.path) else { return }
        kill(pid, SIGTERM)
    }

    private let stopped = Locked(false)

    /// A port p with p and p + 1 both free on 127.0.0.1 now (swtpm may still lose the race: `start` retries).
    private static func freePortPair() -> Int? {
        let port = Int.random(in: 20_000..<60_000)
        return canBind(port) && canBind(port + 1) ? port : nil
    }

    private static func canBind(_ port: Int) -> Bool {
        let fd = socket(AF_INET, PortableSocket.stream, 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return PortableSocket.bindLoopback(fd, port: UInt16(port))
    }
}

package enum SoftwareTPMError: Error, CustomStringConvertible {
    case missing, noPort
    case failed(String)
    package var description: String {
        switch self {
        case .missing: "swtpm is not installed (Debian swtpm and swtpm-tools; make deps installs them)"
        case .noPort: "no free pair of loopback ports for swtpm after 40 tries"
        case let .failed(reason): reason
        }
    }
}
